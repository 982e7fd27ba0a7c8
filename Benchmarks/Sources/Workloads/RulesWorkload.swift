import ReadingPreferences

/// Evaluating a rules document of 20 rules (Specs/Store.md §4.5) in a context where only the last
/// holds, so every rule is tried: what the store does each time it chooses a publication's
/// profile. Evaluation allocates nothing per rule (nothing at all, once the context is made).
public struct RulesWorkload: Sendable {
    /// The 20 rules.
    public let rules: ProfileRules
    /// A context in which only the last rule holds.
    public let context: ProfileRuleContext

    /// Makes the rules and the context, and checks that only the last rule holds.
    ///
    /// - Throws: ``WorkloadError`` when another rule holds.
    public init() throws {
        var items: [JSONValue] = []
        for index in 0..<19 {
            items.append([
                "profile": .string("p\(index)"),
                "when": [
                    "appearance": "dark", "language": ["ja", "zh", "ko"],
                    "collection": ["manga", .string("series-\(index)")],
                    "time": ["from": "20:30", "to": "06:45"],
                ],
            ])
        }
        items.append(["profile": "last", "when": ["language": ["fr", "en"], "collection": ["novels"]]])
        rules = try ProfileRules(json: .array(items))
        context = ProfileRuleContext(
            appearance: .light, minuteOfDay: 12 * 60, deviceClass: "phone", languages: ["en-GB"],
            collections: ["shelf", "novels"])
        guard rules.firstMatch(in: context) == 19 else { throw WorkloadError("the last rule must hold") }
    }

    /// Evaluates the rules `count` times; returns the chosen indexes' sum, so the work is kept.
    public func run(count: Int) -> Int {
        var sum = 0
        for _ in 0..<count { sum &+= rules.firstMatch(in: context) ?? -1 }
        return sum
    }
}
