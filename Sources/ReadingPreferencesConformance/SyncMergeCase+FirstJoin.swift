import ReadingPreferences
import ReadingPreferencesStore

// A sync vector of a replica's first sync (Specs/Sync.md §5.9, §9): `firstJoin` says how it goes
// (`ask`, `keepMine`, `takeTheirs` or `merge`), and `expect.differences` gives the differing keys
// of each document.
extension SyncMergeCase {
    /// Reads `firstJoin` and `expect.differences`.
    mutating func readFirstJoin(_ reader: JSONMemberReader, _ expect: JSONMemberReader)
        throws(JSONMemberError)
    {
        if let text = try reader.string("firstJoin") {
            guard localReplica != nil else {
                throw JSONMemberError(path: "firstJoin", message: "needs localReplica")
            }
            if text == "ask" {
                firstSync = .ask
            } else if let choice = FirstJoinChoice(rawValue: text) {
                firstSync = .choosing(choice)
            } else {
                throw JSONMemberError(
                    path: "firstJoin", message: "expected ask, keepMine, takeTheirs or merge")
            }
        }
        if let object = try expect.object("differences") {
            guard firstSync != nil else {
                throw JSONMemberError(path: expect.path("differences"), message: "needs firstJoin")
            }
            let lists = JSONMemberReader(object: object, path: expect.path("differences"))
            var differences: [SyncScope: [String]] = [:]
            for member in object.members {
                differences[try Self.scope(member.key, path: lists.path)] =
                    try lists.strings(member.key) ?? []
            }
            self.differences = differences
        }
    }

    func checkFirstJoin(_ result: Result, order: String) -> [String] {
        guard let differences else { return [] }
        let expected = differences.filter { !$0.value.isEmpty }
        let same =
            expected.count == result.differences.count
            && expected.allSatisfy { scope, keys in
                result.differences[scope].map { actual in
                    actual.count == keys.count
                        && zip(actual, keys).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
                } ?? false
            }
        guard !same else { return [] }
        return [
            "differences (\(order)): expected \(Self.describe(expected)), got \(Self.describe(result.differences))"
        ]
    }

    private static func describe(_ differences: [SyncScope: [String]]) -> String {
        "{"
            + differences.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
            + "}"
    }
}
