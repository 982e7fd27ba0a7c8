import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// `GET`, `PUT` and `PATCH /v1/{configurable}/preferences/{layer}`, where `{layer}` is `shared`,
/// `overrides`, `profiles/{id}`, `classes/{class}` or `publications/{id}` (percent-encoded): a layer's stored
/// document, byte for byte as the library writes it, with its version as `ETag`
/// (Specs/Server.md §5.2).
struct DocumentsController: Sendable {
    let data: UserData

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.get("/:configurable/preferences/**", use: read)
        group.put("/:configurable/preferences/**", use: replace)
        group.patch("/:configurable/preferences/**", use: merge)
    }

    /// How a write changes the document.
    enum Change: Sendable {
        case replace(Preferences)
        case merge(JSONObject)
    }

    @Sendable func read(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        return try await read(schema, of: user, in: try Self.layer(context))
    }

    @Sendable func replace(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        // The layer first: every method of the device layer is 422, whatever else the request
        // lacks (Specs/Server.md §5.2).
        let layer = try Self.layer(context)
        let precondition: DocumentPrecondition
        if let match = request.headers[.ifMatch] {
            precondition = .version(StorageVersion(EntityTags.bare(match)))
        } else if request.headers[.ifNoneMatch]?.trimmingCharacters(in: .whitespaces) == "*" {
            precondition = .absent
        } else {
            throw Problem(
                HTTPResponse.Status(code: 428, reasonPhrase: "Precondition Required"),
                "preconditionRequired",
                "a PUT needs If-Match with the document's ETag, or If-None-Match: * to create it")
        }
        let document: Preferences
        do {
            document = try Preferences(json: try await request.jsonBody(limit: data.bodyLimit))
        } catch let error as JSONDecodingError {
            throw Problem(.badRequest, "invalidJSON", "the body is not a JSON object: \(error)")
        }
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        return try await write(
            schema, of: user, in: layer, context: try request.publicationContext(),
            precondition: precondition, change: .replace(document))
    }

    /// A merge patch (RFC 7396); one sent as `application/merge-patch+json; dialect=D` is read in
    /// that Readium dialect first (a web reader importing what it kept), merged as ours, and
    /// answered with what the import coerced, kept aside or dropped (Specs/Server.md §8.1).
    @Sendable func merge(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let layer = try Self.layer(context)
        let dialect = try Dialects.parameter(ofContentType: request.headers[.contentType])
        let patch = try await request.object(limit: data.bodyLimit)
        let precondition = request.headers[.ifMatch].map {
            DocumentPrecondition.version(StorageVersion(EntityTags.bare($0)))
        }
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        let publicationContext = try request.publicationContext()
        guard let dialect else {
            return try await write(
                schema, of: user, in: layer, context: publicationContext, precondition: precondition,
                change: .merge(patch))
        }
        let read = Self.imported(patch, dialect: dialect, for: schema)
        let document = try await writeDocument(
            schema, of: user, in: layer, context: publicationContext, precondition: precondition,
            change: .merge(read.mergePatch))
        return DialectImportAnswer.answer(read, document: document)
    }

    /// A dialect's object read into ours.
    static func imported<Schema: ResolvableSchema>(
        _ object: JSONObject, dialect: ReadiumDialect, for schema: Schema.Type
    ) -> DialectImport {
        Preferences.imported(object, dialect: dialect, for: schema)
    }

    func read<Schema: ResolvableSchema>(_ schema: Schema.Type, of user: String, in layer: StoreLayer)
        async throws -> JSONAnswer
    {
        let store = UserData.store(schema, on: data.storage(for: user))
        guard let document = try await store.storedDocument(in: layer) else {
            throw Problem(.notFound, "notFound", "there is no \(layer) document")
        }
        return Self.answer(document)
    }

    /// The whole write inside a transaction that holds the user's rows (shared with the user's
    /// other writes waiting now): the document read, checked against the precondition, written
    /// at the version read (no second read) and stamped for sync.
    func write<Schema: ResolvableSchema>(
        _ schema: Schema.Type, of user: String, in layer: StoreLayer, context: PublicationContext,
        precondition: DocumentPrecondition?, change: Change
    ) async throws -> JSONAnswer {
        let document = try await writeDocument(
            schema, of: user, in: layer, context: context, precondition: precondition, change: change)
        guard let document else { return .noContent }
        return Self.answer(document)
    }

    /// ``write(_:of:in:context:precondition:change:)``'s document, before it is an answer.
    func writeDocument<Schema: ResolvableSchema>(
        _ schema: Schema.Type, of user: String, in layer: StoreLayer, context: PublicationContext,
        precondition: DocumentPrecondition?, change: Change
    ) async throws -> StoredDocument? {
        let result = try await Problem.rejections(in: Schema.catalogue) {
            try await data.writes.run(user) { transaction in
                let store = UserData.store(Schema.self, on: transaction.storage)
                switch change {
                case .replace(let document):
                    if layer == .rules { try RulesValidation.check(document.jsonObject) }
                    return try await store.replaceDocument(
                        document, in: layer, context: context, ifMatch: precondition)
                case .merge(let patch):
                    if layer == .rules {
                        // The document the patch makes, checked before anything is written.
                        let current = try await store.storedDocument(in: .rules)?.preferences
                        var merged = current?.jsonObject ?? JSONObject()
                        for member in patch.members { merged[member.key] = member.value }
                        try RulesValidation.check(merged)
                    }
                    return try await store.mergeDocument(
                        patch, in: layer, context: context, ifMatch: precondition)
                }
            }
        }
        return result.document
    }

    /// A stored document as the library wrote it, tagged with its version.
    static func answer(_ document: StoredDocument) -> JSONAnswer {
        JSONAnswer(.object(document.preferences.jsonObject), etag: EntityTags.tag(document.version))
    }

    /// The layer a path names after `preferences/`.
    static func layer(_ context: ServerContext) throws -> StoreLayer {
        try layer(segments: context.parameters.getCatchAll().map(String.init))
    }

    /// The layer a path names (`shared`, `overrides`, `profiles/{id}`, `classes/{class}`,
    /// `publications/{id}`, percent-encoded), from its segments; `device` (this device's layer)
    /// is a 422: the server holds no device documents.
    static func layer(segments: [String]) throws -> StoreLayer {
        switch segments.first {
        case "shared" where segments.count == 1: return .shared
        case "overrides" where segments.count == 1: return .overrides
        case "rules" where segments.count == 1: return .rules
        case "profiles" where segments.count == 2: return .profile(try Request.decoded(segments[1]))
        case "classes" where segments.count == 2: return .deviceClass(try Request.decoded(segments[1]))
        case "device", "this-device":
            // Specs/Server.md §5.2: a device's own layer never leaves the device.
            throw DeviceLayerRefusal.problem(member: "layer")
        case "publications" where segments.count >= 2:
            return .publication(try Request.decoded(segments.dropFirst().joined(separator: "/")))
        default:
            throw Problem(
                .notFound, "unknownLayer",
                "the layer is shared, overrides, rules, profiles/{id}, classes/{class} or "
                    + "publications/{id} (percent-encoded)")
        }
    }
}
