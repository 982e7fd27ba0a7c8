extension Setting {
    /// The first value among the candidates that decodes and validates (coercion allowed), or
    /// `fallback` (Specs/Settings.md §5 `copyFirstValidValue`).
    ///
    /// ```swift
    /// // Prefer the book's own choice, then the shared one, then 1.0.
    /// let size = EPUB.fontSize.firstValidValue(from: [perBook, shared], fallback: 1.0)
    /// ```
    public func firstValidValue(from candidates: [Preferences], fallback: Value?) -> Value? {
        for candidate in candidates {
            guard let json = candidate[key] else { continue }
            if let value = descriptor.validValue(of: json).flatMap(Value.init(settingValue:)) {
                return value
            }
        }
        return fallback
    }
}

extension Preferences {
    /// Stores in these preferences the first value of `setting` among the candidates that
    /// decodes and validates, in its canonical JSON form, or `fallback` (`nil` removes the key).
    ///
    /// ```swift
    /// var merged = Preferences()
    /// merged.copyFirstValidValue(of: EPUB.theme, from: [imported, legacy], fallback: .light)
    /// ```
    public mutating func copyFirstValidValue<Owner, Value>(
        of setting: Setting<Owner, Value>, from candidates: [Preferences], fallback: Value?
    ) {
        guard let value = setting.firstValidValue(from: candidates, fallback: fallback) else {
            self[setting.key] = nil
            return
        }
        let descriptor = setting.descriptor
        guard case .success(let valid) = descriptor.acceptAndValidate(value.settingValue) else {
            self[setting.key] = nil
            return
        }
        self[setting.key] = descriptor.coder.encode(valid)
    }
}

extension Preferences {
    /// The stored value of a setting, decoded with its coder but not validated (Specs/Settings.md §5 `get`):
    /// `nil` when the key (and its `renamedFrom` aliases) is unset or its value does not decode.
    ///
    /// ```swift
    /// let preferences: Preferences = ["fontSize": 9, "theme": "purple"]
    /// preferences.get(EPUB.fontSize)   // 9.0: decoded, not coerced into the range
    /// preferences.get(EPUB.theme)      // nil: "purple" is not a theme
    /// ```
    ///
    /// - Parameter setting: The setting.
    /// - Returns: The decoded stored value, or `nil`.
    public func get<Owner, Value>(_ setting: Setting<Owner, Value>) -> Value? {
        guard let stored = storedMember(of: setting.descriptor),
            case .success(let value) = setting.descriptor.coder.decode(stored.value)
        else { return nil }
        return Value(settingValue: value)
    }
}
