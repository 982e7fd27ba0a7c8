// The same edits by key and JSON value, for tools, servers and the conformance runner.
extension PreferencesEditor {
    private func slot(forKey key: String) throws(PreferenceError) -> Int {
        guard let slot = Schema.catalogue.slot(forKey: key) else {
            throw PreferenceError(.unknownKey, key: key)
        }
        return slot
    }

    /// Sets a key from a JSON value, decoding it with the key's coder; `nil` or `null` removes it.
    public mutating func set(key: String, json: JSONValue?, activate: Bool = true) throws(PreferenceError) {
        try set(slot: slot(forKey: key), json: json, activate: activate)
    }

    /// Removes a declared key.
    public mutating func clear(key: String) throws(PreferenceError) {
        clear(slot: try slot(forKey: key))
    }

    /// Toggles a toggle setting by key.
    public mutating func toggle(key: String) throws(PreferenceError) {
        try toggle(slot: slot(forKey: key))
    }

    /// Toggles an enum or color setting by key to a JSON value.
    public mutating func toggle(key: String, json: JSONValue) throws(PreferenceError) {
        let slot = try slot(forKey: key)
        try toggle(slot: slot, validated: descriptor(slot).decodeAndValidate(json).map(\.valid))
    }

    /// Increments a range setting by key.
    public mutating func increment(key: String) throws(PreferenceError) {
        try step(slot: slot(forKey: key), up: true)
    }

    /// Decrements a range setting by key.
    public mutating func decrement(key: String) throws(PreferenceError) {
        try step(slot: slot(forKey: key), up: false)
    }

    /// Adjusts a range setting by key.
    public mutating func adjust(key: String, by amount: Double) throws(PreferenceError) {
        try adjust(slot: slot(forKey: key), by: amount)
    }

    /// Activates a setting by key.
    public mutating func activate(key: String) throws(PreferenceError) {
        try activate(slot: slot(forKey: key))
    }
}

extension PreferencesEditor {
    /// Applies one edit by key (SPEC 3.4).
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
    /// - Throws: ``PreferenceError`` with the code of SPEC 3.7 (`unknownKey` for a key the
    ///   configurable does not declare, `wrongKind` for an operation the setting does not offer...).
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
}
