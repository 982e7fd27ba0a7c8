import Foundation
import HTTPTypes
import ReadingPreferences
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

/// What no identifier or key holds (Specs/Sync.md §1): U+0000 is refused on every path, never cut,
/// and a profile id that is not replica-style is refused, never stored where sync cannot see it.
@Suite("U+0000 and profile ids on every route")
struct IdentifierTests {
    @Test(
        "a publication identifier with %00 is refused on every route; the book it would be cut to is untouched",
        arguments: TestDatabase.available)
    func publicationIdentifiers(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let plain = "/v1/epub/preferences/publications/n"
            #expect(
                try await client.send(
                    .put, plain, token: alice, body: #"{"fontSize":1.5}"#, headers: [.ifNoneMatch: "*"]
                ).status == .ok)
            let before = try await client.send(.get, plain, token: alice)
            let cut = "n%00b"
            let calls: [(HTTPRequest.Method, String, String?, HTTPFields)] = [
                (.get, "/v1/epub/preferences/publications/\(cut)", nil, [:]),
                (.put, "/v1/epub/preferences/publications/\(cut)", #"{"fontSize":2}"#, [.ifNoneMatch: "*"]),
                (.patch, "/v1/epub/preferences/publications/\(cut)", #"{"fontSize":2}"#, [:]),
                (.get, "/v1/epub/publications/\(cut)/settings", nil, [:]),
                (.get, "/v1/epub/publications/\(cut)/css", nil, [:]),
                (
                    .post, "/v1/epub/publications/\(cut)/edits",
                    #"{"edits":[{"key":"fontSize","op":"increment"}]}"#, [:]
                ),
            ]
            for (method, path, body, headers) in calls {
                let answer = try await client.send(method, path, token: alice, body: body, headers: headers)
                #expect(answer.status == .badRequest, "\(method) \(path): \(answer.status) \(answer.body)")
                if answer.status != .methodNotAllowed && answer.status != .notFound {
                    #expect(answer.code == "invalidIdentifier", "\(method) \(path): \(answer.body)")
                }
            }
            #expect(try await client.send(.get, plain, token: alice).body == before.body)
            let shared = try await client.send(.get, "/v1/epub/preferences/shared", token: alice)
            #expect(
                shared.status == .notFound, "an increment on the refused book wrote shared: \(shared.body)")
            let export = try await client.send(.get, "/v1/export", token: alice)
            #expect(!export.body.contains("\\u0000"), "\(export.body)")
            #expect(export.json?.objectValue?["documents"]?.arrayValue?.count == 1)
        }
    }

    @Test(
        "a key with U+0000 is 422 on PUT, PATCH and edits, and nothing is stored",
        arguments: TestDatabase.available)
    func keys(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let path = "/v1/epub/preferences/shared"
            let put = try await client.send(
                .put, path, token: alice, body: #"{"k\u0000x":1,"k\u0000y":2}"#, headers: [.ifNoneMatch: "*"])
            #expect(put.status == .unprocessableContent, "\(put.body)")
            #expect(put.code == "invalidKey")
            let patch = try await client.send(.patch, path, token: alice, body: #"{"theme\u0000x":"sepia"}"#)
            #expect(patch.status == .unprocessableContent, "\(patch.body)")
            #expect(try await client.send(.get, path, token: alice).status == .notFound)
            let state = try await client.send(.get, "/v1/sync/state", token: alice)
            #expect(!state.body.contains("\\u0000"), "\(state.body)")
            let changes = try await client.send(.get, "/v1/sync/changes", token: alice)
            #expect(changes.json?.objectValue?["entries"]?.arrayValue?.isEmpty == true, "\(changes.body)")
        }
    }

    @Test(
        "a push's entries with U+0000 in a key or a scope are ignored alone, never cut",
        arguments: TestDatabase.available)
    func push(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let stamp = #"{"time":1764000000000,"counter":0,"replica":"phone"}"#
            let body = """
                {"replica":"phone","entries":[
                {"scope":"epub/shared","key":"k\\u0000x","value":1,"stamp":\(stamp)},
                {"scope":"epub/shared","key":"k\\u0000y","value":2,"stamp":\(stamp)},
                {"scope":"epub/publication/n\\u0000b","key":"fontSize","value":2,"stamp":\(stamp)},
                {"scope":"epub/shared","key":"fontSize","value":1.5,"stamp":\(stamp)}]}
                """
            let answer = try await client.send(.post, "/v1/sync/push", token: alice, body: body)
            #expect(answer.status == .ok, "\(answer.body)")
            #expect(answer.json?.objectValue?["applied"] == 1, "\(answer.body)")
            #expect(answer.json?.objectValue?["ignored"]?.arrayValue?.count == 3, "\(answer.body)")
            let shared = try await client.send(.get, "/v1/epub/preferences/shared", token: alice)
            #expect(shared.json == ["fontSize": 1.5], "\(shared.body)")
            #expect(
                try await client.send(.get, "/v1/epub/preferences/publications/n", token: alice).status
                    == .notFound)
            for route in ["/v1/sync/state", "/v1/sync/changes", "/v1/export"] {
                let read = try await client.send(.get, route, token: alice)
                #expect(
                    !read.body.contains("\\u0000") && !read.body.contains("\"k\""), "\(route): \(read.body)")
            }
        }
    }

    @Test(
        "a profile id that is not replica-style is refused, never stored", arguments: TestDatabase.available)
    func profileIDs(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            for id in ["Bad%20Id", "a%2Fb", "%C3%A9", "night%00"] {
                let put = try await client.send(
                    .put, "/v1/epub/preferences/profiles/\(id)", token: alice, body: #"{"$name":"Odd"}"#,
                    headers: [.ifNoneMatch: "*"])
                #expect(put.status == .badRequest, "\(id): \(put.body)")
                #expect(put.code == "invalidIdentifier", "\(id): \(put.body)")
            }
            let profiles = try await client.send(.get, "/v1/epub/profiles", token: alice)
            #expect(profiles.json?.arrayValue?.isEmpty == true, "\(profiles.body)")
            #expect(
                try await client.send(.get, "/v1/export", token: alice).json?.objectValue?["documents"] == [])
        }
    }
}
