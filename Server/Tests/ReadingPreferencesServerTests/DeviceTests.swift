import Foundation
import ReadingPreferences
import Testing

@testable import ReadingPreferencesServer

/// Specs/Server.md §3.4: devices with tokens of their own, listed and revoked.
@Suite("Devices and their tokens")
struct DeviceTests {
    @Test(
        "a device gets its own token, is listed with name, class, replica, created and last seen",
        arguments: TestDatabase.available)
    func register(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let account = try await live.server.addUser(named: "reader").token
            let made = try await live.request(
                "POST", "/v1/devices", token: account, body: #"{"name":"Kobo Clara","class":"eink"}"#)
            #expect(made.status == 201)
            let answer = try #require(try JSONValue(json: made.body).objectValue)
            let id = try #require(answer["id"]?.stringValue)
            let token = try #require(answer["token"]?.stringValue)
            #expect(token != account)

            // Never seen yet; its first request (a push) is seen, and binds its replica id.
            let before = try await devices(live, account)
            #expect(before.count == 1)
            #expect(before[0]["name"] == .string("Kobo Clara"))
            #expect(before[0]["class"] == .string("eink"))
            #expect(before[0]["replica"] == .null)
            #expect(before[0]["lastSeen"] == .null)
            #expect(before[0]["created"]?.stringValue?.hasSuffix("Z") == true)
            let push = try await live.request(
                "POST", "/v1/sync/push", token: token, body: #"{"replica":"kobo","entries":[]}"#)
            #expect(push.status == 200)
            let after = try await devices(live, token)
            #expect(after[0]["id"] == .string(id))
            #expect(after[0]["replica"] == .string("kobo"))
            #expect(after[0]["lastSeen"]?.stringValue != nil)
            // The device's token opens the same account.
            #expect(try await live.request("GET", "/v1/export", token: token).status == 200)

            // The token is kept as its hash only.
            let stored = try await live.server.database.query("SELECT token_hash FROM tokens", [])
            #expect(!stored.contains { $0["token_hash"] == token })
            #expect(stored.contains { $0["token_hash"] == Accounts.hash(token) })
        }
    }

    @Test(
        "bad device bodies are 400; another user's device is not there (404)",
        arguments: TestDatabase.available)
    func refusals(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let alice = try await live.server.addUser(named: "alice").token
            let bob = try await live.server.addUser(named: "bob").token
            for body in [
                "{}", #"{"name":""}"#, #"{"name":3}"#, #"{"name":"x","class":"E Ink"}"#,
                #"{"name":"x","replica":""}"#, #"{"name":"x","colour":"red"}"#, "[]", "not json",
            ] {
                let answer = try await live.request("POST", "/v1/devices", token: alice, body: body)
                #expect(answer.status == 400, "\(body)")
            }
            let made = try await live.request("POST", "/v1/devices", token: alice, body: #"{"name":"phone"}"#)
            let id = try #require(try JSONValue(json: made.body).objectValue?["id"]?.stringValue)
            #expect(try await live.request("DELETE", "/v1/devices/\(id)", token: bob).status == 404)
            #expect(try await devices(live, bob).isEmpty)
            #expect(try await live.request("DELETE", "/v1/devices/\(id)", token: alice).status == 204)
            #expect(try await live.request("DELETE", "/v1/devices/\(id)", token: alice).status == 404)
        }
    }

    @Test(
        "a revoked device's token fails at its next request, its stream ends, its tickets open nothing",
        arguments: TestDatabase.available)
    func revoke(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let account = try await live.server.addUser(named: "reader").token
            let (id, token) = try await live.device("phone", account: account)
            let ticketAnswer = try await live.request("POST", "/v1/events/tickets", token: token)
            let ticket = try #require(
                try JSONValue(json: ticketAnswer.body).objectValue?["ticket"]?.stringValue)
            let stream = try await live.stream(token: token)
            defer { stream.close() }
            // The account's own stream stays.
            let own = try await live.stream(token: account)
            defer { own.close() }

            let started = ContinuousClock.now
            #expect(try await live.request("DELETE", "/v1/devices/\(id)", token: account).status == 204)
            // Within a second on a machine that runs nothing else (.ci/live.sh); the tests run
            // beside each other, so here the bound is looser.
            try await stream.waitForClose(within: .seconds(3))
            #expect(ContinuousClock.now - started < .seconds(3))
            #expect(try await live.request("GET", "/v1/export", token: token).status == 401)
            #expect(try await live.request("GET", "/v1/events", token: token).status == 401)
            #expect(try await live.request("GET", "/v1/events?ticket=\(ticket)").status == 401)
            #expect(!own.isClosed)
        }
    }

    private func devices(_ live: LiveServer, _ token: String) async throws -> [JSONObject] {
        let answer = try await live.request("GET", "/v1/devices", token: token)
        #expect(answer.status == 200)
        return try JSONValue(json: answer.body).arrayValue?.compactMap(\.objectValue) ?? []
    }
}
