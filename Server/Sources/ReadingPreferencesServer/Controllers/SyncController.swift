import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// The server as a sync replica (Specs/Server.md §6):
/// - `POST /v1/sync/push` `{"replica", "entries": [...], "merged"?}` → `{"applied", "ignored":
///   [{"scope", "key", "reason"}], "cursor"}`;
/// - `GET /v1/sync/changes?since=C&limit=N` → `{"entries": [...], "cursor", "more"}` (410 for a
///   cursor older than the compaction floor);
/// - `GET /v1/sync/state` → the server replica's whole state, in the replica-file format.
enum SyncRoutes {
    static func add(to api: RouterGroup<ServerContext>, backend: Backend) {
        api.post("/sync/push") { request, context in
            let body = try await Backend.body(request, limit: Backend.pushLimit)
            let result = try await backend.replica.push(body, of: try context.user())
            let ignored = result.ignored.map { item -> JSONValue in
                .object([
                    "scope": .string(item.scope), "key": .string(item.key), "reason": .string(item.reason),
                ])
            }
            return Backend.json(
                .object([
                    "applied": .number(JSONNumber(Int(result.applied))), "ignored": .array(ignored),
                    "cursor": .string(result.cursor),
                ]))
        }
        api.get("/sync/changes") { request, context in
            let query = request.uri.queryParameters
            var limit = 1000
            if let text = query.get("limit") {
                guard let number = Int(text), (1...10_000).contains(number) else {
                    throw Problem(
                        .badRequest, "invalidLimit", "limit is a number from 1 to 10000, not \(text)")
                }
                limit = number
            }
            let page = try await backend.replica.changes(
                of: try context.user(), since: query.get("since").map { String($0) }, limit: limit)
            return Backend.json(
                .object([
                    "entries": .array(page.entries), "cursor": .string(page.cursor), "more": .bool(page.more),
                ]))
        }
        api.get("/sync/state") { _, context in
            let data = try await backend.replica.state(of: try context.user())
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
}
