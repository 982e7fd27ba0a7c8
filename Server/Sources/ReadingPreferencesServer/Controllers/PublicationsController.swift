import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// A publication's settings, its Readium CSS, and key-based edits of it (Specs/Server.md §5.3, §5.4):
///
/// - `GET /v1/{c}/publications/{id}/settings`: every setting with its value, source, whether it
///   takes effect and why not, and the merged stored preferences; `ETag` is the settings
///   fingerprint (resolved settings and the stored preferences they came from).
/// - `GET /v1/{c}/publications/{id}/css` (EPUB): the inline style and its properties, with the
///   CSS's own fingerprint.
/// - `POST /v1/{c}/publications/{id}/edits`: the edits, all or none, conditional on `If-Match`.
///
/// Settings and CSS, the routes read most, check the token themselves, in the query that reads
/// the versions of their documents (`reads`, a group without ``BearerAuthentication``): an
/// answer kept from those versions is served from that one query. The edits are behind it.
enum PublicationRoutes {
    static func add(
        to api: RouterGroup<ServerContext>, reads: RouterGroup<ServerContext>, backend: Backend,
        authentication: Authentication
    ) {
        reads.get("/:configurable/publications/:publication/settings") { request, context in
            let (configurable, publication) = try await authentication.checked(request) {
                () throws -> (String, String) in
                let configurable = try context.parameters.require("configurable")
                try Backend.checkKnown(configurable)
                return (configurable, try PublicationRoutes.publication(context))
            }
            return try await Backend.schema(
                configurable,
                Settings(
                    backend: backend, authentication: authentication, publication: publication,
                    request: request))
        }
        reads.get("/:configurable/publications/:publication/css") { request, context in
            let (configurable, publication) = try await authentication.checked(request) {
                () throws -> (String, String) in
                let configurable = try context.parameters.require("configurable")
                guard configurable == EPUB.identifier else {
                    throw Problem(.notFound, "noCSS", "Readium CSS is made for epub, not \(configurable)")
                }
                return (configurable, try PublicationRoutes.publication(context))
            }
            let (user, versions) = try await backend.currentVersions(
                EPUB.self, for: request, authentication: authentication, reading: publication)
            let key = AnswerCache.Key(
                kind: .css, user: user, configurable: configurable, publication: publication,
                query: request.uri.query ?? "")
            let ifNoneMatch = request.headers[.ifNoneMatch]
            if let kept = backend.answers.answer(for: key, versions: versions), let body = kept.body {
                if Backend.matches(ifNoneMatch, kept.etag) { return Backend.notModified(etag: kept.etag) }
                return Backend.json(body, etag: kept.etag)
            }
            let storage = try await backend.prefetch(EPUB.self, for: user, reading: publication)
            let settings = try await Backend.store(EPUB.self, on: storage)
                .resolvedSettings(for: publication, context: try Backend.context(request))
            let css = settings.readiumCSS()
            let etag = "\"\(css.fingerprint)\""
            var properties = JSONObject()
            for property in css.properties { properties[property.name] = .string(property.value) }
            let body = JSONValue.object(
                ["inlineStyle": .string(css.inlineStyle), "properties": .object(properties)]
            ).jsonData()
            backend.answers.keep(key, etag: etag, body: body, builtWith: storage)
            if Backend.matches(ifNoneMatch, etag) { return Backend.notModified(etag: etag) }
            return Backend.json(body, etag: etag)
        }
        api.post("/:configurable/publications/:publication/edits") { request, context in
            let body = try await Backend.object(request, limit: backend.bodyLimit)
            guard let list = body["edits"]?.arrayValue else {
                throw Problem(
                    .badRequest, "invalidEdits", "the body is {\"edits\": [...], \"publication\"?: {...}}")
            }
            let edits = try list.enumerated().map { index, item in try edit(item, at: index) }
            return try await Backend.schema(
                try context.parameters.require("configurable"),
                Edits(
                    backend: backend, user: try context.user(), publication: try publication(context),
                    context: try Backend.context(request, publication: body["publication"]), edits: edits,
                    ifMatch: request.headers[.ifMatch]))
        }
    }

    static func publication(_ context: ServerContext) throws -> String {
        try Backend.decoded(try context.parameters.require("publication"))
    }

    /// One key-based edit, as the conformance vectors write them (Specs/README.md §3): `{"key", "op",
    /// "value"?, "amount"?}`.
    static func edit(_ value: JSONValue, at index: Int) throws -> PreferenceEdit {
        guard let object = value.objectValue, let name = object["op"]?.stringValue else {
            throw Problem(.badRequest, "invalidEdits", "edits[\(index)] needs \"op\"")
        }
        guard let operation = PreferenceEdit.Operation(rawValue: name) else {
            throw Problem(
                .badRequest, "invalidEdits",
                "edits[\(index)].op \(name) is not one of "
                    + PreferenceEdit.Operation.allNames.joined(separator: ", "))
        }
        let key = object["key"]?.stringValue
        if operation.needsKey, key == nil {
            throw Problem(.badRequest, "invalidEdits", "edits[\(index)] needs \"key\"")
        }
        let value = object["value"]
        let keyText = key ?? ""
        switch operation {
        case .set: return .set(key: keyText, value: value == .null ? nil : value)
        case .clear: return .clear(key: keyText)
        case .clearAll: return .clearAll
        case .toggle: return .toggle(key: keyText)
        case .toggleValue:
            guard let value else {
                throw Problem(.badRequest, "invalidEdits", "edits[\(index)] needs \"value\"")
            }
            return .toggleValue(key: keyText, value: value)
        case .increment: return .increment(key: keyText)
        case .decrement: return .decrement(key: keyText)
        case .adjustBy:
            guard let amount = object["amount"]?.numberValue?.doubleValue else {
                throw Problem(.badRequest, "invalidEdits", "edits[\(index)] needs a number \"amount\"")
            }
            return .adjustBy(key: keyText, amount: amount)
        case .activate: return .activate(key: keyText)
        }
    }

    /// The settings answer: `{"settings": [{"key", "value", "source", "from"?, "effective",
    /// "reasons"}], "preferences": {...}}`, and its ETag.
    static func answer<Schema: ResolvableSchema>(
        _ store: PreferencesStore<Schema>, publication: String, context: PublicationContext
    ) async throws -> (JSONValue, String) {
        let state = try await store.state(for: publication, context: context)
        var settings: [JSONValue] = []
        for setting in state.settings {
            var object: JSONObject = ["key": .string(setting.key), "value": setting.value ?? .null]
            for member in setting.source.jsonMembers { object[member.key] = member.value }
            object["effective"] = .bool(setting.isEffective)
            object["reasons"] = .array(setting.reasons.map { .string($0.code) })
            settings.append(.object(object))
        }
        let body: JSONObject = [
            "settings": .array(settings), "preferences": .object(state.preferences.jsonObject),
        ]
        return (.object(body), state.fingerprints.settingsETag)
    }

    /// The settings answer, from the answers kept while their documents are unchanged or built
    /// (and kept).
    struct Settings: SchemaVisitor {
        let backend: Backend
        let authentication: Authentication
        let publication: String
        let request: Request

        func visit<Schema: ResolvableSchema>(_ schema: Schema.Type) async throws -> Response {
            // The token and the versions of the documents first: an answer kept from them needs
            // nothing else. Otherwise the documents are read (one query) and the answer built.
            let (user, versions) = try await backend.currentVersions(
                schema, for: request, authentication: authentication, reading: publication)
            let key = AnswerCache.Key(
                kind: .settings, user: user, configurable: Schema.identifier, publication: publication,
                query: request.uri.query ?? "")
            let ifNoneMatch = request.headers[.ifNoneMatch]
            if let kept = backend.answers.answer(for: key, versions: versions) {
                if Backend.matches(ifNoneMatch, kept.etag) { return Backend.notModified(etag: kept.etag) }
                if let body = kept.body { return Backend.json(body, etag: kept.etag) }
            }
            let storage = try await backend.prefetch(schema, for: user, reading: publication)
            let context = try Backend.context(request)
            let store = Backend.store(Schema.self, on: storage)
            if let ifNoneMatch {
                // A client that has the answer: the fingerprint alone decides, nothing is built.
                let etag = try await store.fingerprints(for: publication, context: context).settingsETag
                if Backend.matches(ifNoneMatch, etag) {
                    backend.answers.keep(key, etag: etag, body: nil, builtWith: storage)
                    return Backend.notModified(etag: etag)
                }
            }
            let (value, etag) = try await answer(store, publication: publication, context: context)
            let body = value.jsonData()
            backend.answers.keep(key, etag: etag, body: body, builtWith: storage)
            return Backend.json(body, etag: etag)
        }
    }

    struct Edits: SchemaVisitor {
        let backend: Backend
        let user: String
        let publication: String
        let context: PublicationContext
        let edits: [PreferenceEdit]
        let ifMatch: String?

        func visit<Schema: ResolvableSchema>(_ schema: Schema.Type) async throws -> Response {
            let (body, etag) = try await backend.writes.run(user) {
                [backend, user, publication, context, edits, ifMatch] in
                let store = try await backend.store(schema, for: user, reading: publication)
                try await store.apply(edits, publication: publication, context: context, ifMatch: ifMatch)
                return try await answer(store, publication: publication, context: context)
            }
            return Backend.json(body, etag: etag)
        }
    }
}
