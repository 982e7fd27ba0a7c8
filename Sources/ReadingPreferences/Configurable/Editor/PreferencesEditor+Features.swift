// Features read and edit like their toggle, so app code never reaches for `.setting`:
// `editor[Labs.sidebar].isEffective`, `try editor.toggle(Labs.sidebar)`, `settings[Labs.sidebar]`.
extension PreferencesEditor {
    /// A read-only view of a feature's toggle.
    ///
    /// - Parameter feature: The feature.
    public subscript(feature: Feature<Schema>) -> PreferenceHandle<Schema, Bool> {
        self[feature.setting]
    }

    /// Turns a feature on or off; `nil` removes the preference (the feature's default applies).
    ///
    /// ```swift
    /// try editor.set(Labs.sidebar, true)
    /// ```
    ///
    /// - Parameters:
    ///   - feature: The feature.
    ///   - isOn: Whether the feature is on, or `nil` to remove the preference.
    /// - Throws: ``PreferenceError`` with ``PreferenceError/Code/unknownKey`` when the schema's
    ///   catalogue does not hold the feature's toggle; the preferences are left unchanged.
    public mutating func set(_ feature: Feature<Schema>, _ isOn: Bool?) throws(PreferenceError) {
        try set(feature.setting, isOn)
    }

    /// Turns a feature off when it is on, and on when it is off.
    ///
    /// - Parameter feature: The feature.
    /// - Throws: ``PreferenceError`` with ``PreferenceError/Code/unknownKey`` when the schema's
    ///   catalogue does not hold the feature's toggle; the preferences are left unchanged.
    public mutating func toggle(_ feature: Feature<Schema>) throws(PreferenceError) {
        try toggle(feature.setting)
    }
}

extension ResolvedSettings {
    /// Whether a feature is on; `nil` when the schema's catalogue does not hold it.
    ///
    /// - Parameter feature: The feature.
    public subscript(feature: Feature<Schema>) -> Bool? {
        self[feature.setting]
    }
}
