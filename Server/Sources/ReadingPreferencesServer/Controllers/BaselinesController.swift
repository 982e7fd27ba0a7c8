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
struct BaselinesController: Sendable {
    let baselines: Baselines
    let bodyLimit: Int
    static let scope = SQLPreferencesStorage.scope(of: .layer(configurable: EPUB.identifier, .shared))

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.get("/bench/json") { _, context in
            _ = try await context.user()
            return JSONAnswer(.object(["ok": true]))
        }
        group.get("/bench/row") { _, context in
            guard let row = try await baselines.row(of: try await context.user(), scope: Self.scope) else {
                throw Problem(.notFound, "notFound", "no shared document")
            }
            return JSONAnswer(data: Data(row.json.utf8), etag: "\"\(row.version)\"")
        }
        group.post("/bench/select-update") { request, context in
            let user = try await context.user()
            let text = String(decoding: try await request.body(limit: bodyLimit), as: UTF8.self)
            guard let version = try await baselines.overwrite(text, of: user, scope: Self.scope) else {
                throw Problem(.notFound, "notFound", "no shared document")
            }
            return JSONAnswer.tagged("\"\(version)\"")
        }
    }
}
