/// The rules that choose a profile on each device (Specs/Store.md §4.5): an ordered list, kept
/// in the synced rules document, of `{"profile": ID, "when": {...}}`.
///
/// The first rule whose conditions all hold chooses its profile; when none holds, shared
/// applies. A rule naming a profile that does not exist is skipped (and reported), and the
/// rules after it are tried. Evaluation is a pure function of the context: the same rules and
/// context give the same answer on a device, in the CLI and on a server.
///
/// ```swift
/// let rules = try ProfileRules(json: JSONValue(json: """
///     [{"profile": "night", "when": {"appearance": "dark"}},
///      {"profile": "japanese", "when": {"language": ["ja"]}}]
///     """))
/// let context = ProfileRuleContext(appearance: .dark)
/// rules.evaluate(in: context) { _ in true }.chosen   // 0
/// ```
public struct ProfileRules: Sendable, Hashable {
    /// The rules, in order: the first that holds wins.
    public var rules: [ProfileRule] {
        didSet { matchers = rules.map { ProfileRuleConditions.Compiled($0.conditions) } }
    }

    /// Each rule's conditions, held by reference: reading one costs one retain, where a rule's
    /// value copied out of ``rules`` would retain each of its members.
    private var matchers: [ProfileRuleConditions.Compiled]

    /// Creates a rules document.
    ///
    /// - Parameter rules: The rules, first first.
    public init(_ rules: [ProfileRule] = []) {
        self.rules = rules
        matchers = rules.map { ProfileRuleConditions.Compiled($0.conditions) }
    }

    /// Equal rules documents: the same rules in the same order.
    public static func == (lhs: ProfileRules, rhs: ProfileRules) -> Bool { lhs.rules == rhs.rules }

    /// Hashes the rules.
    public func hash(into hasher: inout Hasher) { hasher.combine(rules) }

    /// The index of the first rule at `start` or after whose conditions hold, or `nil`. It
    /// allocates nothing.
    ///
    /// - Parameters:
    ///   - context: The device and the publication.
    ///   - start: The first index to try.
    /// - Returns: The rule's index in ``rules``.
    public func firstMatch(in context: ProfileRuleContext, from start: Int = 0) -> Int? {
        var index = max(start, 0)
        while index < matchers.count {
            if matchers[index].holds(in: context) { return index }
            index += 1
        }
        return nil
    }

    /// Evaluates the rules: the first rule that holds and names an existing profile, and the
    /// rules that held before it but name none.
    ///
    /// - Parameters:
    ///   - context: The device and the publication.
    ///   - profileExists: Whether a profile id names a profile.
    /// - Returns: The chosen rule, if any, and the skipped ones.
    public func evaluate(in context: ProfileRuleContext, profileExists: (String) -> Bool)
        -> ProfileRuleEvaluation
    {
        var skipped: [Int] = []
        var next = firstMatch(in: context)
        while let index = next {
            if profileExists(rules[index].profile) {
                return ProfileRuleEvaluation(chosen: index, skipped: skipped)
            }
            skipped.append(index)
            next = firstMatch(in: context, from: index + 1)
        }
        return ProfileRuleEvaluation(chosen: nil, skipped: skipped)
    }

    /// The indexes of the rules naming a profile that does not exist, whatever the context.
    ///
    /// - Parameter profileExists: Whether a profile id names a profile.
    /// - Returns: The indexes, in order.
    public func rulesNamingMissingProfiles(_ profileExists: (String) -> Bool) -> [Int] {
        rules.indices.filter { !profileExists(rules[$0].profile) }
    }
}

/// What evaluating a rules document in a context gives (``ProfileRules/evaluate(in:profileExists:)``).
public struct ProfileRuleEvaluation: Sendable, Hashable {
    /// The index of the rule that chose the profile; `nil` when none holds: shared applies.
    public var chosen: Int?
    /// The indexes of rules that held but name a missing profile, skipped, in order.
    public var skipped: [Int]

    /// Creates an evaluation.
    ///
    /// - Parameters:
    ///   - chosen: The chosen rule's index, or `nil`.
    ///   - skipped: The skipped rules' indexes.
    public init(chosen: Int?, skipped: [Int] = []) {
        self.chosen = chosen
        self.skipped = skipped
    }
}
