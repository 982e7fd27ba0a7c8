/// One rule of a rules document (Specs/Store.md §4.5): the profile it chooses, and when.
///
/// ```swift
/// let night = ProfileRule(profile: "3f9c2a7e51d0", when: ProfileRuleConditions(appearance: .dark))
/// night.jsonValue   // {"profile": "3f9c2a7e51d0", "when": {"appearance": "dark"}}
/// ```
public struct ProfileRule: Sendable, Hashable {
    /// The id of the profile it chooses.
    public let profile: String
    /// When it applies.
    public let conditions: ProfileRuleConditions
    /// The rule as written (member order kept), so a document reads back as it was.
    public let jsonValue: JSONValue

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - profile: The profile's id (a replica-style id, Specs/Store.md §4.2).
    ///   - conditions: When it applies.
    public init(profile: String, when conditions: ProfileRuleConditions) {
        self.init(
            profile: profile, conditions: conditions,
            jsonValue: .object(
                JSONObject(members: [
                    .init(key: "profile", value: .string(profile)),
                    .init(key: "when", value: .object(conditions.json)),
                ])))
    }

    init(profile: String, conditions: ProfileRuleConditions, jsonValue: JSONValue) {
        self.profile = profile
        self.conditions = conditions
        self.jsonValue = jsonValue
    }
}
