import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// Profiles of a configurable (Specs/Server.md §5.5): `GET /v1/{c}/profiles` → `[{"id", "name", "active"}]`;
/// `POST` `{"name"}` → 201 `{"id", "name"}`; `PATCH /v1/{c}/profiles/{id}` `{"name"}`;
/// `POST /v1/{c}/profiles/{id}/duplicate` `{"name"}` → 201; `DELETE` → 204; `PUT
/// /v1/{c}/profiles/active` `{"id"}` (or `null`) sets the server-side clients' active profile.
enum ProfileRoutes {
    static func add(to api: RouterGroup<ServerContext>, backend: Backend) {
        api.get("/:configurable/profiles") { _, context in
            try await run(context, backend, .list)
        }
        api.post("/:configurable/profiles") { request, context in
            try await run(context, backend, .create(try await name(request, backend)))
        }
        api.put("/:configurable/profiles/active") { request, context in
            let body = try await Backend.object(request, limit: backend.bodyLimit)
            let id: String?
            switch body["id"] {
            case .string(let text)?: id = text
            case .null?: id = nil
            default:
                throw Problem(
                    .badRequest, "invalidProfile",
                    "the body is {\"id\": ID}, or {\"id\": null} to use no profile")
            }
            return try await run(context, backend, .activate(id))
        }
        api.patch("/:configurable/profiles/:id") { request, context in
            try await run(context, backend, .rename(try profile(context), try await name(request, backend)))
        }
        api.post("/:configurable/profiles/:id/duplicate") { request, context in
            try await run(
                context, backend, .duplicate(try profile(context), try await name(request, backend)))
        }
        api.delete("/:configurable/profiles/:id") { _, context in
            try await run(context, backend, .delete(try profile(context)))
        }
    }

    static func profile(_ context: ServerContext) throws -> String {
        try Backend.decoded(try context.parameters.require("id"))
    }

    static func name(_ request: Request, _ backend: Backend) async throws -> String {
        guard let name = try await Backend.object(request, limit: backend.bodyLimit)["name"]?.stringValue,
            !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else {
            throw Problem(
                .badRequest, "invalidProfile", "the body is {\"name\": \"...\"} with a name that is not empty"
            )
        }
        return name
    }

    enum Action: Sendable {
        case list
        case create(String)
        case activate(String?)
        case rename(String, String)
        case duplicate(String, String)
        case delete(String)
    }

    static func run(_ context: ServerContext, _ backend: Backend, _ action: Action) async throws -> Response {
        let user = try context.user()
        let configurable = try context.parameters.require("configurable")
        let visitor = Visitor(backend: backend, user: user, action: action)
        if case .list = action { return try await Backend.schema(configurable, visitor) }
        return try await backend.writes.run(user) { try await Backend.schema(configurable, visitor) }
    }

    struct Visitor: SchemaVisitor {
        let backend: Backend
        let user: String
        let action: Action

        func visit<Schema: ResolvableSchema>(_ schema: Schema.Type) async throws -> Response {
            let store = backend.store(schema, for: user)
            switch action {
            case .list:
                let active = try await store.activeProfile()?.id
                let profiles = try await store.profiles().map { profile -> JSONValue in
                    .object([
                        "id": .string(profile.id), "name": .string(profile.name),
                        "active": .bool(profile.id == active),
                    ])
                }
                return Backend.json(.array(profiles))
            case .create(let name):
                let profile = try await store.createProfile(named: name)
                return Backend.json(
                    .object(["id": .string(profile.id), "name": .string(profile.name)]), status: .created)
            case .activate(let id):
                try await store.activateProfile(id)
                return Backend.json(.object(["id": id.map(JSONValue.string) ?? .null]))
            case .rename(let id, let name):
                try await store.renameProfile(id, to: name)
                return Backend.json(.object(["id": .string(id), "name": .string(name)]))
            case .duplicate(let id, let name):
                let profile = try await store.duplicateProfile(id, named: name)
                return Backend.json(
                    .object(["id": .string(profile.id), "name": .string(profile.name)]), status: .created)
            case .delete(let id):
                try await store.deleteProfile(id)
                return Response(status: .noContent)
            }
        }
    }
}
