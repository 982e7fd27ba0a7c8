import Foundation
import ReadingPreferences
import Testing

@testable import ReadingPreferencesServer

/// Specs/Server.md §9.3: several instances on one PostgreSQL database tell each other through
/// `LISTEN`/`NOTIFY`; a listener that loses its connection opens another and pokes its streams.
@Suite(
    "Live changes across instances",
    .enabled(
        if: TestDatabase.postgresURL != nil, "READINGPREFS_TEST_DATABASE_URL names no PostgreSQL database"))
struct LiveInstanceTests {
    @Test("an edit through one instance reaches a stream held on the other")
    func acrossInstances() async throws {
        try await LiveServer.with(.postgres) { one in
            try await LiveServer.with(.postgres) { two in
                let token = try await one.server.addUser(named: "reader").token
                let stream = try await two.stream(token: token)
                defer { stream.close() }
                let edit = try await one.request(
                    "POST", "/v1/epub/publications/b/edits", token: token,
                    body: #"{"edits":[{"key":"fontSize","op":"set","value":1.5}]}"#)
                #expect(edit.status == 200)
                let events = try await stream.events(1)
                #expect(events[0].id == "c1")
                #expect(events[0].data.contains(#""scopes":["epub/shared"]"#))
            }
        }
    }

    @Test(
        "the listener's connection killed by PostgreSQL is opened again, and its streams are poked and converge"
    )
    func listenerKilled() async throws {
        try await LiveServer.with(.postgres) { one in
            try await LiveServer.with(.postgres) { two in
                let token = try await one.server.addUser(named: "reader").token
                let stream = try await two.stream(token: token)
                defer { stream.close() }
                _ = try await one.request(
                    "PATCH", "/v1/epub/preferences/shared", token: token, body: #"{"fontSize":1.2}"#)
                #expect(try await stream.events(1)[0].id == "c1")

                let (listening, listened) = AsyncStream.makeStream(of: Void.self)
                two.server.listener?.onListening = { listened.yield() }
                // Both instances' listeners go (and no other test's); an edit made meanwhile may
                // find nobody listening.
                let names = [one.server.listener?.applicationName, two.server.listener?.applicationName]
                let killed = try await one.server.database.query(
                    "SELECT CAST(count(pg_terminate_backend(pid)) AS TEXT) AS n FROM pg_stat_activity "
                        + "WHERE application_name IN (?, ?) AND datname = current_database()",
                    names.map { $0 ?? "" })
                #expect(Int(killed.first?["n"] ?? "0") ?? 0 >= 2)
                _ = try await one.request(
                    "PATCH", "/v1/epub/preferences/shared", token: token, body: #"{"fontSize":1.3}"#)
                // The stream reaches c2, by the notice or by the poke once its listener is back.
                #expect(
                    try await stream.wait(within: liveLimit) { SSE.events(in: $0).contains { $0.id == "c2" } }
                )
                // The listener listens again (and poked the stream): a later edit is announced.
                #expect(await first(of: listening) != nil)
                _ = try await one.request(
                    "PATCH", "/v1/epub/preferences/shared", token: token, body: #"{"fontSize":1.4}"#)
                #expect(
                    try await stream.wait(within: liveLimit) { SSE.events(in: $0).contains { $0.id == "c3" } }
                )
            }
        }
    }

    @Test(
        "a device revoked through one instance is refused on both, and its stream on the other ends within a second"
    )
    func revokedEverywhere() async throws {
        try await LiveServer.with(.postgres) { one in
            try await LiveServer.with(.postgres) { two in
                let account = try await one.server.addUser(named: "reader").token
                let (id, token) = try await one.device("phone", account: account)
                #expect(try await two.request("GET", "/v1/devices", token: token).status == 200)
                let stream = try await two.stream(token: token)
                defer { stream.close() }

                let started = ContinuousClock.now
                #expect(try await one.request("DELETE", "/v1/devices/\(id)", token: account).status == 204)
                // Within a second on a machine that runs nothing else (.ci/live.sh); the tests run
                // beside each other, so here the bound is looser.
                try await stream.waitForClose(within: .seconds(3))
                #expect(ContinuousClock.now - started < .seconds(3))
                #expect(try await one.request("GET", "/v1/devices", token: token).status == 401)
                #expect(try await two.request("GET", "/v1/devices", token: token).status == 401)
            }
        }
    }
}
