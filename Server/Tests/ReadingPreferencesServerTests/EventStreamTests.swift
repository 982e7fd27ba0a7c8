import Foundation
import ReadingPreferences
import Testing

@testable import ReadingPreferencesServer

/// Specs/Server.md §9.1–9.2: the event stream, resuming, heartbeats, tickets, and tokens never
/// read from a URL.
@Suite("Event streams")
struct EventStreamTests {
    @Test(
        "an edit is announced on an open stream: event changed, id the cursor, its configurables and scopes",
        arguments: TestDatabase.available)
    func changeAnnounced(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let token = try await live.server.addUser(named: "reader").token
            let stream = try await live.stream(token: token)
            defer { stream.close() }
            let head = try HTTPText.parse(stream.received)
            #expect(head.status == 200)
            #expect(head.headers["content-type"] == "text/event-stream")
            #expect(head.headers["cache-control"] == "no-store")
            let patch = try await live.request(
                "PATCH", "/v1/epub/preferences/shared", token: token, body: #"{"fontSize":1.4}"#)
            #expect(patch.status == 200)
            let book = try await live.request(
                "PATCH", "/v1/epub/preferences/publications/urn%3Aisbn%3A1", token: token,
                body: #"{"readingProgression":"rtl"}"#)
            #expect(book.status == 200)
            let events = try await stream.events(2)
            #expect(events[0].id == "c1")
            #expect(events[0].data == #"{"cursor":"c1","configurables":["epub"],"scopes":["epub/shared"]}"#)
            #expect(events[1].id == "c2")
            #expect(events[1].data.contains(#""scopes":["epub/publication/urn:isbn:1"]"#))
        }
    }

    @Test("another user's edits are not announced on a stream", arguments: TestDatabase.available)
    func otherUsers(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let alice = try await live.server.addUser(named: "alice").token
            let bob = try await live.server.addUser(named: "bob").token
            let stream = try await live.stream(token: alice)
            defer { stream.close() }
            _ = try await live.request(
                "PATCH", "/v1/epub/preferences/shared", token: bob, body: #"{"fontSize":2}"#)
            _ = try await live.request(
                "PATCH", "/v1/pdf/preferences/shared", token: alice, body: #"{"fit":"width"}"#)
            // Alice's own change comes first and alone: Bob's made none.
            let events = try await stream.events(1)
            #expect(events.map(\.id) == ["c1"])
            #expect(events[0].data.contains(#""configurables":["pdf"]"#))
        }
    }

    @Test(
        "Last-Event-ID resumes: one event first when the cursor moved since, none when it did not",
        arguments: TestDatabase.available)
    func resume(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let token = try await live.server.addUser(named: "reader").token
            for size in ["1.1", "1.2", "1.3"] {
                _ = try await live.request(
                    "PATCH", "/v1/epub/preferences/shared", token: token, body: #"{"fontSize":\#(size)}"#)
            }
            let behind = try await live.stream(token: token, lastEventID: "c1")
            defer { behind.close() }
            let caughtUp = try await behind.events(1)
            #expect(caughtUp[0].id == "c3")
            #expect(caughtUp[0].data == #"{"cursor":"c3","configurables":["epub"],"scopes":["epub/shared"]}"#)

            let current = try await live.stream(token: token, lastEventID: "c3")
            defer { current.close() }
            _ = try await live.request(
                "PATCH", "/v1/epub/preferences/shared", token: token, body: #"{"fontSize":2}"#)
            // The first event is the new change: nothing was sent for c3, which it had.
            let next = try await current.events(1)
            #expect(next[0].id == "c4")

            let bad = try await live.request(
                "GET", "/v1/events", token: token, headers: ["Last-Event-ID": "yesterday"])
            #expect(bad.status == 400)
            #expect(bad.body.contains("invalidLastEventID"))
        }
    }

    @Test("a comment comes at each heartbeat", arguments: TestDatabase.available)
    func heartbeat(database: TestDatabase) async throws {
        try await LiveServer.with(database, { $0.heartbeat = .milliseconds(200) }) { live in
            let token = try await live.server.addUser(named: "reader").token
            let stream = try await live.stream(token: token)
            defer { stream.close() }
            #expect(try await stream.wait(within: liveLimit) { SSE.heartbeats(in: $0) >= 3 })
            #expect(stream.received.contains("retry: 2000\n"))
        }
    }

    @Test(
        "a ticket opens one stream without a token, once; a used or expired ticket is 401",
        arguments: TestDatabase.available)
    func tickets(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let token = try await live.server.addUser(named: "reader").token
            let made = try await live.request("POST", "/v1/events/tickets", token: token)
            #expect(made.status == 200)
            let ticket = try #require(try JSONValue(json: made.body).objectValue?["ticket"]?.stringValue)
            #expect(ticket.hasPrefix("tk_"))
            #expect(try await live.request("POST", "/v1/events/tickets").status == 401)

            // HEAD checks it without using it up.
            #expect(try await live.request("HEAD", "/v1/events?ticket=\(ticket)").status == 200)
            let stream = try await live.stream(ticket: ticket)
            defer { stream.close() }
            _ = try await live.request(
                "PATCH", "/v1/epub/preferences/shared", token: token, body: #"{"fontSize":1.5}"#)
            #expect(try await stream.events(1)[0].id == "c1")

            let again = try await live.request("GET", "/v1/events?ticket=\(ticket)")
            #expect(again.status == 401)
            #expect(again.body.contains("unknownTicket"))

            let stale = try await live.server.live.tickets.issue(
                for: TokenIdentity(userID: try await live.server.accounts.user(forToken: token) ?? ""),
                now: Accounts.now() - EventTickets.lifetime - 1)
            #expect(try await live.request("GET", "/v1/events?ticket=\(stale)").status == 401)
            #expect(try await live.request("GET", "/v1/events?ticket=tk_nothing").status == 401)
            // With a ticket, the ticket decides: a used one opens nothing, whatever else comes.
            let both = try await live.request("GET", "/v1/events?ticket=\(ticket)", token: token)
            #expect(both.status == 401)
        }
    }

    @Test(
        "no route takes a token from the query: ?token=, ?access_token=, a token given as a ticket are 401",
        arguments: TestDatabase.available)
    func noTokenInQuery(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let token = try await live.server.addUser(named: "reader").token
            for path in [
                "/v1/events?token=\(token)", "/v1/events?access_token=\(token)",
                "/v1/events?authorization=\(token)",
                "/v1/export?access_token=\(token)", "/v1/devices?token=\(token)",
                "/v1/epub/publications/b/settings?access_token=\(token)", "/v1/sync/state?bearer=\(token)",
            ] {
                let answer = try await live.request("GET", path)
                #expect(answer.status == 401, "\(path)")
            }
            // A token where a ticket goes opens nothing either.
            #expect(try await live.request("GET", "/v1/events?ticket=\(token)").status == 401)
        }
    }
}
