import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// Profiles of a configurable (Specs/Server.md §5.5): `GET /v1/{c}/profiles` → `[{"id", "name",
/// "active"}]`; `POST` `{"name"}` → 201 `{"id", "name"}`; `PATCH /v1/{c}/profiles/{id}`
/// `{"name"}`; `POST /v1/{c}/profiles/{id}/duplicate` `{"name"}` → 201; `DELETE` → 204; `PUT
/// /v1/{c}/profiles/active` `{"id"}` (or `null`) sets the server-side clients' active profile.
/// Every change runs in the user's write path.
struct ProfilesController: Sendable {
    let data: UserData

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.get("/:configurable/profiles", use: list)
        group.post("/:configurable/profiles", use: create)
        group.put("/:configurable/profiles/active", use: activate)
        group.patch("/:configurable/profiles/:id", use: rename)
        group.post("/:configurable/profiles/:id/duplicate", use: duplicate)
        group.delete("/:configurable/profiles/:id", use: delete)
    }

    /// A change of a user's profiles.
    enum Change: Sendable {
        case create(name: String)
        case activate(String?)
        /// Back to automatic: the rules choose the profile again (Specs/Store.md §4.5).
        case automatic
        case rename(String, to: String)
        case duplicate(String, name: String)
        case delete(String)
    }

    @Sendable func list(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        return try await list(schema, of: user)
    }

    @Sendable func create(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        return try await change(.create(name: try await name(request)), of: user, context: context)
    }

    @Sendable func activate(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let body = try await request.object(limit: data.bodyLimit)
        let usage =
            "the body is {\"id\": ID}, {\"id\": null} to use no profile, or {\"automatic\": true} to let the rules choose"
        if let automatic = body["automatic"] {
            guard automatic == .bool(true), body["id"] == nil else {
                throw Problem(.badRequest, "invalidProfile", usage)
            }
            return try await change(.automatic, of: user, context: context)
        }
        let id: String?
        switch body["id"] {
        case .string(let text)?: id = text
        case .null?: id = nil
        default: throw Problem(.badRequest, "invalidProfile", usage)
        }
        return try await change(.activate(id), of: user, context: context)
    }

    @Sendable func rename(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        return try await change(
            .rename(try Self.profile(context), to: try await name(request)), of: user, context: context)
    }

    @Sendable func duplicate(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        return try await change(
            .duplicate(try Self.profile(context), name: try await name(request)), of: user, context: context)
    }

    @Sendable func delete(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        return try await change(.delete(try Self.profile(context)), of: user, context: context)
    }

    func list<Schema: ResolvableSchema>(_ schema: Schema.Type, of user: String) async throws -> JSONAnswer {
        let store = UserData.store(schema, on: data.storage(for: user))
        let active = try await store.activeProfile()?.id
        let profiles = try await store.profiles().map { profile -> JSONValue in
            .object([
                "id": .string(profile.id), "name": .string(profile.name),
                "active": .bool(profile.id == active),
            ])
        }
        return JSONAnswer(.array(profiles))
    }

    func change(_ change: Change, of user: String, context: ServerContext) async throws -> JSONAnswer {
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        return try await self.change(change, schema, of: user)
    }

    /// A change of the user's profiles, in the user's write path.
    func change<Schema: ResolvableSchema>(_ change: Change, _ schema: Schema.Type, of user: String)
        async throws -> JSONAnswer
    {
        try await data.writes.run(user) { transaction in
            let store = UserData.store(schema, on: transaction.storage)
            switch change {
            case .create(let name):
                let profile = try await store.createProfile(named: name)
                return JSONAnswer(
                    .object(["id": .string(profile.id), "name": .string(profile.name)]), status: .created)
            case .activate(let id):
                try await store.activateProfile(id)
                return JSONAnswer(.object(["id": id.map(JSONValue.string) ?? .null, "automatic": false]))
            case .automatic:
                try await store.activateAutomatically()
                return JSONAnswer(.object(["id": .null, "automatic": true]))
            case .rename(let id, let name):
                try await store.renameProfile(id, to: name)
                return JSONAnswer(.object(["id": .string(id), "name": .string(name)]))
            case .duplicate(let id, let name):
                let profile = try await store.duplicateProfile(id, named: name)
                return JSONAnswer(
                    .object(["id": .string(profile.id), "name": .string(profile.name)]), status: .created)
            case .delete(let id):
                try await store.deleteProfile(id)
                return .noContent
            }
        }
    }

    static func profile(_ context: ServerContext) throws -> String {
        try Request.decoded(try context.parameters.require("id"))
    }

    /// The name a body gives (400 without one that is not empty).
    func name(_ request: Request) async throws -> String {
        guard let name = try await request.object(limit: data.bodyLimit)["name"]?.stringValue,
            !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else {
            throw Problem(
                .badRequest, "invalidProfile", "the body is {\"name\": \"...\"} with a name that is not empty"
            )
        }
        return name
    }
}
