/// Why a rules document was refused (Specs/Store.md §4.5): every malformed rule, each with the
/// path of the member at fault and what is wrong.
///
/// ```swift
/// do {
///     _ = try ProfileRules(json: ["profile": "night"])
/// } catch {
///     print(error)   // the rules document is malformed: expected an array of rules, got object
/// }
/// ```
public struct ProfileRulesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One thing wrong with the document.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The index of the rule at fault (from 0), or `nil` for the document itself.
        public var rule: Int?
        /// The path of the member at fault, such as `[2].when.time.from`.
        public var path: String
        /// What is wrong with it.
        public var message: String

        /// Creates a problem.
        ///
        /// - Parameters:
        ///   - rule: The rule's index, or `nil`.
        ///   - path: The member's path.
        ///   - message: What is wrong.
        public init(rule: Int?, path: String, message: String) {
            self.rule = rule
            self.path = path
            self.message = message
        }

        /// `rule 3 ([2].when.time.from): expected a time "HH:MM" ...`.
        public var description: String {
            let place = path.isEmpty ? "" : " (\(path))"
            return (rule.map { "rule \($0 + 1)" } ?? "the document") + place + ": " + message
        }
    }

    /// Every problem, in document order.
    public var problems: [Problem]

    /// Creates an error.
    ///
    /// - Parameter problems: The problems.
    public init(problems: [Problem]) {
        self.problems = problems
    }

    /// `the rules document is malformed:` and one line per problem.
    public var description: String {
        "the rules document is malformed:\n" + problems.map { "  " + $0.description }.joined(separator: "\n")
    }

    /// The error as JSON: `{"error": "malformedRules", "problems": [{"rule", "path", "message"}]}`.
    public var jsonValue: JSONValue {
        .object(
            JSONObject(members: [
                .init(key: "error", value: "malformedRules"),
                .init(
                    key: "problems",
                    value: .array(
                        problems.map { problem in
                            .object(
                                JSONObject(members: [
                                    .init(
                                        key: "rule",
                                        value: problem.rule.map { .number(JSONNumber($0)) } ?? .null),
                                    .init(key: "path", value: .string(problem.path)),
                                    .init(key: "message", value: .string(problem.message)),
                                ]))
                        })),
            ]))
    }
}
