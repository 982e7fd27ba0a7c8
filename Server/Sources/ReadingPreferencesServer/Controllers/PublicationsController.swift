import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import ReadingPreferencesStore

/// A publication's settings, its Readium CSS, and key-based edits of it (Specs/Server.md §5.3,
/// §5.4):
///
/// - `GET /v1/{c}/publications/{id}/settings`: every setting with its value, source, whether it
///   takes effect and why not, and the merged stored preferences; `ETag` is the settings
///   fingerprint (resolved settings and the stored preferences they came from).
/// - `GET /v1/{c}/publications/{id}/css` (EPUB): the inline style and its properties, with the
///   CSS's own fingerprint; `?readiumCSS=2` writes them for Readium CSS 2.
/// - `POST /v1/{c}/publications/{id}/edits`: the edits, all or none, conditional on `If-Match`,
///   and moves of values between layers (``EditsRequest``).
///
/// Each takes the device's class as the query member `deviceClass` (Specs/Server.md §4.9): its
/// class document then resolves between the base and the book's.
///
/// Settings and CSS, the routes read most, look the token up in the query that reads the
/// versions of their documents: an answer kept from those versions (``AnswerCache``) is served
/// from that one query.
struct PublicationsController: Sendable {
    let data: UserData
    /// The font families the form suggests for the font setting (`--fonts`), a reader's own kept.
    var fonts: [String] = []

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.get("/:configurable/publications/:publication/settings", use: settings)
        group.get("/:configurable/publications/:publication/css", use: css)
        group.post("/:configurable/publications/:publication/edits", use: edits)
        group.get("/:configurable/publications/:publication/preferences", use: preferences)
        group.get("/:configurable/publications/:publication/form", use: form)
    }

    /// `GET …/preferences?dialect=D`: the merged stored preferences a navigator is given (the
    /// base, the book's and the overrides), in our JSON or a Readium dialect, with what the
    /// dialect dropped; tagged with the stored fingerprint and the dialect.
    @Sendable func preferences(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        let dialect = try Dialects.named(request.uri.queryParameters.get("dialect").map { String($0) })
        return try await request.ruleContext(deviceClass: try request.deviceClass()).evaluating {
            try await preferences(
                schema, of: user, publication: try Self.publication(context), dialect: dialect,
                request: request)
        }
    }

    /// `GET …/form`: the settings form (sections and rows, each with its control, range, values
    /// and their labels, stored value and the layer holding it, effective and formatted value,
    /// and each reason with its text), tagged with the settings fingerprint.
    @Sendable func form(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        return try await request.ruleContext(deviceClass: try request.deviceClass()).evaluating {
            try await form(schema, of: user, publication: try Self.publication(context), request: request)
        }
    }

    func preferences<Schema: ResolvableSchema>(
        _ schema: Schema.Type, of user: String, publication: String, dialect: ReadiumDialect?,
        request: Request
    ) async throws -> JSONAnswer {
        let deviceClass = try request.deviceClass()
        let storage = try await data.prefetch(
            schema, for: user, reading: publication, deviceClass: deviceClass)
        let store = UserData.store(schema, on: storage)
        let publicationContext = try request.publicationContext()
        let stored = try await store.fingerprints(for: publication, context: publicationContext).stored
        let etag = "\"\(stored)-\(dialect.map(Dialects.name) ?? "ours")\""
        if EntityTags.matches(request.headers[.ifNoneMatch], etag) { return .notModified(etag: etag) }
        let merged = try await store.state(for: publication, context: publicationContext).preferences
        let export =
            dialect.map { merged.exported(dialect: $0, for: schema) }
            ?? DialectExport(object: merged.jsonObject)
        let dropped = export.dropped.map { item -> JSONValue in
            .object(["key": .string(item.key), "reason": .string(item.reason)])
        }
        return JSONAnswer(
            .object(["preferences": .object(export.object), "dropped": .array(dropped)]), etag: etag)
    }

    func form<Schema: ResolvableSchema>(
        _ schema: Schema.Type, of user: String, publication: String, request: Request
    ) async throws -> JSONAnswer {
        let deviceClass = try request.deviceClass()
        let storage = try await data.prefetch(
            schema, for: user, reading: publication, deviceClass: deviceClass)
        let store = UserData.store(schema, on: storage)
        let publicationContext = try request.publicationContext()
        if let ifNoneMatch = request.headers[.ifNoneMatch] {
            // A page that polls: the fingerprint alone decides, nothing is built.
            let etag = try await store.fingerprints(for: publication, context: publicationContext)
                .settingsETag
            if EntityTags.matches(ifNoneMatch, etag) { return .notModified(etag: etag) }
        }
        let state = try await store.state(
            for: publication, context: publicationContext, includingProvenance: true)
        let form = try await store.editor(for: publication, context: publicationContext)
            .form(suggesting: ["fontFamily": fonts.map(JSONValue.string)])
        var rows: [String: [JSONObject.Member]] = [:]
        for setting in state.settings {
            rows[setting.key] =
                setting.source.jsonMembers + [
                    .init(key: "provenance", value: setting.provenance?.jsonValue ?? .null)
                ] + (setting.profileChoice.map { [.init(key: "chosenBy", value: $0.jsonValue)] } ?? [])
        }
        // Which of the layers a page edits hold each key: the book's, and all books' (the active
        // profile, or shared), so Reset is offered only where a value is stored.
        // With a class, its document too (named `deviceClass`).
        let base: StoreLayer = try await store.activeProfile().map { .profile($0.id) } ?? .shared
        var holders: [String: [JSONValue]] = [:]
        var layers = [(StoreLayer.publication(publication), "publication"), (base, Self.name(of: base))]
        if let deviceClass { layers.append((.deviceClass(deviceClass), "deviceClass")) }
        for (layer, name) in layers {
            for key in try await store.storedPreferences(in: layer).keys {
                holders[key, default: []].append(.string(name))
            }
        }
        for key in rows.keys {
            rows[key, default: []].append(.init(key: "storedIn", value: .array(holders[key] ?? [])))
        }
        return JSONAnswer(
            try SettingsFormAnswer.json(form, sources: rows, catalogue: Schema.catalogue),
            etag: state.fingerprints.settingsETag)
    }

    @Sendable func settings(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        return try await request.ruleContext(deviceClass: try request.deviceClass()).evaluating {
            try await settings(
                schema, publication: try Self.publication(context), request: request, context: context)
        }
    }

    @Sendable func css(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        try await request.ruleContext(deviceClass: try request.deviceClass()).evaluating {
            try await cssRoute(request, context: context)
        }
    }

    /// The CSS route's answer, in the request's rule context.
    func cssRoute(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let configurable = try context.parameters.require("configurable")
        guard configurable == EPUB.identifier else {
            throw Problem(.notFound, "noCSS", "Readium CSS is made for epub, not \(configurable)")
        }
        let publication = try Self.publication(context)
        let version = try request.readiumCSSVersion()
        let deviceClass = try request.deviceClass()
        let (user, versions) = try await data.currentVersions(
            EPUB.self, of: try Self.identity(context), reading: publication, deviceClass: deviceClass)
        let key = AnswerCache.Key(
            kind: .css, user: user, configurable: configurable, publication: publication,
            query: request.uri.query ?? "")
        let ifNoneMatch = request.headers[.ifNoneMatch]
        if let kept = data.answers.answer(for: key, versions: versions), let body = kept.body {
            if EntityTags.matches(ifNoneMatch, kept.etag) { return .notModified(etag: kept.etag) }
            return JSONAnswer(data: body, etag: kept.etag)
        }
        let storage = try await data.prefetch(
            EPUB.self, for: user, reading: publication, deviceClass: deviceClass)
        // Effectiveness follows the Readium CSS the navigator ships (Specs/Resolution.md §5.2).
        let store = PreferencesStore<EPUB>(
            storage: storage, environment: ReadingEnvironment(readiumCSS: version))
        let editor = try await store.editor(for: publication, context: try request.publicationContext())
        let body = Self.cssAnswer(editor, version: version).jsonData()
        // The answer's own fingerprint: its CSS, layout and what is not in effect (Specs/Server.md §5.3).
        let etag = "\"" + hex(SHA256.hash(data: body).prefix(16)) + "\""
        data.answers.keep(key, etag: etag, body: body, builtWith: storage)
        if EntityTags.matches(ifNoneMatch, etag) { return .notModified(etag: etag) }
        return JSONAnswer(data: body, etag: etag)
    }

    /// The CSS answer (Specs/Server.md §5.3): the inline style and its properties, the page layout
    /// as the command line's `css` prints it (`stylesheets`, `dir`, `lang`), and the properties
    /// written whose settings do not take effect (`notInEffect`), which Readium CSS ignores.
    static func cssAnswer(_ editor: EPUB.Editor, version: ReadiumCSSVersion = .v1) -> JSONValue {
        let settings = editor.settings
        let css = settings.readiumCSS(options: ReadiumCSSOptions(version: version))
        var properties = JSONObject()
        for property in css.properties { properties[property.name] = .string(property.value) }
        let layout = settings.pageLayout
        return .object([
            "inlineStyle": .string(css.inlineStyle), "properties": .object(properties),
            "stylesheets": .string(layout.stylesheets.rawValue),
            "dir": layout.htmlDirection.map { .string($0.rawValue) } ?? .null,
            "lang": layout.language.map { .string($0.code) } ?? .null,
            "notInEffect": .array(editor.readiumCSSPropertiesNotInEffect.map(JSONValue.string)),
        ])
    }

    @Sendable func edits(_ request: Request, context: ServerContext) async throws -> JSONAnswer {
        let user = try await context.user()
        let body = try await request.object(limit: data.bodyLimit)
        let deviceClass = try request.deviceClass()
        let read = try EditsRequest(body, deviceClass: deviceClass)
        let schema = try Configurables.schema(named: try context.parameters.require("configurable"))
        return try await apply(
            read, schema, of: user, publication: try Self.publication(context),
            context: try request.publicationContext(publication: body["publication"]),
            deviceClass: deviceClass, rules: try request.ruleContext(deviceClass: deviceClass),
            ifMatch: request.headers[.ifMatch])
    }

    /// The settings answer, from the answers kept while their documents are unchanged, or built
    /// (and kept).
    func settings<Schema: ResolvableSchema>(
        _ schema: Schema.Type, publication: String, request: Request, context: ServerContext
    ) async throws -> JSONAnswer {
        // The token and the versions of the documents first: an answer kept from them needs
        // nothing else. Otherwise the documents are read (one query) and the answer built.
        let deviceClass = try request.deviceClass()
        let (user, versions) = try await data.currentVersions(
            schema, of: try Self.identity(context), reading: publication, deviceClass: deviceClass)
        let key = AnswerCache.Key(
            kind: .settings, user: user, configurable: Schema.identifier, publication: publication,
            query: request.uri.query ?? "")
        let ifNoneMatch = request.headers[.ifNoneMatch]
        if let kept = data.answers.answer(for: key, versions: versions) {
            if EntityTags.matches(ifNoneMatch, kept.etag) { return .notModified(etag: kept.etag) }
            if let body = kept.body { return JSONAnswer(data: body, etag: kept.etag) }
        }
        let storage = try await data.prefetch(
            schema, for: user, reading: publication, deviceClass: deviceClass)
        let publicationContext = try request.publicationContext()
        let store = UserData.store(Schema.self, on: storage)
        if let ifNoneMatch {
            // A client that has the answer: the fingerprint alone decides, nothing is built.
            let etag = try await store.fingerprints(for: publication, context: publicationContext)
                .settingsETag
            if EntityTags.matches(ifNoneMatch, etag) {
                data.answers.keep(key, etag: etag, body: nil, builtWith: storage)
                return .notModified(etag: etag)
            }
        }
        let (value, etag) = try await Self.answer(
            store, publication: publication, context: publicationContext)
        let body = value.jsonData()
        data.answers.keep(key, etag: etag, body: body, builtWith: storage)
        return JSONAnswer(data: body, etag: etag)
    }

    /// Applies edits, then moves, in the user's write path (one transaction), and answers the
    /// settings after them.
    func apply<Schema: ResolvableSchema>(
        _ read: EditsRequest, _ schema: Schema.Type, of user: String, publication: String,
        context: PublicationContext, deviceClass: String? = nil,
        rules: ProfileRuleContext = ProfileRuleContext(), ifMatch: String?
    ) async throws -> JSONAnswer {
        let (body, etag) = try await Problem.rejections(in: Schema.catalogue) {
            try await data.writes.run(user) { transaction in
                let storage = try await PrefetchedStorage.prefetching(
                    UserData.locations(schema, reading: publication, deviceClass: deviceClass), of: user,
                    from: transaction.storage, in: transaction.database, deviceClass: deviceClass)
                let store = UserData.store(schema, on: storage)
                // In the request's rule context: the write group may run in another task.
                return try await rules.evaluating {
                    try await store.apply(
                        read.edits, publication: publication, context: context,
                        to: try await read.storeLayer(in: store, publication: publication), ifMatch: ifMatch,
                        expecting: read.expectations)
                    for move in read.moves {
                        try await store.move(move.key, to: move.target, publication: publication)
                    }
                    return try await Self.answer(store, publication: publication, context: context)
                }
            }
        }
        return JSONAnswer(body, etag: etag)
    }

    /// A layer's name in the form answer's `storedIn`.
    static func name(of layer: StoreLayer) -> String { layer.code }

    /// The request's identity (set by ``BearerAuthentication`` on every `/v1` route).
    static func identity(_ context: ServerContext) throws -> RequestIdentity {
        guard let identity = context.identity else { throw Authentication.missingToken }
        return identity
    }

    static func publication(_ context: ServerContext) throws -> String {
        try Request.decoded(try context.parameters.require("publication"))
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

    /// The value an edit says its key holds (`"expect"`: the stored value it replaces, `null` for
    /// none), or `nil` when it says nothing (Specs/Server.md §5.4).
    static func expectation(_ value: JSONValue, at index: Int) throws -> ExpectedValue? {
        guard let object = value.objectValue, let expected = object["expect"] else { return nil }
        guard let key = object["key"]?.stringValue else {
            throw Problem(
                .badRequest, "invalidEdits",
                "edits[\(index)].expect needs a key: clearAll names no key to expect a value of")
        }
        if case .null = expected { return ExpectedValue(key: key, value: nil) }
        return ExpectedValue(key: key, value: expected)
    }

    /// The settings answer: `{"settings": [{"key", "value", "source", "from"?, "effective",
    /// "reasons", "provenance"}], "preferences": {...}}`, and its ETag.
    static func answer<Schema: ResolvableSchema>(
        _ store: PreferencesStore<Schema>, publication: String, context: PublicationContext
    ) async throws -> (JSONValue, String) {
        let state = try await store.state(for: publication, context: context, includingProvenance: true)
        var settings: [JSONValue] = []
        for setting in state.settings {
            var object: JSONObject = ["key": .string(setting.key), "value": setting.value ?? .null]
            for member in setting.source.jsonMembers { object[member.key] = member.value }
            object["effective"] = .bool(setting.isEffective)
            object["reasons"] = .array(setting.reasons.map { .string($0.code) })
            object["provenance"] = setting.provenance?.jsonValue ?? .null
            // Who chose the profile a value comes from: a rule (its position and conditions), or
            // the reader by hand (Specs/Server.md §5.3).
            if let choice = setting.profileChoice { object["chosenBy"] = choice.jsonValue }
            settings.append(.object(object))
        }
        let body: JSONObject = [
            "settings": .array(settings), "preferences": .object(state.preferences.jsonObject),
        ]
        return (.object(body), state.fingerprints.settingsETag)
    }
}
