import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// The baselines the load benchmark measures the routes against, compiled into the same binary
/// and behind the same authentication (`readingprefs-server --benchmark-baselines`):
/// - `GET /v1/bench/json`: a bare JSON answer;
/// - `GET /v1/bench/row`: one query of one row (the user's shared document) and its text;
/// - `POST /v1/bench/select-update`: one select and one update of that row, in a transaction:
///   the least a one-key `PATCH` could do.
enum BaselineRoutes {
    static func add(to api: RouterGroup<ServerContext>, backend: Backend) {
        let scope = SQLPreferencesStorage.scope(of: .layer(configurable: EPUB.identifier, .shared))
        api.get("/bench/json") { _, _ in Backend.json(.object(["ok": true])) }
        api.get("/bench/row") { _, context in
            let rows = try await backend.database.query(
                "SELECT json, version FROM reading_preferences WHERE user_id = ? AND scope = ?",
                [try context.user(), scope])
            guard let json = rows.first?["json"], let version = rows.first?["version"] else {
                throw Problem(.notFound, "notFound", "no shared document")
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json", .eTag: "\"\(version)\""],
                body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
        }
        api.post("/bench/select-update") { request, context in
            let user = try context.user()
            let body = try await Backend.body(request, limit: backend.bodyLimit)
            let text = String(decoding: body, as: UTF8.self)
            let version = try await backend.database.transaction(lockingUser: user) { transaction in
                let rows = try await transaction.query(
                    "SELECT json, version FROM reading_preferences WHERE user_id = ? AND scope = ?",
                    [user, scope])
                guard !rows.isEmpty else { throw Problem(.notFound, "notFound", "no shared document") }
                let next = UUID().uuidString
                _ = try await transaction.execute(
                    "UPDATE reading_preferences SET json = ?, version = ? WHERE user_id = ? AND scope = ?",
                    [text, next, user, scope])
                return next
            }
            return Response(status: .ok, headers: [.eTag: "\"\(version)\""])
        }
    }
}
