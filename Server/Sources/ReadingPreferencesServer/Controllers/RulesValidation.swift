import Foundation
import ReadingPreferences

/// The rules document checked before it is written (Specs/Server.md §5.2): its `rules` member
/// must be the library's list of rules (Specs/Store.md §4.5); a malformed one is a 422 listing
/// each malformed rule, as `errors`, so a client fixes them all in one round trip.
enum RulesValidation {
    /// Checks a rules document.
    ///
    /// - Parameter document: The document as it would be stored.
    /// - Throws: A 422 `invalidRules` problem naming each malformed rule.
    static func check(_ document: JSONObject) throws {
        guard let rules = document["rules"], rules != .null else { return }
        do {
            _ = try ProfileRules(json: rules)
        } catch {
            let entries = error.problems.map { problem -> JSONValue in
                .object([
                    "key": .string(problem.path), "code": .string("invalidRule"),
                    "rule": problem.rule.map { .number(JSONNumber($0)) } ?? .null,
                    "detail": .string(problem.message),
                ])
            }
            var answer = Problem(
                .unprocessableContent, "invalidRules",
                error.problems.map(\.description).joined(separator: "; "))
            answer.members = [JSONObject.Member(key: "errors", value: .array(entries))]
            throw answer
        }
    }
}
