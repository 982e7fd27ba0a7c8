import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// History and the way back (Specs/Server.md §5.8), from the change journal the user's sync log
/// keeps:
///
/// - `GET /v1/{c}/history?layer=L&key=K`: the changes recorded for a document (`layer` as the
///   document routes name it: `shared`, `overrides`, `rules`, `profiles/{id}`, `classes/{class}`,
///   `publications/{id}`; or
///   `book` or `allBooks` with `publication`), oldest first; with no `layer`, those of every
///   document a publication resolves from (`publication`, or the base layer and the overrides,
///   and the class document of `deviceClass`, the base chosen by the rule context as the
///   settings routes choose it);
/// - `POST /v1/{c}/revert` `{"layer", "key"?, "to": {"entry": ID} | {"time": ISO 8601}}`: the key
///   (or every key of the document) back to its value at that point, as an edit (cause `revert`);
///   `If-Match` with the document's ETag makes it conditional.
struct HistoryController: Sendable {
    let data: UserData

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.get("/:configurable/history", use: history)
        group.post("/:configurable/revert", use: revert)
    }

    @Sendable func history(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        let query = request.uri.queryParameters
        let key = query.get("key").map { String($0) }
        if let key, StorageLocation.holdsNUL(key) {
            throw Problem.unprocessable("invalidKey", member: "key", "a key never holds U+0000")
        }
        let publication = try query.get("publication").map { try Self.identifier(String($0)) }
        // Without a layer, the documents the settings of this device's class and rule context
        // resolve from, as the settings routes take them.
        let deviceClass = try request.deviceClass()
        return try await request.ruleContext(deviceClass: deviceClass).evaluating {
            try await history(
                schema, of: user, layer: query.get("layer").map { String($0) }, publication: publication,
                key: key, deviceClass: deviceClass)
        }
    }

    func history<Schema: ResolvableSchema>(
        _ schema: Schema.Type, of user: String, layer text: String?, publication: String?, key: String?,
        deviceClass: String? = nil
    ) async throws -> JSONAnswer {
        let storage: any PreferencesStorage =
            if let deviceClass {
                try await data.prefetch(schema, for: user, reading: publication, deviceClass: deviceClass)
            } else {
                data.storage(for: user)
            }
        let store = UserData.store(schema, on: storage)
        let entries: [HistoryEntry]
        if let text {
            entries = try await store.history.entries(
                in: try await Self.layer(text, publication: publication, store: store), key: key)
        } else {
            entries = try await store.history.entries(for: publication, key: key)
        }
        return JSONAnswer(.object(["entries": .array(entries.map(\.jsonValue))]))
    }

    @Sendable func revert(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let body = try await request.object(limit: data.bodyLimit)
        guard let layerText = body["layer"]?.stringValue else {
            throw Problem(.badRequest, "invalidRevert", "the body needs \"layer\": \(Self.layers)")
        }
        let key = body["key"]?.stringValue
        if body["key"] != nil, body["key"] != .null, key == nil {
            throw Problem(.badRequest, "invalidRevert", "\"key\" is a string (or absent, for every key)")
        }
        let point: RevertPoint
        switch (body["to"]?.objectValue?["entry"]?.stringValue, body["to"]?.objectValue?["time"]?.stringValue)
        {
        case (let entry?, nil): point = .entry(entry)
        case (nil, let time?):
            guard let milliseconds = Provenance.milliseconds(iso8601: time) else {
                throw Problem(.badRequest, "invalidRevert", "\"to\".\"time\" \(time) is not an ISO 8601 time")
            }
            point = .time(milliseconds)
        default:
            throw Problem(
                .badRequest, "invalidRevert",
                "\"to\" is {\"entry\": ID} (an id the history lists) or {\"time\": ISO 8601}")
        }
        let publication = try body["publication"]?.stringValue.map(Self.identifier)
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        return try await revert(
            schema, of: user, layer: layerText, publication: publication, key: key, to: point,
            ifMatch: request.headers[.ifMatch])
    }

    func revert<Schema: ResolvableSchema>(
        _ schema: Schema.Type, of user: String, layer text: String, publication: String?, key: String?,
        to point: RevertPoint, ifMatch: String?
    ) async throws -> JSONAnswer {
        let (changes, document) = try await data.writes.run(user) { transaction in
            let store = UserData.store(Schema.self, on: transaction.storage)
            let layer = try await Self.layer(text, publication: publication, store: store)
            if let ifMatch {
                let current = try await store.storedDocument(in: layer)
                guard EntityTags.matches(ifMatch, current.map { EntityTags.tag($0.version) } ?? "\"absent\"")
                else {
                    throw StorageError(
                        .preconditionFailed, location: .layer(configurable: Schema.identifier, layer),
                        message: "the \(layer) document changed since it was read", version: current?.version)
                }
            }
            let changes: [StoredChange]
            do {
                changes = try await store.history.revert(key, in: layer, to: point)
            } catch let error as HistoryError {
                switch error {
                case .unknownEntry: throw Problem(.notFound, "unknownEntry", error.description)
                case .noHistory: throw Problem(.notFound, "noHistory", error.description)
                }
            }
            return (changes, try await store.storedDocument(in: layer))
        }
        let list = changes.map { change -> JSONValue in
            [
                "layer": .string(change.layer.code), "key": .string(change.key),
                "old": change.oldValue ?? .null, "new": change.newValue ?? .null,
            ]
        }
        return JSONAnswer(
            .object(["changes": .array(list)]), etag: document.map { EntityTags.tag($0.version) })
    }

    static let layers =
        "shared, overrides, rules, profiles/{id}, classes/{class}, publications/{id}, or book / allBooks "
        + "with publication"

    /// A layer as the history routes name it.
    static func layer<Schema: ResolvableSchema>(
        _ text: String, publication: String?, store: PreferencesStore<Schema>
    ) async throws -> StoreLayer {
        switch text {
        case "book":
            guard let publication else {
                throw Problem.unprocessable(
                    "invalidLayer", member: "layer", "layer book needs publication (the book's identifier)")
            }
            return .publication(publication)
        case "allBooks": return try await store.activeProfile().map { .profile($0.id) } ?? .shared
        default:
            do {
                return try DocumentsController.layer(
                    segments: text.split(separator: "/", maxSplits: 1).map(String.init))
            } catch let problem as Problem where problem.code == DeviceLayerRefusal.code {
                // The device's own layer: 422 saying why (Specs/Server.md §5.2).
                throw problem
            } catch {
                throw Problem.unprocessable(
                    "invalidLayer", member: "layer", "layer is \(layers), not \(text)")
            }
        }
    }

    /// A publication identifier from a query or a body: refused with U+0000 (Specs/Store.md §8.4).
    static func identifier(_ text: String) throws -> String {
        guard !StorageLocation.holdsNUL(text) else {
            throw Problem(.badRequest, "invalidIdentifier", "a publication identifier never holds U+0000")
        }
        return text
    }
}
