import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// `GET`, `PUT` and `PATCH /v1/{configurable}/preferences/{layer}`, where `{layer}` is `shared`,
/// `overrides`, `profiles/{id}` or `publications/{id}` (percent-encoded): a layer's stored
/// document, byte for byte as the library writes it, with its version as `ETag`.
enum DocumentRoutes {
    static func add(to api: RouterGroup<ServerContext>, backend: Backend) {
        api.get("/:configurable/preferences/**") { request, context in
            try await Backend.schema(
                try context.parameters.require("configurable"),
                Read(backend: backend, user: try context.user(), layer: try layer(context)))
        }
        api.put("/:configurable/preferences/**") { request, context in
            let precondition: DocumentPrecondition
            if let match = request.headers[.ifMatch] {
                precondition = .version(StorageVersion(Self.tag(match)))
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
                document = try Preferences(json: try await Backend.body(request, limit: backend.bodyLimit))
            } catch let error as JSONDecodingError {
                throw Problem(.badRequest, "invalidJSON", "the body is not a JSON object: \(error)")
            }
            return try await Backend.schema(
                try context.parameters.require("configurable"),
                Write(
                    backend: backend, user: try context.user(), layer: try layer(context),
                    context: try Backend.context(request), precondition: precondition,
                    change: .replace(document)))
        }
        api.patch("/:configurable/preferences/**") { request, context in
            let patch = try await Backend.object(request, limit: backend.bodyLimit)
            let precondition = request.headers[.ifMatch].map {
                DocumentPrecondition.version(StorageVersion(Self.tag($0)))
            }
            return try await Backend.schema(
                try context.parameters.require("configurable"),
                Write(
                    backend: backend, user: try context.user(), layer: try layer(context),
                    context: try Backend.context(request), precondition: precondition, change: .merge(patch)))
        }
    }

    /// The layer a path names after `preferences/`.
    static func layer(_ context: ServerContext) throws -> StoreLayer {
        let segments = context.parameters.getCatchAll().map(String.init)
        switch segments.first {
        case "shared" where segments.count == 1: return .shared
        case "overrides" where segments.count == 1: return .overrides
        case "profiles" where segments.count == 2: return .profile(try Backend.decoded(segments[1]))
        case "publications" where segments.count >= 2:
            return .publication(try Backend.decoded(segments.dropFirst().joined(separator: "/")))
        default:
            throw Problem(
                .notFound, "unknownLayer",
                "the layer is shared, overrides, profiles/{id} or publications/{id} (percent-encoded)")
        }
    }

    /// An entity tag without its quotes (a version is sent quoted).
    static func tag(_ header: String) -> String {
        var text = header.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("W/") { text.removeFirst(2) }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    static func etag(_ version: StorageVersion) -> String { "\"\(version.rawValue)\"" }

    struct Read: SchemaVisitor {
        let backend: Backend
        let user: String
        let layer: StoreLayer

        func visit<Schema: ResolvableSchema>(_ schema: Schema.Type) async throws -> Response {
            guard let document = try await backend.store(schema, for: user).storedDocument(in: layer) else {
                throw Problem(.notFound, "notFound", "there is no \(layer) document")
            }
            return Backend.json(.object(document.preferences.jsonObject), etag: etag(document.version))
        }
    }

    enum Change: Sendable {
        case replace(Preferences)
        case merge(JSONObject)
    }

    struct Write: SchemaVisitor {
        let backend: Backend
        let user: String
        let layer: StoreLayer
        let context: PublicationContext
        let precondition: DocumentPrecondition?
        let change: Change

        func visit<Schema: ResolvableSchema>(_ schema: Schema.Type) async throws -> Response {
            // The whole write inside a transaction that holds the user's rows (shared with the
            // user's other document writes waiting now): the document read, checked against the
            // precondition, written at the version read (no second read) and stamped for sync.
            let result = try await backend.documentWrites.run(user) {
                [layer, context, precondition, change] storage in
                let store = Backend.store(Schema.self, on: storage)
                switch change {
                case .replace(let document):
                    return try await store.replaceDocument(
                        document, in: layer, context: context, ifMatch: precondition)
                case .merge(let patch):
                    return try await store.mergeDocument(
                        patch, in: layer, context: context, ifMatch: precondition)
                }
            }
            guard let document = result.document else { return Response(status: .noContent) }
            return Backend.json(.object(document.preferences.jsonObject), etag: etag(document.version))
        }
    }
}
