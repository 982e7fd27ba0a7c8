// The same edits by key and JSON value, for tools, servers and the conformance runner.
extension PreferencesEditor {
    private func slot(forKey key: String) throws(PreferenceError) -> Int {
        guard let slot = Schema.catalogue.slot(forKey: key) else {
            throw PreferenceError(.unknownKey, key: key)
        }
        return slot
    }

    /// Sets a key from a JSON value, decoding it with the key's coder; `nil` or `null` removes it.
    ///
    /// The value is validated and activates as in ``set(_:_:activate:)``.
    ///
    /// ```swift
    /// try editor.set(key: "fontSize", json: 1.4)
    /// try editor.set(key: "textColor", json: 0xFF0000)   // stored as "#FF0000"
    /// ```
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - json: The new value as JSON, or `nil` or `null` to remove the preference.
    ///   - activate: Whether to also write the setting's automatic requirements when it would
    ///     not take effect (Specs/Settings.md §4).
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the configurable declares no such key (an old
    ///     `renamedFrom` key counts as unknown).
    ///   - ``PreferenceError/Code/typeMismatch``: the JSON type is one the key's coder never
    ///     accepts (`"true"` for a toggle).
    ///   - ``PreferenceError/Code/unsupportedValue``: the right JSON type, but not an accepted
    ///     value (an unknown enum string, a color that does not parse, a malformed language tag,
    ///     a fraction for an integer setting).
    ///   - ``PreferenceError/Code/notANumber``: a number too large for binary64 (`1e400`) for a
    ///     number setting.
    public mutating func set(key: String, json: JSONValue?, activate: Bool = true) throws(PreferenceError) {
        try set(slot: slot(forKey: key), json: json, activate: activate)
    }

    /// Removes a declared key and its `renamedFrom` aliases.
    ///
    /// - Parameter key: The setting's key.
    /// - Throws: ``PreferenceError`` with ``PreferenceError/Code/unknownKey`` when the
    ///   configurable declares no such key; the preferences are left unchanged.
    public mutating func clear(key: String) throws(PreferenceError) {
        clear(slot: try slot(forKey: key))
    }

    /// Toggles a toggle setting by key, as ``toggle(_:)-(Setting<Schema,Bool>)`` does.
    ///
    /// - Parameter key: The toggle setting's key.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the configurable declares no such key.
    ///   - ``PreferenceError/Code/wrongKind``: the setting is not a toggle.
    public mutating func toggle(key: String) throws(PreferenceError) {
        try toggle(slot: slot(forKey: key))
    }

    /// Toggles an enum or color setting by key to a JSON value: removes the preference when it
    /// is stored as that value, otherwise sets it.
    ///
    /// - Parameters:
    ///   - key: The enum or color setting's key.
    ///   - json: The value to toggle, as JSON.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the configurable declares no such key.
    ///   - ``PreferenceError/Code/wrongKind``: the setting is neither an enum nor a color.
    ///   - ``PreferenceError/Code/typeMismatch``: the JSON type is one the key's coder never
    ///     accepts.
    ///   - ``PreferenceError/Code/unsupportedValue``: the setting does not support the value.
    public mutating func toggle(key: String, json: JSONValue) throws(PreferenceError) {
        let slot = try slot(forKey: key)
        try toggle(slot: slot, validated: descriptor(slot).decodeAndValidate(json).map(\.valid))
    }

    /// Increments a range setting by key (Specs/Settings.md §6).
    ///
    /// - Parameter key: The range or percent setting's key.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the configurable declares no such key.
    ///   - ``PreferenceError/Code/wrongKind``: the setting is neither a range nor a percent.
    public mutating func increment(key: String) throws(PreferenceError) {
        try step(slot: slot(forKey: key), up: true)
    }

    /// Decrements a range setting by key (Specs/Settings.md §6).
    ///
    /// - Parameter key: The range or percent setting's key.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the configurable declares no such key.
    ///   - ``PreferenceError/Code/wrongKind``: the setting is neither a range nor a percent.
    public mutating func decrement(key: String) throws(PreferenceError) {
        try step(slot: slot(forKey: key), up: false)
    }

    /// Adds `amount` to a range setting by key, ignoring steps (Specs/Settings.md §5 `adjustBy`).
    ///
    /// - Parameters:
    ///   - key: The range or percent setting's key.
    ///   - amount: The amount to add; negative to subtract.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the configurable declares no such key.
    ///   - ``PreferenceError/Code/wrongKind``: the setting is neither a range nor a percent.
    ///   - ``PreferenceError/Code/notANumber``: `amount` (or the sum) is NaN or an infinity.
    ///   - ``PreferenceError/Code/unsupportedValue``: the sum is not a whole number for an
    ///     integer setting.
    public mutating func adjust(key: String, by amount: Double) throws(PreferenceError) {
        try adjust(slot: slot(forKey: key), by: amount)
    }

    /// Makes a setting effective by key, writing every requirement it can (Specs/Settings.md §4).
    ///
    /// - Parameter key: The setting's key.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged:
    ///   - ``PreferenceError/Code/unknownKey``: the configurable declares no such key.
    ///   - ``PreferenceError/Code/notActivatable``: no preference write can make the setting
    ///     effective.
    public mutating func activate(key: String) throws(PreferenceError) {
        try activate(slot: slot(forKey: key))
    }
}

extension PreferencesEditor {
    /// Applies one edit by key (Specs/Settings.md §5).
    ///
    /// A failing edit throws a ``PreferenceError`` and leaves the preferences unchanged.
    ///
    /// ```swift
    /// do {
    ///     try editor.apply(.set(key: "theme", value: "purple"))
    /// } catch {
    ///     error.code   // .unsupportedValue
    /// }
    /// ```
    ///
    /// - Parameter edit: The edit to apply.
    /// - Throws: ``PreferenceError``, and the preferences are left unchanged (`clearAll` never
    ///   throws):
    ///   - ``PreferenceError/Code/unknownKey``: the configurable declares no such key.
    ///   - ``PreferenceError/Code/wrongKind``: the operation does not apply to the setting's kind
    ///     (`toggle` on a range, `increment` on an enum, `toggleValue` on a toggle).
    ///   - ``PreferenceError/Code/typeMismatch``, ``PreferenceError/Code/unsupportedValue``: the
    ///     value of a `set` or `toggleValue` is rejected; `unsupportedValue` also for an
    ///     `adjustBy` whose sum is not a whole number for an integer setting.
    ///   - ``PreferenceError/Code/notANumber``: the amount of an `adjustBy` is NaN or an
    ///     infinity, or the value of a `set` is a number too large for binary64.
    ///   - ``PreferenceError/Code/notActivatable``: an `activate` cannot make the setting
    ///     effective.
    public mutating func apply(_ edit: PreferenceEdit) throws(PreferenceError) {
        switch edit {
        case .set(let key, let value, let activate): try set(key: key, json: value, activate: activate)
        case .clear(let key): try clear(key: key)
        case .clearAll: clear()
        case .toggle(let key): try toggle(key: key)
        case .toggleValue(let key, let value): try toggle(key: key, json: value)
        case .increment(let key): try increment(key: key)
        case .decrement(let key): try decrement(key: key)
        case .adjustBy(let key, let amount): try adjust(key: key, by: amount)
        case .activate(let key): try activate(key: key)
        }
    }

    /// Applies one edit, storing a `set` or `clear` of a key the configurable does not declare
    /// as it is (a newer app's key, kept for it) instead of failing with `unknownKey`.
    ///
    /// ```swift
    /// try editor.apply(.set(key: "pageTurnAnimation", value: "curl"), allowingUnknownKeys: true)
    /// try editor.apply(.clear(key: "pageTurnAnimation"), allowingUnknownKeys: true)
    /// ```
    ///
    /// A reserved `$` key is never stored this way; other operations on an unknown key still
    /// fail with `unknownKey`, since nothing says what they mean.
    ///
    /// - Parameters:
    ///   - edit: The edit.
    ///   - allowingUnknownKeys: Whether a `set` or `clear` of an undeclared key stores it as is.
    /// - Throws: ``PreferenceError`` as ``apply(_:)``, and the preferences are left unchanged.
    public mutating func apply(_ edit: PreferenceEdit, allowingUnknownKeys: Bool) throws(PreferenceError) {
        if allowingUnknownKeys, let key = edit.key, Schema.catalogue.slot(forKey: key) == nil,
            !Preferences.isReserved(key)
        {
            switch edit {
            case .set(_, let value, _):
                storeUndeclared(key, value == .null ? nil : value)
                return
            case .clear:
                storeUndeclared(key, nil)
                return
            default: break
            }
        }
        try apply(edit)
    }
}
