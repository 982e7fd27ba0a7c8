// Specs/Settings.md §5: the operations that need a resolution context, as `Preferences` methods taking the
// configurable's resolver. Each runs through a ``PreferencesEditor``, so it validates and
// activates exactly as the editor does, and leaves `self` unchanged when it throws.
extension Preferences {
    /// Runs edits on an editor over these preferences and keeps the result only if every edit
    /// succeeds.
    ///
    /// ```swift
    /// try preferences.edit(resolver: EPUB.Resolver(publication: context)) { editor in
    ///     try editor.increment(.fontSize)
    ///     try editor.set(.theme, .dark)
    /// }
    /// ```
    public mutating func edit<Schema: SettingsSchema>(
        resolver: Schema.Resolver, _ body: (inout PreferencesEditor<Schema>) throws(PreferenceError) -> Void
    ) throws(PreferenceError) {
        var editor = PreferencesEditor<Schema>(preferences: self, resolver: resolver)
        try body(&editor)
        self = editor.preferences
    }

    /// Sets a setting (validated, activating unless `activate` is false); `nil` removes it.
    public mutating func set<Schema, Value>(
        _ setting: Setting<Schema, Value>, _ value: Value?, activate: Bool = true, resolver: Schema.Resolver
    ) throws(PreferenceError) {
        try edit(resolver: resolver) { (editor: inout PreferencesEditor<Schema>) throws(PreferenceError) in
            try editor.set(setting, value, activate: activate)
        }
    }

    /// Toggles a Boolean setting.
    public mutating func toggle<Schema>(_ setting: Setting<Schema, Bool>, resolver: Schema.Resolver)
        throws(PreferenceError)
    {
        try edit(resolver: resolver) { (editor: inout PreferencesEditor<Schema>) throws(PreferenceError) in
            try editor.toggle(setting)
        }
    }

    /// Removes an enum or color setting stored as `value`, or sets it to `value`.
    public mutating func toggle<Schema, Value>(
        _ setting: Setting<Schema, Value>, value: Value, resolver: Schema.Resolver
    ) throws(PreferenceError) {
        try edit(resolver: resolver) { (editor: inout PreferencesEditor<Schema>) throws(PreferenceError) in
            try editor.toggle(setting, value: value)
        }
    }

    /// Increments a range setting (Specs/Settings.md §6).
    public mutating func increment<Schema, Value: SettingNumber>(
        _ setting: Setting<Schema, Value>, resolver: Schema.Resolver
    ) throws(PreferenceError) {
        try edit(resolver: resolver) { (editor: inout PreferencesEditor<Schema>) throws(PreferenceError) in
            try editor.increment(setting)
        }
    }

    /// Decrements a range setting (Specs/Settings.md §6).
    public mutating func decrement<Schema, Value: SettingNumber>(
        _ setting: Setting<Schema, Value>, resolver: Schema.Resolver
    ) throws(PreferenceError) {
        try edit(resolver: resolver) { (editor: inout PreferencesEditor<Schema>) throws(PreferenceError) in
            try editor.decrement(setting)
        }
    }

    /// Adds `amount` to a range setting, ignoring steps (Specs/Settings.md §5 `adjustBy`).
    public mutating func adjust<Schema, Value: SettingNumber>(
        _ setting: Setting<Schema, Value>, by amount: Double, resolver: Schema.Resolver
    ) throws(PreferenceError) {
        try edit(resolver: resolver) { (editor: inout PreferencesEditor<Schema>) throws(PreferenceError) in
            try editor.adjust(setting, by: amount)
        }
    }

    /// Makes a setting effective, or throws `notActivatable` (Specs/Settings.md §4).
    public mutating func activate<Schema, Value>(_ setting: Setting<Schema, Value>, resolver: Schema.Resolver)
        throws(PreferenceError)
    {
        try edit(resolver: resolver) { (editor: inout PreferencesEditor<Schema>) throws(PreferenceError) in
            try editor.activate(setting)
        }
    }

    /// Whether a setting is effective for these preferences (Specs/Settings.md §4 `isActive`).
    public func isActive<Schema, Value>(_ setting: Setting<Schema, Value>, resolver: Schema.Resolver) -> Bool
    {
        PreferencesEditor<Schema>(preferences: self, resolver: resolver)[setting].isEffective
    }
}
