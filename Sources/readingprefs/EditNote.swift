import ReadingPreferences

/// Why an edit wrote a value other than the one asked for, or a key other than the one edited:
/// what `store set` prints beside each change, and `edit` on standard error.
enum EditNote {
    /// The note for one written key, or `nil` when it is the value asked for.
    ///
    /// - Parameters:
    ///   - written: The key written.
    ///   - value: The value written (`nil`: removed).
    ///   - edited: The key the edit named.
    ///   - requested: The value asked for, or `nil` (not a `set`).
    ///   - descriptor: The edited key's setting.
    ///   - isOverride: Whether the write went to the overrides (which never activate).
    /// - Returns: The note, or `nil`.
    static func text(
        written: String, value: JSONValue?, edited: String, requested: JSONValue?,
        descriptor: SettingDescriptor?, isOverride: Bool = false
    ) -> String? {
        guard written.isScalarEqual(to: edited) else {
            return isOverride ? nil : "written so that \(edited) takes effect"
        }
        guard let requested, let stored = value, requested != stored else { return nil }
        if let range = descriptor?.range {
            return
                "\(requested.jsonString()) asked; kept within \(JSONNumber(range.lowerBound))…\(JSONNumber(range.upperBound))"
        }
        return "\(requested.jsonString()) asked; stored as the setting writes it"
    }
}
