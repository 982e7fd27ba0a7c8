/// A window of the day in the device's local time, such as sunset to sunrise
/// (`{"from": "20:30", "to": "06:45"}`), for a profile rule's `time` condition
/// (Specs/Store.md §4.5).
///
/// The window holds `from` and excludes `to`; when `to` comes before `from` it wraps past
/// midnight, so `20:30`–`06:45` holds at 23:00 and at 05:00, not at noon.
///
/// ```swift
/// let night = try LocalTimeWindow(from: "20:30", to: "06:45")
/// night.contains(minuteOfDay: 23 * 60)   // true
/// night.contains(minuteOfDay: 12 * 60)   // false
/// ```
public struct LocalTimeWindow: Sendable, Hashable, CustomStringConvertible {
    /// Where the window starts, in minutes after midnight (0 ..< 1440); included.
    public let from: Int
    /// Where the window ends, in minutes after midnight (0 ..< 1440); excluded.
    public let to: Int

    /// The minutes in a day.
    public static let minutesPerDay = 1440

    /// Creates a window from minutes after midnight, or `nil` when either is outside
    /// 0 ..< 1440 or they are equal (an empty window).
    ///
    /// - Parameters:
    ///   - from: The first minute of the window.
    ///   - to: The first minute after it.
    public init?(fromMinute from: Int, toMinute to: Int) {
        guard (0..<Self.minutesPerDay).contains(from), (0..<Self.minutesPerDay).contains(to), from != to
        else {
            return nil
        }
        self.from = from
        self.to = to
    }

    /// Creates a window from `HH:MM` times.
    ///
    /// - Parameters:
    ///   - from: The first minute of the window, such as `"20:30"`.
    ///   - to: The first minute after it, such as `"06:45"`.
    /// - Throws: ``LocalTimeWindow/Problem`` when a time is not `HH:MM` or the two are equal.
    public init(from: String, to: String) throws(Problem) {
        guard let start = Self.minuteOfDay(from) else { throw .notATime(from) }
        guard let end = Self.minuteOfDay(to) else { throw .notATime(to) }
        guard let window = LocalTimeWindow(fromMinute: start, toMinute: end) else { throw .empty }
        self = window
    }

    /// Whether a minute of the day falls in the window.
    ///
    /// - Parameter minute: Minutes after local midnight.
    /// - Returns: `true` from `from` up to, not including, `to`, across midnight when it wraps.
    public func contains(minuteOfDay minute: Int) -> Bool {
        from < to ? (from <= minute && minute < to) : (minute >= from || minute < to)
    }

    /// `20:30–06:45`.
    public var description: String { Self.text(from) + "–" + Self.text(to) }

    /// The window as JSON: `{"from": "20:30", "to": "06:45"}`.
    public var jsonValue: JSONValue {
        .object(
            JSONObject(members: [
                .init(key: "from", value: .string(Self.text(from))),
                .init(key: "to", value: .string(Self.text(to))),
            ]))
    }

    /// The minutes after midnight of an `HH:MM` time (two digits each, `00:00` to `23:59`), or
    /// `nil` when it is not one.
    ///
    /// - Parameter text: The time.
    /// - Returns: Its minute of the day.
    public static func minuteOfDay(_ text: String) -> Int? {
        let bytes = Array(text.utf8.prefix(6))
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":") else { return nil }
        func digit(_ index: Int) -> Int? {
            let byte = bytes[index]
            return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                ? Int(byte - UInt8(ascii: "0")) : nil
        }
        guard let h1 = digit(0), let h2 = digit(1), let m1 = digit(3), let m2 = digit(4) else { return nil }
        let hours = h1 * 10 + h2
        let minutes = m1 * 10 + m2
        guard hours < 24, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }

    /// `HH:MM` for a minute of the day.
    static func text(_ minute: Int) -> String {
        let hours = minute / 60
        let minutes = minute % 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }

    /// Why a window could not be made.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text is not an `HH:MM` time.
        case notATime(String)
        /// `from` and `to` are the same minute.
        case empty

        /// What is wrong, for people.
        public var description: String {
            switch self {
            case .notATime(let text):
                return
                    "expected a time \"HH:MM\" (00:00 to 23:59), got \(JSONMemberReader.describe(.string(text)))"
            case .empty: return "\"from\" and \"to\" are the same time: the window would be empty"
            }
        }
    }
}
