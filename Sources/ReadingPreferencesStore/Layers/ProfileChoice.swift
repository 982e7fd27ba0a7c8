import ReadingPreferences

/// Who chose the profile that applies on this device (Specs/Store.md §4.5): the reader, by hand,
/// or a rule of the rules document.
///
/// ```swift
/// let selection = try await store.profileSelection(context: book)
/// if case .rule(let index, let conditions) = selection.choice {
///     print("rule \(index + 1) (\(conditions.summary))")   // rule 1 (appearance dark)
/// }
/// ```
public enum ProfileChoice: Sendable, Hashable, CustomStringConvertible {
    /// The reader chose it on this device; it beats the rules until the device returns to
    /// automatic.
    case byHand
    /// A rule chose it: its index in the rules document (from 0) and its conditions.
    case rule(index: Int, conditions: ProfileRuleConditions)

    /// `chosen by hand` or `rule 2 (language ja)` (positions from 1, as the CLI counts).
    public var description: String {
        switch self {
        case .byHand: return "chosen by hand"
        case .rule(let index, let conditions): return "rule \(index + 1) (\(conditions.summary))"
        }
    }

    /// The choice as JSON: `{"by": "hand"}` or `{"by": "rule", "rule": 1, "when": {...}}` (the
    /// rule's position from 1, and its conditions as written).
    public var jsonValue: JSONValue {
        switch self {
        case .byHand: return .object(JSONObject(members: [.init(key: "by", value: "hand")]))
        case .rule(let index, let conditions):
            return .object(
                JSONObject(members: [
                    .init(key: "by", value: "rule"),
                    .init(key: "rule", value: .number(JSONNumber(index + 1))),
                    .init(key: "when", value: .object(conditions.json)),
                ]))
        }
    }
}

/// Which profile applies on this device for a publication, and why (Specs/Store.md §4.5).
public struct ProfileSelection: Sendable, Hashable {
    /// The profile that applies, or `nil` for shared.
    public var profile: Profile?
    /// Who chose it; `nil` when shared applies because no rule holds (or there are none).
    public var choice: ProfileChoice?
    /// Whether the device follows the rules (no choice by hand).
    public var isAutomatic: Bool
    /// Rules that held but name a missing profile, skipped (indexes from 0).
    public var skippedRules: [Int]

    /// Creates a selection.
    ///
    /// - Parameters:
    ///   - profile: The profile, or `nil` for shared.
    ///   - choice: Who chose it.
    ///   - isAutomatic: Whether the device follows the rules.
    ///   - skippedRules: Rules skipped for naming a missing profile.
    public init(profile: Profile?, choice: ProfileChoice?, isAutomatic: Bool, skippedRules: [Int] = []) {
        self.profile = profile
        self.choice = choice
        self.isAutomatic = isAutomatic
        self.skippedRules = skippedRules
    }
}
