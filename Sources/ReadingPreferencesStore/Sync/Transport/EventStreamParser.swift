import Foundation

/// Reads a `text/event-stream` (Server-Sent Events, as the WHATWG HTML standard defines the
/// format) from bytes as they arrive, in any pieces: lines end at CR, LF or CRLF (a CR at the
/// end of one piece and an LF at the start of the next are one end), a line starting with `:`
/// is a comment, `field: value` sets a field (one space after the colon is dropped), and an
/// empty line dispatches the event gathered so far when it has data.
///
/// A line longer than ``lineLimit`` bytes fails the stream: a server that never ends a line
/// cannot make the reader hold more than that.
struct EventStreamParser {
    /// A dispatched event.
    struct Event: Equatable {
        /// `event:`, or `message` when none was given.
        var type: String
        /// `data:` lines, joined with LF.
        var data: String
        /// The last event id the stream set (`id:`), which a reconnection sends back as
        /// `Last-Event-ID`.
        var id: String?
    }

    /// A line longer than the parser accepts.
    struct LineTooLong: Error {}

    /// The longest line accepted, in bytes.
    let lineLimit: Int
    /// The last event id set, carried from event to event as the standard says.
    private(set) var lastEventID: String?
    /// The reconnection time the server asked for (`retry:`), in milliseconds.
    private(set) var retry: Int?
    private var line: [UInt8] = []
    private var afterCR = false
    private var startOfStream = true
    private var type = ""
    private var data: [UInt8] = []
    private var hasData = false

    init(lineLimit: Int = 1 << 20) {
        self.lineLimit = lineLimit
    }

    /// Reads more bytes, and answers the events they complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                afterCR = true
                if let event = endLine() { events.append(event) }
            case 0x0A:
                if let event = endLine() { events.append(event) }
            default:
                guard line.count < lineLimit else { throw LineTooLong() }
                line.append(byte)
            }
        }
        return events
    }

    /// Handles the line read, and answers the event an empty line dispatches.
    private mutating func endLine() -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        if startOfStream {
            startOfStream = false
            // A byte order mark before the first line is not part of it.
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = line[...]
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event": type = String(decoding: value, as: UTF8.self)
        case "data":
            data.append(contentsOf: value)
            data.append(0x0A)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) {
                retry = Int(String(decoding: value, as: UTF8.self))
            }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> Event? {
        defer {
            type = ""
            data.removeAll(keepingCapacity: true)
            hasData = false
        }
        guard hasData else { return nil }
        if data.last == 0x0A { data.removeLast() }
        return Event(
            type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self),
            id: lastEventID)
    }
}
