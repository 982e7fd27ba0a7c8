// The typed edits (Specs/Settings.md §5). Each validates first and leaves everything unchanged on error.
extension PreferencesEditor {
    func slot<Value>(of setting: Setting<Schema, Value>) throws(PreferenceError) -> Int {
        guard let slot = Schema.catalogue.storage.slot(of: setting.descriptor) else {
            throw PreferenceError(.unknownKey, key: setting.key)
        }
        return slot
    }

    /// Sets a setting's preference; `nil` removes it.
    ///
    /// The value is validated: a rejected value throws and leaves the preferences untouched, a
    /// coerced value is stored coerced. With `activate` (the default), when the setting is not
    /// effective, its automatic requirements are written too (Specs/Settings.md §4), such as
    /// `publisherStyles = false` for word spacing.
    ///
    /// ```swift
    /// try editor.set(.wordSpacing, 0.5)                    // also writes publisherStyles: false
    /// try editor.set(.wordSpacing, 0.5, activate: false)   // writes only wordSpacing
    /// ```
    ///
    /// - Parameters:
    ///   - setting: The setting to write.
    ///   - value: The new value, or `nil` to remove the preference.
    ///   - activate: Whether to also write the setting's automatic requirements when it would
    ///     not take effect (Specs/Settings.md §4).
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the schema's catalogue does not hold `setting`.
    ///   - ``PreferenceError/Code/typeMismatch``: the value has a type the setting's coder never
    ///     writes (possible through an untyped `Setting<Schema, SettingValue>`).
    ///   - ``PreferenceError/Code/unsupportedValue``: the coder or the allowlist rejects the
    ///     value (an enum case the setting does not support, a malformed language tag, an empty
    ///     font family name).
    ///   - ``PreferenceError/Code/notANumber``: NaN or an infinity for a number setting.
    public mutating func set<Value>(_ setting: Setting<Schema, Value>, _ value: Value?, activate: Bool = true)
        throws(PreferenceError)
    {
        try set(slot: slot(of: setting), value: value?.settingValue, activate: activate)
    }

    /// Sets a setting to `transform(stored value ?? effective value)` (Specs/Settings.md §5 `update`).
    ///
    /// ```swift
    /// try editor.update(.pageMargins) { $0 * 2 }
    /// ```
    ///
    /// - Parameters:
    ///   - setting: The setting to write.
    ///   - activate: Whether to also write the setting's automatic requirements when it would
    ///     not take effect (Specs/Settings.md §4).
    ///   - transform: Computes the new value from the current one.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the schema's catalogue does not hold `setting`.
    ///   - ``PreferenceError/Code/wrongKind``: the setting has neither a stored nor an effective
    ///     value to transform.
    ///   - ``PreferenceError/Code/typeMismatch``: the new value has a type the setting's coder
    ///     never writes (possible through an untyped `Setting<Schema, SettingValue>`).
    ///   - ``PreferenceError/Code/unsupportedValue``: the coder or the allowlist rejects the new
    ///     value.
    ///   - ``PreferenceError/Code/notANumber``: the new value is NaN or an infinity.
    public mutating func update<Value>(
        _ setting: Setting<Schema, Value>, activate: Bool = true, _ transform: (Value) -> Value
    ) throws(PreferenceError) {
        let slot = try slot(of: setting)
        guard
            let current = (storedValue(slot: slot) ?? effectiveValue(slot: slot)).flatMap(
                Value.init(settingValue:))
        else { throw PreferenceError(.wrongKind, key: setting.key) }
        try set(slot: slot, value: transform(current).settingValue, activate: activate)
    }

    /// Removes a setting's preference (and its `renamedFrom` aliases). A setting the schema's
    /// catalogue does not hold changes nothing.
    ///
    /// - Parameter setting: The setting whose preference to remove.
    public mutating func clear<Value>(_ setting: Setting<Schema, Value>) {
        guard let slot = Schema.catalogue.storage.slot(of: setting.descriptor) else { return }
        clear(slot: slot)
    }

    /// Removes every key this configurable declares, with their aliases. Unknown keys and
    /// reserved `$` keys stay, so keys of a newer app version survive a reset (Specs/Settings.md §5).
    public mutating func clear() {
        for slot in Schema.catalogue.descriptors.indices { unstore(slot: slot) }
        reresolve()
    }

    /// Sets a toggle to the opposite of its stored (or effective) value, activating as `set`
    /// does.
    ///
    /// - Parameter setting: The toggle setting.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the schema's catalogue does not hold `setting`.
    ///   - ``PreferenceError/Code/wrongKind``: the setting's descriptor is not a toggle.
    public mutating func toggle(_ setting: Setting<Schema, Bool>) throws(PreferenceError) {
        try toggle(slot: slot(of: setting))
    }

    /// Removes the preference when it is stored as `value`; otherwise sets it to `value`
    /// (validated, activating). Applies to enum and color settings.
    ///
    /// ```swift
    /// try editor.toggle(.imageFilter, value: .darken)   // set
    /// try editor.toggle(.imageFilter, value: .darken)   // removed again
    /// ```
    ///
    /// - Parameters:
    ///   - setting: The enum or color setting.
    ///   - value: The value to toggle.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the schema's catalogue does not hold `setting`.
    ///   - ``PreferenceError/Code/wrongKind``: the setting is neither an enum nor a color.
    ///   - ``PreferenceError/Code/typeMismatch``: the value has a type the setting's coder never
    ///     writes (possible through an untyped `Setting<Schema, SettingValue>`).
    ///   - ``PreferenceError/Code/unsupportedValue``: the setting does not support the value.
    public mutating func toggle<Value>(_ setting: Setting<Schema, Value>, value: Value)
        throws(PreferenceError)
    {
        let slot = try slot(of: setting)
        try toggle(slot: slot, validated: descriptor(slot).acceptAndValidate(value.settingValue))
    }

    /// Moves a range setting to its next step or by its increment (Specs/Settings.md §6). The result is
    /// always written, so an unset preference becomes explicit.
    ///
    /// ```swift
    /// try editor.increment(.fontSize)   // 1.0 → 1.1
    /// ```
    ///
    /// - Parameter setting: The range or percent setting.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the schema's catalogue does not hold `setting`.
    ///   - ``PreferenceError/Code/wrongKind``: the setting is neither a range nor a percent.
    public mutating func increment<Value: SettingNumber>(_ setting: Setting<Schema, Value>)
        throws(PreferenceError)
    {
        try step(slot: slot(of: setting), up: true)
    }

    /// Moves a range setting to its previous step or back by its increment (Specs/Settings.md §6). The
    /// result is always written, so an unset preference becomes explicit.
    ///
    /// - Parameter setting: The range or percent setting.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the schema's catalogue does not hold `setting`.
    ///   - ``PreferenceError/Code/wrongKind``: the setting is neither a range nor a percent.
    public mutating func decrement<Value: SettingNumber>(_ setting: Setting<Schema, Value>)
        throws(PreferenceError)
    {
        try step(slot: slot(of: setting), up: false)
    }

    /// Adds `amount` to a range setting, ignoring steps, rounded like an increment and coerced
    /// into the range (Specs/Settings.md §5 `adjustBy`).
    ///
    /// ```swift
    /// try editor.adjust(.fontSize, by: -0.25)
    /// ```
    ///
    /// - Parameters:
    ///   - setting: The range or percent setting.
    ///   - amount: The amount to add; negative to subtract.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the schema's catalogue does not hold `setting`.
    ///   - ``PreferenceError/Code/wrongKind``: the setting is neither a range nor a percent.
    ///   - ``PreferenceError/Code/notANumber``: `amount` (or the sum) is NaN or an infinity.
    ///   - ``PreferenceError/Code/unsupportedValue``: the sum is not a whole number for an
    ///     integer setting.
    public mutating func adjust<Value: SettingNumber>(_ setting: Setting<Schema, Value>, by amount: Double)
        throws(PreferenceError)
    {
        try adjust(slot: slot(of: setting), by: amount)
    }

    /// Makes a setting effective by writing every requirement it can (automatic and manual),
    /// or throws ``PreferenceError/Code/notActivatable`` and changes nothing (Specs/Settings.md §4).
    /// Activating an effective setting succeeds and changes nothing.
    ///
    /// ```swift
    /// try editor.activate(.columnCount)   // with scroll on: writes scroll: false (manual)
    /// ```
    ///
    /// - Parameter setting: The setting to make effective.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the schema's catalogue does not hold `setting`.
    ///   - ``PreferenceError/Code/notActivatable``: no preference write can make the setting
    ///     effective (a condition such as the layout or the stylesheet variant is not met).
    public mutating func activate<Value>(_ setting: Setting<Schema, Value>) throws(PreferenceError) {
        try activate(slot: slot(of: setting))
    }
}
