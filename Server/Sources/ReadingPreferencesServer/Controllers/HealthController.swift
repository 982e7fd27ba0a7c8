import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReadingPreferences

/// What needs no token: `GET /healthz` (the process answers), `GET /readyz` (the database
/// answers too) and `GET /openapi.json` (the HTTP contract, byte for byte as the file in the
/// package, Specs/Server.md §4).
struct HealthController: Sendable {
    let health: Health

    func addRoutes(to router: Router<ServerContext>) {
        router.get("/healthz") { _, _ in JSONAnswer(.object(["status": "ok"])) }
        router.get("/readyz") { _, _ in
            do {
                try await health.check()
                return JSONAnswer(.object(["status": "ready"]))
            } catch {
                throw Problem(.serviceUnavailable, "notReady", "the database does not answer: \(error)")
            }
        }
        router.get("/openapi.json") { _, _ in JSONAnswer(data: Data(PackageResources.openapi_json)) }
    }
}
