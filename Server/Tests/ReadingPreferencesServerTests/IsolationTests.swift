import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReadingPreferences
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

@Suite("One user never reads or writes another's data")
struct IsolationTests {
    /// A value only Alice's data holds.
    static let secret = "alice-only-7f3a"

    @Test(
        "every route, called by Bob with Alice's names, reads nothing of hers and changes nothing of hers",
        arguments: TestDatabase.available)
    func everyRoute(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, bob, _ in
            // Alice's data: documents of every layer, a profile, and pushed entries.
            let book = "/v1/epub/preferences/publications/alice-book"
            #expect(
                try await client.send(
                    .patch, "/v1/epub/preferences/shared", token: alice,
                    body: #"{"fontSize":2.5,"secret":"\#(Self.secret)"}"#
                ).status == .ok)
            #expect(
                try await client.send(
                    .patch, book, token: alice, body: #"{"theme":"sepia","note":"\#(Self.secret)"}"#
                )
                .status == .ok)
            #expect(
                try await client.send(
                    .patch, "/v1/epub/preferences/overrides", token: alice, body: #"{"x":"\#(Self.secret)"}"#
                ).status == .ok)
            let created = try await client.send(
                .post, "/v1/epub/profiles", token: alice, body: #"{"name":"Night"}"#)
            let profile = try #require(created.json?.objectValue?["id"]?.stringValue)
            #expect(
                try await client.send(
                    .patch, "/v1/epub/preferences/profiles/\(profile)", token: alice,
                    body: #"{"secret":"\#(Self.secret)"}"#
                ).status == .ok)
            let phone = ReplicaID.random(prefix: "alice-phone").rawValue
            let now = UInt64(Date().timeIntervalSince1970 * 1000)
            let push = """
                {"replica":"\(phone)","entries":[{"scope":"pdf/shared","key":"secret","value":"\(Self.secret)",\
                "stamp":{"time":\(now),"counter":0,"replica":"\(phone)"}}]}
                """
            #expect(try await client.send(.post, "/v1/sync/push", token: alice, body: push).status == .ok)
            let alicesExport = try await client.send(.get, "/v1/export", token: alice)
            let alicesState = try await client.send(.get, "/v1/sync/state", token: alice)
            #expect(alicesExport.body.contains(Self.secret))

            // Bob, with Alice's names, on every route.
            var answers: [(String, Answer)] = []
            func call(
                _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil,
                _ headers: HTTPFields = [:]
            )
                async throws -> Answer
            {
                let answer = try await client.send(method, uri, token: bob, body: body, headers: headers)
                answers.append(("\(method) \(uri)", answer))
                return answer
            }
            for path in [
                "/v1/epub/preferences/shared", book, "/v1/epub/preferences/overrides",
                "/v1/epub/preferences/profiles/\(profile)",
            ] {
                #expect(try await call(.get, path).status == .notFound, "\(path)")
            }
            let settings = try await call(.get, "/v1/epub/publications/alice-book/settings")
            #expect(settings.status == .ok)
            #expect(RepeatedRequestTests.value(settings, "fontSize") != 2.5)
            #expect(RepeatedRequestTests.value(settings, "theme") != "sepia")
            #expect(try await call(.get, "/v1/epub/publications/alice-book/css").status == .ok)
            let profileRoutes = [
                try await call(.patch, "/v1/epub/profiles/\(profile)", #"{"name":"Mine"}"#),
                try await call(.post, "/v1/epub/profiles/\(profile)/duplicate", #"{"name":"Copy"}"#),
                try await call(.put, "/v1/epub/profiles/active", #"{"id":"\#(profile)"}"#),
                try await call(.delete, "/v1/epub/profiles/\(profile)"),
            ]
            for answer in profileRoutes { #expect(answer.status == .notFound, "\(answer.body)") }
            #expect(try await call(.get, "/v1/epub/profiles").json?.arrayValue?.isEmpty == true)
            // Writes by Bob to the same names make Bob's own documents.
            _ = try await call(.put, book, #"{"theme":"dark"}"#, [.ifNoneMatch: "*"])
            _ = try await call(.patch, "/v1/epub/preferences/shared", #"{"fontSize":1.1}"#)
            _ = try await call(
                .post, "/v1/epub/publications/alice-book/edits",
                #"{"edits":[{"key":"fontSize","op":"increment"}]}"#)
            // Replica ids are per user: Bob's device may have the name Alice's has; its push is Bob's.
            let bobsPush =
                #"{"replica":"\#(phone)","entries":[{"scope":"pdf/shared","key":"mine","value":"bob","#
                + #""stamp":{"time":1,"counter":0,"replica":"\#(phone)"}}]}"#
            #expect(try await call(.post, "/v1/sync/push", bobsPush).status == .ok)
            _ = try await call(.get, "/v1/sync/changes")
            _ = try await call(.get, "/v1/sync/state")
            _ = try await call(.get, "/v1/export")
            #expect(try await call(.delete, "/v1/account-data").status.code < 300)
            for (route, answer) in answers {
                #expect(!answer.body.contains(Self.secret), "\(route) showed Alice's data: \(answer.body)")
            }
            // Alice's data is as she left it.
            let alicesExportAfter = try await client.send(.get, "/v1/export", token: alice).body
            #expect(
                alicesExportAfter == alicesExport.body,
                "before: \(alicesExport.body)\nafter: \(alicesExportAfter)")
            #expect(try await client.send(.get, "/v1/sync/state", token: alice).body == alicesState.body)
            let profiles = try await client.send(.get, "/v1/epub/profiles", token: alice)
            #expect(profiles.json?.arrayValue?.count == 1 && profiles.body.contains("Night"))
        }
    }

    /// Accounts kept elsewhere: two tokens of one user (a phone's and a laptop's), one of another.
    struct Directory: Authenticator {
        func user(forToken token: String) async throws -> String? {
            ["phone-token": "reader-1", "laptop-token": "reader-1", "other-token": "reader-2"][token]
        }
    }

    @Test(
        "a pluggable authenticator: its tokens of one user share that user's data, others see none, unknown tokens are 401",
        arguments: TestDatabase.available)
    func pluggableAuthenticator(database: TestDatabase) async throws {
        let (app, server) = try await database.application(authenticator: Directory())
        try await app.test(.router) { (test: any TestClientProtocol) async throws in
            let client = Client(client: test)
            // Users of another directory are new to this database each run.
            let path = "/v1/epub/preferences/publications/book-\(UUID().uuidString)"
            #expect(
                try await client.send(.patch, path, token: "phone-token", body: #"{"theme":"dark"}"#).status
                    == .ok)
            #expect(try await client.send(.get, path, token: "laptop-token").body == #"{"theme":"dark"}"#)
            #expect(try await client.send(.get, path, token: "other-token").status == .notFound)
            #expect(try await client.send(.get, path, token: "stolen-token").status == .unauthorized)
            // Settings read the versions after asking the authenticator (not in its query).
            let book = path.replacingOccurrences(of: "/preferences/publications/", with: "/publications/")
            let settings = try await client.send(.get, book + "/settings", token: "laptop-token")
            #expect(settings.json?.objectValue?["preferences"]?.objectValue?["theme"] == .string("dark"))
            let etag = try #require(settings.etag)
            let again = try await client.send(
                .get, book + "/settings", token: "phone-token", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            let other = try await client.send(.get, book + "/settings", token: "other-token")
            #expect(other.status == .ok)
            #expect(other.json?.objectValue?["preferences"]?.objectValue?["theme"] == nil)
            #expect(try await client.send(.get, book + "/css", token: "stolen-token").status == .unauthorized)
        }
        await server.close()
    }
}
