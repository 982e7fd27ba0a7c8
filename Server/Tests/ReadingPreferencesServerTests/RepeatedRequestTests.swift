import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReadingPreferences
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

/// Two instances on one database: a new SQLite file opened twice, or the PostgreSQL test
/// database.
func withTwoInstances(
    _ database: TestDatabase,
    _ body: @Sendable (_ first: Client, _ second: Client, _ token: String) async throws -> Void
) async throws {
    // Two instances of the product on one database.
    let configuration = try database.configuration()
    let (firstApp, first) = try await buildApplication(configuration)
    let (secondApp, second) = try await buildApplication(configuration)
    let servers = [first, second]
    try await firstApp.test(.router) { one in
        try await secondApp.test(.router) { two in
            let token = try await servers[0].addUser(named: "reader").token
            try await body(Client(client: one), Client(client: two), token)
        }
    }
    for server in servers { await server.close() }
}

@Suite("Repeated requests: answers kept by an instance, pushes that bring nothing new")
struct RepeatedRequestTests {
    static let settings = "/v1/epub/publications/book-1/settings?language=en"
    static let css = "/v1/epub/publications/book-1/css?language=en"

    static func value(_ answer: Answer, _ key: String) -> JSONValue? {
        answer.json?.objectValue?["settings"]?.arrayValue?.first {
            $0.objectValue?["key"]?.stringValue == key
        }?.objectValue?["value"]
    }

    @Test(
        "an instance's kept settings and CSS follow every write: another instance's, a push's, a profile's",
        arguments: TestDatabase.available)
    func keptAnswersFollowWrites(database: TestDatabase) async throws {
        try await withTwoInstances(database) { first, second, token in
            // The first instance answers, and answers again from what it kept.
            let before = try await first.send(.get, Self.settings, token: token)
            let etag = try #require(before.etag)
            let kept = try await first.send(.get, Self.settings, token: token)
            #expect(kept.body == before.body && kept.etag == etag)
            #expect(
                try await first.send(.get, Self.settings, token: token, headers: [.ifNoneMatch: etag]).status
                    == .notModified)
            let css = try await first.send(.get, Self.css, token: token)
            let cssTag = try #require(css.etag)

            // The second instance writes; the first sees it at once, on both routes.
            let patch = try await second.send(
                .patch, "/v1/epub/preferences/shared", token: token, body: #"{"fontSize":1.4}"#)
            #expect(patch.status == .ok)
            let after = try await first.send(.get, Self.settings, token: token, headers: [.ifNoneMatch: etag])
            #expect(after.status == .ok && after.etag != etag)
            #expect(Self.value(after, "fontSize") == 1.4)
            let cssAfter = try await first.send(.get, Self.css, token: token, headers: [.ifNoneMatch: cssTag])
            #expect(cssAfter.status == .ok && cssAfter.etag != cssTag)
            #expect(cssAfter.body.contains("140%"), "\(cssAfter.body)")

            // A device's push through the second instance; the first sees the pushed value.
            let phone = ReplicaID.random(prefix: "phone").rawValue
            let now = UInt64(Date().timeIntervalSince1970 * 1000) + 1000
            let push = """
                {"replica":"\(phone)","entries":[{"scope":"epub/publication/book-1","key":"theme",\
                "value":"sepia","stamp":{"time":\(now),"counter":0,"replica":"\(phone)"}}]}
                """
            #expect(try await second.send(.post, "/v1/sync/push", token: token, body: push).status == .ok)
            let pushed = try await first.send(
                .get, Self.settings, token: token, headers: [.ifNoneMatch: after.etag ?? ""])
            #expect(pushed.status == .ok && Self.value(pushed, "theme") == "sepia")

            // A profile's document is read outside the prefetched set: its answers are built
            // each time, and follow the profile's edits made through the other instance.
            let created = try await first.send(
                .post, "/v1/epub/profiles", token: token, body: #"{"name":"Night"}"#)
            let id = try #require(created.json?.objectValue?["id"]?.stringValue)
            #expect(
                try await first.send(
                    .put, "/v1/epub/profiles/active", token: token, body: #"{"id":"\#(id)"}"#
                )
                .status == .ok)
            _ = try await first.send(.get, Self.settings, token: token)
            #expect(
                try await second.send(
                    .patch, "/v1/epub/preferences/profiles/\(id)", token: token, body: #"{"fontSize":2.0}"#
                ).status == .ok)
            let profiled = try await first.send(.get, Self.settings, token: token)
            #expect(Self.value(profiled, "fontSize") == 2.0)
        }
    }

    @Test(
        "a push repeated gives the first answer's cursor, applies nothing and writes nothing; a higher merged stamp is kept",
        arguments: TestDatabase.available)
    func repeatedPush(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let phone = ReplicaID.random(prefix: "phone").rawValue
            let now = UInt64(Date().timeIntervalSince1970 * 1000)
            func push(merged: UInt64? = nil) -> String {
                let mergedText =
                    merged.map {
                        #","merged":{"\#(phone)":{"time":\#($0),"counter":0,"replica":"\#(phone)"}}"#
                    } ?? ""
                return """
                    {"replica":"\(phone)","entries":[
                    {"scope":"epub/shared","key":"fontSize","value":1.2,"stamp":{"time":\(now),"counter":0,"replica":"\(phone)"}},
                    {"scope":"epub/shared","key":"theme","value":"dark","stamp":{"time":\(now + 48 * 3600 * 1000),"counter":0,"replica":"\(phone)"}},
                    {"scope":"epub/publication/b","key":"fontSize","removed":true,"stamp":{"time":\(now),"counter":1,"replica":"\(phone)"}}
                    ]\(mergedText)}
                    """
            }
            let first = try #require(
                try await client.send(.post, "/v1/sync/push", token: alice, body: push()).json?.objectValue)
            #expect(first["applied"]?.numberValue?.integerValue == 2)
            let state = try await client.send(.get, "/v1/sync/state", token: alice)
            for _ in 0..<2 {
                let again = try #require(
                    try await client.send(.post, "/v1/sync/push", token: alice, body: push()).json?
                        .objectValue)
                #expect(again["applied"]?.numberValue?.integerValue == 0)
                #expect(again["cursor"] == first["cursor"])
                // The entry from the future is reported each time, not taken.
                #expect(again["ignored"]?.arrayValue?.count == 1)
                #expect(try await client.send(.get, "/v1/sync/state", token: alice).body == state.body)
            }
            // A merged stamp beyond what the server kept is a change: it is written.
            let raised = try #require(
                try await client.send(.post, "/v1/sync/push", token: alice, body: push(merged: now + 5000))
                    .json?
                    .objectValue)
            #expect(raised["applied"]?.numberValue?.integerValue == 0)
            let file = try ReplicaState.read(
                Data(try await client.send(.get, "/v1/sync/state", token: alice).body.utf8))
            #expect(file.state.merged[try #require(ReplicaID(phone))]?.time == now + 5000)
        }
    }

    @Test(
        "a push of 3,000 entries over 700 books (past every chunk size) is stored whole; the same push again changes nothing",
        arguments: TestDatabase.available)
    func largePush(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let phone = ReplicaID.random(prefix: "phone").rawValue
            let now = UInt64(Date().timeIntervalSince1970 * 1000)
            let entries = (0..<3000).map { index in
                #"{"scope":"epub/publication/book-\#(index % 700)","key":"k\#(index)","value":\#(index),"#
                    + #""stamp":{"time":\#(now),"counter":\#(index),"replica":"\#(phone)"}}"#
            }
            // A key of book-0 set and then removed in the same push: it ends removed.
            let removal =
                #"{"scope":"epub/publication/book-0","key":"k0","removed":true,"#
                + #""stamp":{"time":\#(now),"counter":5000,"replica":"\#(phone)"}}"#
            let body =
                #"{"replica":"\#(phone)","entries":["# + (entries + [removal]).joined(separator: ",") + "]}"
            let first = try #require(
                try await client.send(.post, "/v1/sync/push", token: alice, body: body).json?.objectValue)
            #expect(first["applied"]?.numberValue?.integerValue == 3001)
            let book = try await client.send(.get, "/v1/epub/preferences/publications/book-699", token: alice)
            #expect(book.json?.objectValue?.count == 4 && book.json?.objectValue?["k699"] == 699)
            let zero = try #require(
                try await client.send(.get, "/v1/epub/preferences/publications/book-0", token: alice).json?
                    .objectValue)
            #expect(zero["k0"] == nil && zero["k700"] == 700 && zero.count == 4)
            let export = try await client.send(.get, "/v1/export", token: alice)
            #expect(export.json?.objectValue?["documents"]?.arrayValue?.count == 700)
            let again = try #require(
                try await client.send(.post, "/v1/sync/push", token: alice, body: body).json?.objectValue)
            #expect(again["applied"]?.numberValue?.integerValue == 0 && again["cursor"] == first["cursor"])
            #expect(try await client.send(.get, "/v1/export", token: alice).body == export.body)
        }
    }
}
