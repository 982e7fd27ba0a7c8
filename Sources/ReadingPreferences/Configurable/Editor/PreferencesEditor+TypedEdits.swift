// The typed edits (SPEC 3.4). Each validates first and leaves everything unchanged on error.
extension PreferencesEditor {
    func slot<Value>(of setting: Setting<Schema, Value>) throws(PreferenceError) -> Int {
        guard let slot = Schema.catalogue.slot(forKey: setting.key) else {
            throw PreferenceError(.unknownKey, key: setting.key)
        }
        return slot
    }

    /// Sets a setting's preference; `nil` removes it.
    ///
    /// The value is validated: a rejected value throws and leaves the preferences untouched, a
    /// coerced value is stored coerced. With `activate` (the default), when the setting is not
    /// effective, its automatic requirements are written too (SPEC 3.3), such as
    /// `publisherStyles = false` for word spacing.
    ///
    /// ```swift
    /// try editor.set(.wordSpacing, 0.5)                    // also writes publisherStyles: false
    /// try editor.set(.wordSpacing, 0.5, activate: false)   // writes only wordSpacing
    /// ```
    public mutating func set<Value>(_ setting: Setting<Schema, Value>, _ value: Value?, activate: Bool = true)
        throws(PreferenceError)
    {
        try set(slot: slot(of: setting), value: value?.settingValue, activate: activate)
    }

    /// Sets a setting to `transform(stored value ?? effective value)` (SPEC 3.4 `update`).
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

    /// Removes a setting's preference (and its `renamedFrom` aliases).
    public mutating func clear<Value>(_ setting: Setting<Schema, Value>) {
        guard let slot = Schema.catalogue.slot(forKey: setting.key) else { return }
        clear(slot: slot)
    }

    /// Removes every key this configurable declares, with their aliases. Unknown keys and
    /// reserved `$` keys stay, so keys of a newer app version survive a reset (SPEC 3.4).
    public mutating func clear() {
        for slot in Schema.catalogue.descriptors.indices { unstore(slot: slot) }
        reresolve()
    }

    /// Sets a toggle to the opposite of its stored (or effective) value.
    public mutating func toggle(_ setting: Setting<Schema, Bool>) throws(PreferenceError) {
        try toggle(slot: slot(of: setting))
    }

    /// Removes the preference when it is stored as `value`; otherwise sets it to `value`
    /// (validated, activating). Applies to enum and color settings.
    public mutating func toggle<Value>(_ setting: Setting<Schema, Value>, value: Value)
        throws(PreferenceError)
    {
        let slot = try slot(of: setting)
        try toggle(slot: slot, validated: descriptor(slot).acceptAndValidate(value.settingValue))
    }

    /// Moves a range setting to its next step or by its increment (SPEC 3.5). The result is
    /// always written, so an unset preference becomes explicit.
    ///
    /// ```swift
    /// try editor.increment(.fontSize)   // 1.0 → 1.1
    /// ```
    public mutating func increment<Value: SettingNumber>(_ setting: Setting<Schema, Value>)
        throws(PreferenceError)
    {
        try step(slot: slot(of: setting), up: true)
    }

    /// Moves a range setting to its previous step or back by its increment (SPEC 3.5).
    public mutating func decrement<Value: SettingNumber>(_ setting: Setting<Schema, Value>)
        throws(PreferenceError)
    {
        try step(slot: slot(of: setting), up: false)
    }

    /// Adds `amount` to a range setting, ignoring steps, rounded like an increment and coerced
    /// into the range (SPEC 3.4 `adjustBy`).
    public mutating func adjust<Value: SettingNumber>(_ setting: Setting<Schema, Value>, by amount: Double)
        throws(PreferenceError)
    {
        try adjust(slot: slot(of: setting), by: amount)
    }

    /// Makes a setting effective by writing every requirement it can (automatic and manual),
    /// or throws ``PreferenceError/Code/notActivatable`` and changes nothing (SPEC 3.3).
    /// Activating an effective setting succeeds and changes nothing.
    public mutating func activate<Value>(_ setting: Setting<Schema, Value>) throws(PreferenceError) {
        try activate(slot: slot(of: setting))
    }
}
