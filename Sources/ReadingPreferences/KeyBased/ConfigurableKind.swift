/// The configurables a tool can name (`"epub"`, `"pdf"`, `"audio"`, `"tts"`; Specs/README.md §3), and the
/// one place that maps a name to its schema.
///
/// ```swift
/// guard let kind = ConfigurableKind(rawValue: name) else { ... }   // unknown name
/// var editor = kind.makeEditor(preferences: stored, inputs: inputs)
/// try editor.apply(.increment(key: "pageSpacing"))
/// ```
///
/// Each configurable reads what it needs from ``ConfigurableInputs`` and ignores the rest: EPUB
/// the whole publication and the environment, PDF the reading progression, TTS the first
/// language, audio nothing but the defaults.
public enum ConfigurableKind: String, Sendable, Hashable, CaseIterable {
    /// The EPUB navigator (Specs/Resolution.md §2 to §7).
    case epub
    /// The PDF navigator (Specs/Resolution.md §8).
    case pdf
    /// The audio player (Specs/Resolution.md §8).
    case audio
    /// The text-to-speech engine (Specs/Resolution.md §8).
    case tts

    /// The names of every configurable, for messages and usage text.
    public static var allNames: [String] { allCases.map(\.rawValue) }

    /// The configurable's schema, to open a generic API (such as the store) at run time. The one
    /// switch to extend when a configurable is added.
    public var schema: any ResolvableSchema.Type {
        switch self {
        case .epub: return EPUB.self
        case .pdf: return PDF.self
        case .audio: return Audio.self
        case .tts: return TTS.self
        }
    }

    /// The configurable's catalogue of settings.
    public var catalogue: SettingCatalogue { schema.catalogue }

    /// An editor of `preferences` for this configurable, resolving with `inputs`.
    ///
    /// ```swift
    /// var editor = ConfigurableKind.epub.makeEditor(preferences: ["fontSize": 1.2])
    /// try editor.apply(.increment(key: "fontSize"))
    /// ```
    ///
    /// - Parameters:
    ///   - preferences: The preferences to edit.
    ///   - inputs: The publication, app defaults and environment; members that do not apply to
    ///     the configurable are ignored.
    /// - Returns: A key-based editor of the configurable.
    public func makeEditor(
        preferences: Preferences, inputs: ConfigurableInputs = ConfigurableInputs()
    ) -> AnyPreferencesEditor {
        Self.makeEditor(schema, preferences: preferences, inputs: inputs)
    }

    private static func makeEditor<Schema: ResolvableSchema>(
        _ schema: Schema.Type, preferences: Preferences, inputs: ConfigurableInputs
    ) -> AnyPreferencesEditor {
        let defaults = SettingValueTable<Schema>(inputs.defaults, asDefaults: true)
        return AnyPreferencesEditor(
            PreferencesEditor<Schema>(
                preferences: preferences,
                resolver: Schema.resolver(
                    publication: inputs.publication, defaults: defaults, environment: inputs.environment)))
    }
}

extension ConfigurableKind {
    /// Preferences of this configurable written in a Readium dialect
    /// (``Preferences/exported(dialect:for:)``), chosen at run time.
    ///
    /// - Parameters:
    ///   - preferences: Our preferences.
    ///   - dialect: The toolkit.
    /// - Returns: The object in the dialect, what was dropped and what was changed.
    public func exported(_ preferences: Preferences, dialect: ReadiumDialect) -> DialectExport {
        preferences.exported(dialect: dialect, for: schema)
    }

    /// A Readium toolkit's object read into this configurable's preferences
    /// (``Preferences/imported(_:dialect:for:)``), chosen at run time.
    ///
    /// - Parameters:
    ///   - object: The toolkit's object.
    ///   - dialect: The toolkit.
    /// - Returns: The preferences and what was not translated.
    public func imported(_ object: JSONObject, dialect: ReadiumDialect) -> DialectImport {
        Preferences.imported(object, dialect: dialect, for: schema)
    }
}
