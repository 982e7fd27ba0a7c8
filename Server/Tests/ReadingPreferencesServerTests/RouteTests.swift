import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReadingPreferences
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

/// An answer, read.
struct Answer: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: String
    var json: JSONValue? { try? JSONValue(json: body) }
    var etag: String? { headers[.eTag] }
    var code: String? { json?.objectValue?["code"]?.stringValue }
}

/// Requests through Hummingbird's test client, with a user's token.
struct Client: Sendable {
    let client: any TestClientProtocol

    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String?, body: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> Answer {
        var fields = headers
        if let token { fields[.authorization] = "Bearer \(token)" }
        return try await client.execute(
            uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            Answer(status: response.status, headers: response.headers, body: String(buffer: response.body))
        }
    }
}

/// Runs a test against a server's router on a database, with two users.
func withServer(
    _ database: TestDatabase,
    _ body: @Sendable (Client, _ alice: String, _ bob: String, ReadingServer) async throws -> Void
) async throws {
    let (app, server) = try await database.application()
    try await app.test(.router) { client in
        // The tables exist once the application runs (its migrations come first).
        let alice = try await server.addUser(named: "alice").token
        let bob = try await server.addUser(named: "bob").token
        try await body(Client(client: client), alice, bob, server)
    }
    await server.close()
}

@Suite("The routes of Specs/Server.md §5")
struct RouteTests {
    @Test("health needs no token; every other route needs a known one", arguments: TestDatabase.available)
    func authentication(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            #expect(try await client.send(.get, "/healthz", token: nil).status == .ok)
            #expect(try await client.send(.get, "/readyz", token: nil).status == .ok)
            for (method, uri) in [
                (HTTPRequest.Method.get, "/v1/epub/preferences/shared"),
                (.put, "/v1/epub/preferences/shared"),
                (.get, "/v1/epub/publications/b/settings"), (.post, "/v1/epub/publications/b/edits"),
                (.get, "/v1/epub/profiles"), (.post, "/v1/sync/push"), (.get, "/v1/sync/changes"),
                (.get, "/v1/sync/state"), (.get, "/v1/export"), (.delete, "/v1/account-data"),
                (.patch, "/v1/epub/preferences/shared"), (.get, "/v1/epub/publications/b/css"),
                (.post, "/v1/epub/profiles"), (.put, "/v1/epub/profiles/active"),
                (.patch, "/v1/epub/profiles/p"), (.post, "/v1/epub/profiles/p/duplicate"),
                (.delete, "/v1/epub/profiles/p"),
                // Wrong in another way too: the token is checked first.
                (.get, "/v1/nope/publications/b/settings"), (.get, "/v1/pdf/publications/b/css"),
                (.get, "/v1/epub/publications/%ZZ/settings"), (.get, "/v1/epub/publications/%ZZ/css"),
            ] {
                let missing = try await client.send(method, uri, token: nil)
                #expect(missing.status == .unauthorized, "\(method) \(uri)")
                #expect(missing.code == "unauthorized")
                #expect(missing.headers[.contentType] == "application/problem+json")
                #expect(try await client.send(method, uri, token: "rp_wrong").status == .unauthorized)
            }
            #expect(try await client.send(.get, "/v1/epub/profiles", token: alice).status == .ok)
        }
    }

    @Test(
        "a document: 404, created with If-None-Match, read byte for byte with its ETag, replaced only at that ETag",
        arguments: TestDatabase.available)
    func documents(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, bob, _ in
            let path = "/v1/epub/preferences/publications/urn%3Aisbn%3A978-0%2Fx"
            #expect(try await client.send(.get, path, token: alice).status == .notFound)
            let body = #"{"zeta":1,"fontSize":1.50,"future":{"b":1e400,"a":[true]},"theme":"sepia"}"#
            let missing = try await client.send(.put, path, token: alice, body: body)
            #expect(missing.status.code == 428)
            let created = try await client.send(
                .put, path, token: alice, body: body, headers: [.ifNoneMatch: "*"])
            #expect(created.status == .ok)
            let etag = try #require(created.etag)
            let read = try await client.send(.get, path, token: alice)
            #expect(read.body == body)
            #expect(read.etag == etag)
            // Another user's books are not there.
            #expect(try await client.send(.get, path, token: bob).status == .notFound)
            // A stale ETag and a second creation are refused; a rejected value changes nothing.
            let replaced = try await client.send(
                .put, path, token: alice, body: #"{"theme":"dark"}"#, headers: [.ifMatch: etag])
            #expect(replaced.status == .ok)
            let stale = try await client.send(.put, path, token: alice, body: "{}", headers: [.ifMatch: etag])
            #expect(stale.status == .preconditionFailed && stale.code == "preconditionFailed")
            let again = try await client.send(
                .put, path, token: alice, body: "{}", headers: [.ifNoneMatch: "*"])
            #expect(again.status == .preconditionFailed)
            let rejected = try await client.send(
                .put, path, token: alice, body: #"{"theme":"plaid"}"#,
                headers: [.ifMatch: try #require(replaced.etag)])
            #expect(rejected.status == .unprocessableContent && rejected.code == "unsupportedValue")
            #expect(try await client.send(.get, path, token: alice).body == #"{"theme":"dark"}"#)
            // A merge patch, with no precondition: null removes, unknown keys are kept.
            let patched = try await client.send(
                .patch, path, token: alice, body: #"{"theme":null,"newer":{"x":1},"fontSize":1.2}"#,
                headers: [.contentType: "application/merge-patch+json"])
            #expect(patched.status == .ok)
            #expect(patched.body == #"{"newer":{"x":1},"fontSize":1.2}"#)
            let invalid = try await client.send(.patch, path, token: alice, body: "not json")
            #expect(invalid.status == .badRequest && invalid.code == "invalidJSON")
            #expect(
                try await client.send(.get, "/v1/epub/preferences/nowhere", token: alice).status == .notFound)
            #expect(
                try await client.send(.get, "/v1/plaid/preferences/shared", token: alice).status == .notFound)
        }
    }

    @Test(
        "settings: every setting with its source, an ETag that any stored change changes, 304 when unchanged",
        arguments: TestDatabase.available)
    func settings(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let uri = "/v1/epub/publications/book/settings?language=ar&layout=reflowable"
            let first = try await client.send(.get, uri, token: alice)
            #expect(first.status == .ok)
            let etag = try #require(first.etag)
            let settings = try #require(first.json?.objectValue?["settings"]?.arrayValue)
            let direction = settings.first { $0.objectValue?["key"]?.stringValue == "readingProgression" }
            #expect(direction?.objectValue?["value"]?.stringValue == "rtl")
            #expect(direction?.objectValue?["source"]?.stringValue != nil)
            #expect(
                try await client.send(.get, uri, token: alice, headers: [.ifNoneMatch: etag]).status
                    == .notModified)
            // A key no setting knows changes the ETag too.
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"newer":1}"#)
            let second = try await client.send(.get, uri, token: alice, headers: [.ifNoneMatch: etag])
            #expect(second.status == .ok && second.etag != etag)
            let css = try await client.send(.get, "/v1/epub/publications/book/css?language=ar", token: alice)
            #expect(css.status == .ok && css.json?.objectValue?["inlineStyle"]?.stringValue != nil)
            let cssTag = try #require(css.etag)
            #expect(
                try await client.send(
                    .get, "/v1/epub/publications/book/css?language=ar", token: alice,
                    headers: [.ifNoneMatch: cssTag]
                ).status == .notModified)
            #expect(
                try await client.send(.get, "/v1/pdf/publications/book/css", token: alice).status == .notFound
            )
        }
    }

    @Test(
        "edits apply all or none, conditional on If-Match: of 6 concurrent requests with one ETag, one wins",
        arguments: TestDatabase.available)
    func edits(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let uri = "/v1/epub/publications/book/edits"
            let first = try await client.send(
                .post, uri, token: alice,
                body:
                    #"{"edits":[{"key":"fontSize","op":"set","value":1.2},{"key":"readingProgression","op":"set","value":"rtl"}]}"#
            )
            #expect(first.status == .ok)
            let etag = try #require(first.etag)
            let rejected = try await client.send(
                .post, uri, token: alice,
                body:
                    #"{"edits":[{"key":"theme","op":"set","value":"dark"},{"key":"fontSize","op":"set","value":"huge"}]}"#
            )
            #expect(rejected.status == .unprocessableContent)
            let after = try await client.send(.get, "/v1/epub/publications/book/settings", token: alice)
            #expect(after.etag == etag, "a rejected batch changed something")
            let statuses = await withTaskGroup(of: Int.self) { group in
                for request in 0..<6 {
                    group.addTask {
                        let answer = try? await client.send(
                            .post, uri, token: alice,
                            body: #"{"edits":[{"key":"fontSize","op":"set","value":1.\#(3 + request)}]}"#,
                            headers: [.ifMatch: etag])
                        return Int(answer?.status.code ?? 0)
                    }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [200, 412, 412, 412, 412, 412])
            let badOp = try await client.send(
                .post, uri, token: alice, body: #"{"edits":[{"key":"x","op":"explode"}]}"#)
            #expect(badOp.status == .badRequest)
        }
    }

    @Test("profiles: create, list, rename, duplicate, activate, delete", arguments: TestDatabase.available)
    func profiles(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, bob, _ in
            let created = try await client.send(
                .post, "/v1/epub/profiles", token: alice, body: #"{"name":"Night"}"#)
            #expect(created.status == .created)
            let id = try #require(created.json?.objectValue?["id"]?.stringValue)
            #expect(
                try await client.send(
                    .patch, "/v1/epub/profiles/\(id)", token: alice, body: #"{"name":"Dark"}"#
                ).status == .ok)
            let copy = try await client.send(
                .post, "/v1/epub/profiles/\(id)/duplicate", token: alice, body: #"{"name":"Copy"}"#)
            #expect(copy.status == .created)
            #expect(
                try await client.send(
                    .put, "/v1/epub/profiles/active", token: alice, body: #"{"id":"\#(id)"}"#
                ).status == .ok)
            let list = try await client.send(.get, "/v1/epub/profiles", token: alice)
            let names = list.json?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue }.sorted()
            #expect(names == ["Copy", "Dark"])
            let active = list.json?.arrayValue?.filter { $0.objectValue?["active"] == true }.count
            #expect(active == 1)
            // Bob sees none of it, and cannot touch it.
            #expect(
                try await client.send(.get, "/v1/epub/profiles", token: bob).json?.arrayValue?.isEmpty == true
            )
            #expect(try await client.send(.delete, "/v1/epub/profiles/\(id)", token: bob).status == .notFound)
            #expect(
                try await client.send(.delete, "/v1/epub/profiles/\(id)", token: alice).status == .noContent)
            #expect(
                try await client.send(.delete, "/v1/epub/profiles/\(id)", token: alice).status == .notFound)
        }
    }

    @Test(
        "sync: push merges and never restamps, a future stamp is ignored per entry, changes page, state reads back",
        arguments: TestDatabase.available)
    func sync(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, bob, _ in
            let now = UInt64(Date().timeIntervalSince1970 * 1000)
            // Replica ids are global: each run makes its own (the PostgreSQL database is shared).
            let phone = ReplicaID.random(prefix: "phone").rawValue
            let push = """
                {"replica":"\(phone)","entries":[
                {"scope":"epub/shared","key":"fontSize","value":1.50,"stamp":{"time":\(now),"counter":0,"replica":"\(phone)"}},
                {"scope":"epub/shared","key":"theme","value":"dark","stamp":{"time":\(now + 48 * 3600 * 1000),"counter":0,"replica":"\(phone)"}},
                {"scope":"epub/publication/urn:isbn:1/2","key":"readingProgression","value":"rtl","stamp":{"time":\(now),"counter":1,"replica":"\(phone)"}},
                {"scope":"not a scope","key":"x","value":1,"stamp":{"time":1,"counter":0,"replica":"\(phone)"}}
                ]}
                """
            let answer = try await client.send(.post, "/v1/sync/push", token: alice, body: push)
            #expect(answer.status == .ok)
            let object = try #require(answer.json?.objectValue)
            #expect(object["applied"]?.numberValue?.integerValue == 2)
            #expect(object["ignored"]?.arrayValue?.count == 2)
            // The pushed value is in the documents, as written, and in the state with its own stamp.
            let shared = try await client.send(.get, "/v1/epub/preferences/shared", token: alice)
            #expect(shared.body == #"{"fontSize":1.50}"#)
            let state = try await client.send(.get, "/v1/sync/state", token: alice)
            let file = try ReplicaState.read(Data(state.body.utf8))
            let entry = file.state.documents[try #require(SyncScope("epub/shared"))]?["fontSize"]
            #expect(entry?.stamp.replica.rawValue == phone && entry?.stamp.time == now)
            // A server-side edit is stamped by the server and appears in the changes.
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"lineHeight":1.4}"#)
            let first = try await client.send(.get, "/v1/sync/changes?limit=2", token: alice)
            #expect(first.json?.objectValue?["more"] == true)
            let cursor = try #require(first.json?.objectValue?["cursor"]?.stringValue)
            let rest = try await client.send(.get, "/v1/sync/changes?since=\(cursor)", token: alice)
            let keys = rest.json?.objectValue?["entries"]?.arrayValue?.compactMap {
                $0.objectValue?["key"]?.stringValue
            }
            #expect(keys == ["lineHeight"])
            let stamp = rest.json?.objectValue?["entries"]?.arrayValue?.first?.objectValue?["stamp"]?
                .objectValue
            #expect(stamp?["replica"]?.stringValue?.hasPrefix("server-") == true)
            // The same replica id from another account names that account's own device (replica
            // ids are per user); a bad cursor is 400.
            let same = try await client.send(
                .post, "/v1/sync/push", token: bob, body: #"{"replica":"\#(phone)","entries":[]}"#)
            #expect(same.status == .ok)
            #expect(
                try await client.send(.get, "/v1/sync/changes?since=zz", token: alice).status == .badRequest)
            #expect(
                try await client.send(.post, "/v1/sync/push", token: alice, body: "[]").status == .badRequest)
            // Bob's state has nothing of Alice's.
            let bobs = try ReplicaState.read(
                Data(try await client.send(.get, "/v1/sync/state", token: bob).body.utf8))
            #expect(bobs.state.entryCount == 0)
        }
    }

    @Test(
        "server stamps: a user's first write starts the clock; one write of three keys takes three ticks after the latest stamp pushed",
        arguments: TestDatabase.available)
    func serverStamps(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            func entries(since cursor: String?) async throws -> [JSONObject] {
                let path = "/v1/sync/changes" + (cursor.map { "?since=\($0)" } ?? "")
                let answer = try await client.send(.get, path, token: alice)
                return answer.json?.objectValue?["entries"]?.arrayValue?.compactMap(\.objectValue) ?? []
            }
            func stamp(_ entry: JSONObject) -> (time: Int?, counter: Int?, replica: String?) {
                let stamp = entry["stamp"]?.objectValue
                return (
                    stamp?["time"]?.numberValue?.integerValue, stamp?["counter"]?.numberValue?.integerValue,
                    stamp?["replica"]?.stringValue
                )
            }
            // The first write of a new user: two keys, counters 0 and 1 at the server's time.
            let before = Int(Date().timeIntervalSince1970 * 1000)
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice,
                body: #"{"fontSize":1.2,"theme":"sepia"}"#)
            let first = try await entries(since: nil)
            #expect(first.map { $0["key"]?.stringValue } == ["fontSize", "theme"])
            #expect(first.map { stamp($0).counter } == [0, 1])
            let time = try #require(stamp(first[0]).time)
            #expect(time >= before && stamp(first[1]).time == time)
            // A device pushes a stamp an hour ahead; the server's clock follows it, so its next
            // stamps come after it: the same time, the next three counters, in the order written.
            let ahead = UInt64(before) + 3_600_000
            let phone = ReplicaID.random(prefix: "phone").rawValue
            let push = """
                {"replica":"\(phone)","entries":[{"scope":"epub/shared","key":"lineHeight","value":1.5,
                "stamp":{"time":\(ahead),"counter":7,"replica":"\(phone)"}}]}
                """
            #expect(try await client.send(.post, "/v1/sync/push", token: alice, body: push).status == .ok)
            let cursor = try #require(
                try await client.send(.get, "/v1/sync/changes", token: alice).json?.objectValue?["cursor"]?
                    .stringValue)
            let patched = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice,
                body: #"{"theme":"dark","lineHeight":1.6,"fontSize":1.4}"#)
            #expect(patched.status == .ok)
            let next = try await entries(since: cursor)
            #expect(Set(next.compactMap { $0["key"]?.stringValue }) == ["theme", "lineHeight", "fontSize"])
            #expect(next.map { stamp($0).time } == Array(repeating: Int(ahead), count: 3))
            #expect(next.map { stamp($0).counter }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [8, 9, 10])
            #expect(next.allSatisfy { stamp($0).replica?.hasPrefix("server-") == true })
            // Each entry holds its value as written, and a removal is stamped as one.
            let written = Dictionary(
                next.compactMap { entry in entry["key"]?.stringValue.map { ($0, entry["value"]) } },
                uniquingKeysWith: { first, _ in first })
            #expect(written["theme"] == .string("dark"))
            #expect(
                written["lineHeight"]??.jsonString() == "1.6" && written["fontSize"]??.jsonString() == "1.4")
            let last = try #require(
                try await client.send(.get, "/v1/sync/changes", token: alice).json?.objectValue?["cursor"]?
                    .stringValue)
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"theme":null}"#)
            let removal = try await entries(since: last)
            #expect(removal.count == 1 && removal.first?["removed"] == .bool(true))
            #expect(
                removal.first.map { stamp($0).counter } == 11
                    && removal.first.map { stamp($0).time } == Int(ahead))
            // Each took its own number of the change sequence: paging one at a time finds them all.
            var seen: [String] = []
            var page: String? = cursor
            for _ in 0..<3 {
                let answer = try await client.send(
                    .get, "/v1/sync/changes?since=\(page ?? "")&limit=1", token: alice)
                let object = try #require(answer.json?.objectValue)
                seen +=
                    object["entries"]?.arrayValue?.compactMap { $0.objectValue?["key"]?.stringValue } ?? []
                page = object["cursor"]?.stringValue
            }
            #expect(seen.count == 3 && Set(seen).count == 3)
        }
    }

    @Test(
        "export lists every document; account-data removes them all and old cursors get 410",
        arguments: TestDatabase.available)
    func exportAndDeletion(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, bob, _ in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"theme":"dark"}"#)
            _ = try await client.send(
                .patch, "/v1/pdf/preferences/publications/doc", token: alice, body: #"{"fit":"width"}"#)
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: bob, body: #"{"theme":"sepia"}"#)
            let exported = try await client.send(.get, "/v1/export", token: alice)
            let documents = try #require(exported.json?.objectValue?["documents"]?.arrayValue)
            #expect(documents.count == 2)
            let cursor = try #require(
                try await client.send(.get, "/v1/sync/changes", token: alice).json?.objectValue?["cursor"]?
                    .stringValue)
            #expect(try await client.send(.delete, "/v1/account-data", token: alice).status == .noContent)
            #expect(
                try await client.send(.get, "/v1/export", token: alice).json?.objectValue?["documents"]?
                    .arrayValue?.isEmpty == true)
            #expect(
                try await client.send(.get, "/v1/sync/changes?since=\(cursor)", token: alice).status == .gone)
            // The account and its token stay; Bob's data stays.
            #expect(try await client.send(.get, "/v1/epub/profiles", token: alice).status == .ok)
            #expect(try await client.send(.get, "/v1/epub/preferences/shared", token: bob).status == .ok)
            // The first key written after the deletion is in the changes read from the start.
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"fontSize":1.5}"#)
            let entries = try await client.send(.get, "/v1/sync/changes", token: alice).json?.objectValue?[
                "entries"]?.arrayValue
            #expect(entries?.compactMap { $0.objectValue?["key"]?.stringValue } == ["fontSize"])
        }
    }
}
