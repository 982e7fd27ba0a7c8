import Foundation
import ReadingPreferences
import Testing

@testable import ReadingPreferencesStore

/// The event stream a reading back end sends (Specs/Server.md §9.1), read as the Server-Sent
/// Events format says, whatever pieces it arrives in.
@Suite("Reading an event stream")
struct EventStreamParserTests {
    static let stream = Array(
        ("\u{FEFF}retry: 2000\r\n: open\r\n\r\nevent: changed\rid: c1\rdata: {\"cursor\":\"c1\"}\r\r"
            + ": heartbeat\n\nevent: changed\nid: c2\ndata: one\ndata:two\n\ndata\n\nid: c3\n\n").utf8)

    static let expected = [
        EventStreamParser.Event(type: "changed", data: #"{"cursor":"c1"}"#, id: "c1"),
        EventStreamParser.Event(type: "changed", data: "one\ntwo", id: "c2"),
        // A field with no colon is a field with an empty value; an event keeps the last id.
        EventStreamParser.Event(type: "message", data: "", id: "c2"),
    ]

    @Test(
        "CR, LF and CRLF end lines; comments and blocks without data dispatch nothing",
        arguments: [1, 2, 3, 7, 1000])
    func pieces(size: Int) throws {
        var parser = EventStreamParser()
        var events: [EventStreamParser.Event] = []
        for start in stride(from: 0, to: Self.stream.count, by: size) {
            events += try parser.feed(Self.stream[start..<min(start + size, Self.stream.count)])
        }
        #expect(events == Self.expected)
        #expect(parser.retry == 2000)
        #expect(parser.lastEventID == "c3")
    }

    @Test("a line longer than the limit fails the stream instead of growing without end")
    func longLine() {
        var parser = EventStreamParser(lineLimit: 16)
        #expect(throws: EventStreamParser.LineTooLong.self) {
            _ = try parser.feed(Array("data: 0123456789abcdefghij".utf8))
        }
    }

    @Test("a change's data is read; one that is not a change is left out")
    func change() {
        let change = ServerChange(
            data: #"{"cursor":"c9","configurables":["epub"],"scopes":["epub/shared","epub/publication/a/b"]}"#
        )
        #expect(change?.cursor == "c9")
        #expect(change?.configurables == ["epub"])
        #expect(change?.scopes.map(\.description) == ["epub/shared", "epub/publication/a/b"])
        #expect(ServerChange(data: "not json") == nil)
        #expect(ServerChange(data: #"{"configurables":[]}"#) == nil)
    }
}
