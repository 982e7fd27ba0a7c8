import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// `GET /v1/export` (every document of the user) and `DELETE /v1/account-data` (every document
/// and all sync state; the account and its tokens stay, and versions never repeat).
struct AccountController: Sendable {
    let data: UserData

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.get("/export", use: export)
        group.delete("/account-data", use: deleteData)
    }

    @Sendable func export(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let documents = try await data.storage(for: try await context.user()).export()
        let items = documents.compactMap { item -> JSONValue? in
            guard case .layer(let configurable, let layer) = item.location else { return nil }
            var object: JSONObject = ["configurable": .string(configurable), "layer": .string(layer.code)]
            if let id = layer.identifier { object["id"] = .string(id) }
            object["version"] = .string(item.document.version.rawValue)
            object["preferences"] = .object(item.document.preferences.jsonObject)
            return .object(object)
        }
        return JSONAnswer(.object(["documents": .array(items)]))
    }

    /// The documents and the sync state go together, in one transaction of the user's write path,
    /// which no other write shares.
    @Sendable func deleteData(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        try await deleteData(of: try await context.user())
        return .noContent
    }

    func deleteData(of user: String) async throws {
        try await data.writes.run(user, alone: true) { [replica = data.replica] transaction in
            try await transaction.storage.removeAll()
            try await replica.reset(of: user, in: transaction.database)
        }
    }
}
