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
        let baselines = Baselines(database: backend.database)
        api.get("/bench/row") { _, context in
            guard let row = try await baselines.row(of: try context.user(), scope: scope) else {
                throw Problem(.notFound, "notFound", "no shared document")
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json", .eTag: "\"\(row.version)\""],
                body: ResponseBody(byteBuffer: ByteBuffer(string: row.json)))
        }
        api.post("/bench/select-update") { request, context in
            let body = try await Backend.body(request, limit: backend.bodyLimit)
            let text = String(decoding: body, as: UTF8.self)
            guard let version = try await baselines.overwrite(text, of: try context.user(), scope: scope)
            else {
                throw Problem(.notFound, "notFound", "no shared document")
            }
            return Response(status: .ok, headers: [.eTag: "\"\(version)\""])
        }
    }
}
