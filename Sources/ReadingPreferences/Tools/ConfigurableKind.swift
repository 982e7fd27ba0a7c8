/// The configurables a tool can name (`"epub"`, `"pdf"`, `"audio"`, `"tts"`; SPEC 11), and the
/// one place that maps a name to its schema.
///
/// ```swift
/// guard let kind = ConfigurableKind(rawValue: name) else { ... }   // unknown name
/// let editor = try kind.makeEditor(preferences: stored, inputs: inputs)
/// ```
///
/// Only EPUB is implemented today; the others throw ``UnsupportedError``. Adding one is one
/// `case` in ``schema``, once its schema can be built from ``ConfigurableInputs``.
public enum ConfigurableKind: String, Sendable, Hashable, CaseIterable {
    /// The EPUB navigator (SPEC 5).
    case epub
    /// The PDF navigator (SPEC 6).
    case pdf
    /// The audio player (SPEC 6).
    case audio
    /// The text-to-speech engine (SPEC 6).
    case tts

    /// Thrown for a configurable this version does not implement yet.
    public struct UnsupportedError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The configurable.
        public var kind: ConfigurableKind

        /// Creates an error.
        ///
        /// - Parameter kind: The configurable that is not implemented.
        public init(kind: ConfigurableKind) { self.kind = kind }

        /// `unsupported configurable 'pdf'`.
        public var description: String { "unsupported configurable '\(kind.rawValue)'" }
    }

    /// The names of every configurable, for messages and usage text.
    public static var allNames: [String] { allCases.map(\.rawValue) }

    /// The configurables this version implements.
    public static var supported: [ConfigurableKind] { allCases.filter(\.isSupported) }

    // The one switch to extend when PDF, audio and TTS schemas arrive.
    var schema: (any ToolSchema.Type)? {
        switch self {
        case .epub: return EPUB.self
        case .pdf, .audio, .tts: return nil
        }
    }

    /// Whether this version implements the configurable.
    public var isSupported: Bool { schema != nil }

    /// The configurable's catalogue of settings.
    ///
    /// - Throws: ``UnsupportedError`` for a configurable this version does not implement.
    public func catalogue() throws(UnsupportedError) -> SettingCatalogue {
        guard let schema else { throw UnsupportedError(kind: self) }
        return schema.catalogue
    }

    /// An editor of `preferences` for this configurable, resolving with `inputs`.
    ///
    /// ```swift
    /// var editor = try ConfigurableKind.epub.makeEditor(preferences: ["fontSize": 1.2])
    /// try editor.apply(.increment(key: "fontSize"))
    /// ```
    ///
    /// - Parameters:
    ///   - preferences: The preferences to edit.
    ///   - inputs: The publication, app defaults and environment.
    /// - Throws: ``UnsupportedError`` for a configurable this version does not implement.
    public func makeEditor(
        preferences: Preferences, inputs: ConfigurableInputs = ConfigurableInputs()
    ) throws(UnsupportedError) -> any PreferencesEditing {
        guard let schema else { throw UnsupportedError(kind: self) }
        return Self.makeEditor(schema, preferences: preferences, inputs: inputs)
    }

    private static func makeEditor<Schema: ToolSchema>(
        _ schema: Schema.Type, preferences: Preferences, inputs: ConfigurableInputs
    ) -> any PreferencesEditing {
        let defaults = SettingValues<Schema>(inputs.defaults, asDefaults: true)
        return PreferencesEditor<Schema>(
            preferences: preferences, resolver: Schema.resolver(inputs: inputs, defaults: defaults))
    }
}

/// A schema whose resolver tools can build from JSON inputs.
protocol ToolSchema: SettingsSchema {
    /// The resolver for a publication, decoded defaults and an environment.
    static func resolver(inputs: ConfigurableInputs, defaults: SettingValues<Self>) -> Resolver
}

extension EPUB: ToolSchema {
    static func resolver(inputs: ConfigurableInputs, defaults: SettingValues<EPUB>) -> Resolver {
        Resolver(
            publication: Publication(inputs.publication), defaults: defaults, environment: inputs.environment)
    }
}
