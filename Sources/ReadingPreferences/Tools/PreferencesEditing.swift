import Foundation

/// An editor driven by keys and JSON values, whatever its configurable: what tools, servers and
/// the conformance runner use when the configurable is chosen at run time (SPEC 4, 11).
///
/// ``PreferencesEditor`` conforms for every schema. Get one for a configurable's name from
/// ``ConfigurableKind/makeEditor(preferences:inputs:)``:
///
/// ```swift
/// var editor = ConfigurableKind.epub.makeEditor(preferences: stored, inputs: ConfigurableInputs())
/// try editor.apply(.increment(key: "fontSize"))
/// editor.snapshot(forKey: "fontSize")?.formattedValue    // "110%"
/// editor.resolvedSettings(as: EPUB.self)?.readiumCSS().inlineStyle
/// print(editor.form(locale: nil).table())
/// ```
public protocol PreferencesEditing: Sendable {
    /// The configurable's settings, in slot order.
    var catalogue: SettingCatalogue { get }

    /// The edited preferences, in stored order, ready to store and submit.
    var preferences: Preferences { get }

    /// The diagnostics of the edited preferences (SPEC 3.7).
    var diagnostics: [PreferenceDiagnostic] { get }

    /// The resolved settings as JSON, in catalogue order, with `null` for a setting that
    /// resolved to none (SPEC 11).
    var resolvedSettingsJSON: JSONObject { get }

    /// Every setting as a snapshot, in catalogue order.
    var snapshots: [SettingSnapshot] { get }

    /// The snapshot of one setting, or `nil` when the configurable declares no such key.
    ///
    /// - Parameter key: The setting's key.
    func snapshot(forKey key: String) -> SettingSnapshot?

    /// The resolved settings typed for a schema, or `nil` when the editor edits another schema.
    ///
    /// ```swift
    /// if let settings = editor.resolvedSettings(as: EPUB.self) { print(settings.pageLayout) }
    /// ```
    ///
    /// - Parameter schema: The schema to read the settings as.
    func resolvedSettings<Other: SettingsSchema>(as schema: Other.Type) -> ResolvedSettings<Other>?

    /// The settings form of the editor's current state (SPEC 7): what a settings screen, an
    /// HTML page or the CLI's table shows.
    ///
    /// - Parameter locale: The locale of formatted values; `nil` for the fixed format (SPEC 3.6).
    func form(locale: Locale?) -> SettingsForm

    /// Applies one edit; a failing edit throws and changes nothing (SPEC 3.4).
    ///
    /// - Parameter edit: The edit.
    /// - Throws: ``PreferenceError``.
    mutating func apply(_ edit: PreferenceEdit) throws(PreferenceError)
}

extension PreferencesEditor: PreferencesEditing {
    /// The resolved settings as JSON (``ResolvedSettings/jsonObject``).
    public var resolvedSettingsJSON: JSONObject { settings.jsonObject }

    /// Every setting as a snapshot, in catalogue order.
    public var snapshots: [SettingSnapshot] { handles.map(\.snapshot) }

    /// The snapshot of one setting, or `nil` when the schema declares no such key.
    ///
    /// - Parameter key: The setting's key.
    public func snapshot(forKey key: String) -> SettingSnapshot? {
        handle(forKey: key)?.snapshot
    }

    /// The resolved settings typed for a schema, or `nil` when `Other` is not this editor's schema.
    ///
    /// - Parameter schema: The schema to read the settings as.
    public func resolvedSettings<Other: SettingsSchema>(as schema: Other.Type) -> ResolvedSettings<Other>? {
        settings as? ResolvedSettings<Other>
    }
}
