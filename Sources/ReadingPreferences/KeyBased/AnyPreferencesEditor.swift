import Foundation

/// An editor of any configurable, driven by keys and JSON values: what servers, tools and the
/// conformance runner use when the configurable is chosen at run time (Specs/Resolution.md §1, Specs/README.md §3).
///
/// It wraps a typed ``PreferencesEditor`` and offers the key-based part of its API. Get one for a
/// configurable's name from ``ConfigurableKind/makeEditor(preferences:inputs:)``, or wrap an
/// editor you have:
///
/// ```swift
/// var editor = ConfigurableKind.epub.makeEditor(preferences: stored, inputs: ConfigurableInputs())
/// try editor.apply(.increment(key: "fontSize"))
/// editor.snapshot(forKey: "fontSize")?.formattedValue    // "110%"
/// editor.resolvedSettings(as: EPUB.self)?.readiumCSS().inlineStyle
/// print(editor.form(locale: nil).table())
/// ```
public struct AnyPreferencesEditor: Sendable {
    private var base: any KeyedEditing

    /// Wraps a typed editor.
    ///
    /// - Parameter editor: The editor.
    public init<Schema: SettingsSchema>(_ editor: PreferencesEditor<Schema>) {
        base = editor
    }

    /// The configurable's settings, in slot order.
    public var catalogue: SettingCatalogue { base.catalogue }

    /// The identifier of the configurable's schema, such as `epub`.
    public var schemaIdentifier: String { base.schemaIdentifier }

    /// The edited preferences, in stored order, ready to store and submit.
    public var preferences: Preferences { base.preferences }

    /// The diagnostics of the edited preferences (Specs/Settings.md §8).
    public var diagnostics: [PreferenceDiagnostic] { base.diagnostics }

    /// The resolved settings as JSON, in catalogue order, with `null` for a setting that
    /// resolved to none (Specs/README.md §3).
    public var resolvedSettingsJSON: JSONObject { base.resolvedSettingsJSON }

    /// Every setting as a snapshot, in catalogue order.
    public var snapshots: [SettingSnapshot] { base.snapshots }

    /// The snapshot of one setting, or `nil` when the configurable declares no such key.
    ///
    /// - Parameter key: The setting's key.
    /// - Returns: The snapshot, or `nil`.
    public func snapshot(forKey key: String) -> SettingSnapshot? { base.snapshot(forKey: key) }

    /// The typed editor, or `nil` when this editor edits another schema.
    ///
    /// ```swift
    /// if let epub = editor.editor(as: EPUB.self) { print(epub[.fontSize].formattedValue()) }
    /// ```
    ///
    /// - Parameter schema: The schema to read the editor as.
    /// - Returns: The typed editor, or `nil`.
    public func editor<Schema: SettingsSchema>(as schema: Schema.Type) -> PreferencesEditor<Schema>? {
        base as? PreferencesEditor<Schema>
    }

    /// The resolved settings typed for a schema, or `nil` when the editor edits another schema.
    ///
    /// ```swift
    /// if let settings = editor.resolvedSettings(as: EPUB.self) { print(settings.pageLayout) }
    /// ```
    ///
    /// - Parameter schema: The schema to read the settings as.
    /// - Returns: The settings, or `nil`.
    public func resolvedSettings<Schema: SettingsSchema>(as schema: Schema.Type) -> ResolvedSettings<Schema>?
    {
        editor(as: schema)?.settings
    }

    /// The settings form of the editor's current state (Specs/Resolution.md §9.4): what a settings screen, an
    /// HTML page or the CLI's table shows.
    ///
    /// - Parameter locale: The locale of formatted values; `nil` for the fixed format (Specs/Settings.md §7).
    /// - Returns: The form.
    public func form(locale: Locale? = nil) -> SettingsForm { base.form(locale: locale) }

    /// Applies one edit; a failing edit throws and changes nothing (Specs/Settings.md §5).
    ///
    /// - Parameter edit: The edit.
    /// - Throws: ``PreferenceError`` with the code of Specs/Settings.md §8: `unknownKey` for a key the
    ///   configurable does not declare, `wrongKind` for an operation the setting does not offer,
    ///   `typeMismatch`, `unsupportedValue` or `notANumber` for a rejected value, and
    ///   `notActivatable` for an `activate` that cannot succeed.
    public mutating func apply(_ edit: PreferenceEdit) throws(PreferenceError) {
        try base.apply(edit)
    }

    /// Applies one edit; a `set` or `clear` of a key the configurable does not declare stores it
    /// as it is (a newer app's key) when `allowingUnknownKeys` is `true`.
    ///
    /// - Parameters:
    ///   - edit: The edit.
    ///   - allowingUnknownKeys: Whether a `set` or `clear` of an undeclared key stores it as is.
    /// - Throws: ``PreferenceError`` as ``apply(_:)``; nothing changes then.
    public mutating func apply(_ edit: PreferenceEdit, allowingUnknownKeys: Bool) throws(PreferenceError) {
        try base.apply(edit, allowingUnknownKeys: allowingUnknownKeys)
    }
}

/// The key-based API every typed editor offers, behind ``AnyPreferencesEditor``.
protocol KeyedEditing: Sendable {
    var catalogue: SettingCatalogue { get }
    var schemaIdentifier: String { get }
    var preferences: Preferences { get }
    var diagnostics: [PreferenceDiagnostic] { get }
    var resolvedSettingsJSON: JSONObject { get }
    var snapshots: [SettingSnapshot] { get }
    func snapshot(forKey key: String) -> SettingSnapshot?
    func form(locale: Locale?) -> SettingsForm
    mutating func apply(_ edit: PreferenceEdit) throws(PreferenceError)
    mutating func apply(_ edit: PreferenceEdit, allowingUnknownKeys: Bool) throws(PreferenceError)
}

extension PreferencesEditor: KeyedEditing {
    var schemaIdentifier: String { Schema.identifier }
    var resolvedSettingsJSON: JSONObject { settings.jsonObject }
    var snapshots: [SettingSnapshot] { handles.map(\.snapshot) }
    func snapshot(forKey key: String) -> SettingSnapshot? { handle(forKey: key)?.snapshot }
}
