import ReadingPreferences

/// What to say after a rejected edit so a person can fix it: what the setting accepts, which
/// operations it takes, or the key they probably meant (issue 20: every error says what is
/// expected).
enum PreferenceErrorHint {
    /// The hint for an error, starting with a space, or nothing.
    static func text(for error: PreferenceError, catalogue: SettingCatalogue) -> String {
        guard let descriptor = catalogue.descriptor(forKey: error.key) else {
            guard error.code == .unknownKey else { return "" }
            let close =
                Suggestion.closest(to: error.key, among: catalogue.keys).map { "did you mean \($0)? " } ?? ""
            return " (\(close)a key no setting knows is stored only with --unknown)"
        }
        switch error.code {
        case .typeMismatch, .unsupportedValue, .notANumber:
            return " (expected \(descriptor.expectedValues))"
        case .wrongKind:
            return
                " (\(descriptor.key) is a \(kindName(descriptor.kind)) setting: \(operations(descriptor.kind)))"
        case .notActivatable:
            return " (its requirements cannot be met by changing other settings; set them yourself)"
        case .unknownKey:
            return ""
        }
    }

    private static func kindName(_ kind: SettingKind) -> String {
        switch kind {
        case .toggle: return "toggle"
        case .range: return "number"
        case .percent: return "percentage"
        case .enumeration: return "choice"
        case .color: return "color"
        case .value: return "value"
        }
    }

    private static func operations(_ kind: SettingKind) -> String {
        switch kind {
        case .toggle: return "use set, clear or toggle"
        case .range, .percent: return "use set, clear, increment, decrement or adjustBy"
        case .enumeration, .color: return "use set, clear or toggleValue"
        case .value: return "use set or clear"
        }
    }
}
