import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// `GET /v1/export` (every document of the user) and `DELETE /v1/account-data` (every document
/// and all sync state; the account and its tokens stay, and versions never repeat).
enum AccountRoutes {
    static func add(to api: RouterGroup<ServerContext>, backend: Backend) {
        api.get("/export") { _, context in
            let documents = try await backend.storage(for: try context.user()).export()
            let items = documents.compactMap { item -> JSONValue? in
                guard case .layer(let configurable, let layer) = item.location else { return nil }
                var object: JSONObject = ["configurable": .string(configurable)]
                switch layer {
                case .shared: object["layer"] = "shared"
                case .overrides: object["layer"] = "overrides"
                case .profile(let id):
                    object["layer"] = "profile"
                    object["id"] = .string(id)
                case .publication(let id):
                    object["layer"] = "publication"
                    object["id"] = .string(id)
                }
                object["version"] = .string(item.document.version.rawValue)
                object["preferences"] = .object(item.document.preferences.jsonObject)
                return .object(object)
            }
            return Backend.json(.object(["documents": .array(items)]))
        }
        api.delete("/account-data") { _, context in
            let user = try context.user()
            // The documents and the sync state go together, in one transaction.
            try await backend.database.transaction(lockingUser: user) { transaction in
                try await backend.storage(for: user, in: transaction).removeAll()
                try await backend.replica.reset(of: user, in: transaction)
            }
            return Response(status: .noContent)
        }
    }
}
