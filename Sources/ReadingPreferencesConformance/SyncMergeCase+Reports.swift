import ReadingPreferences
import ReadingPreferencesStore

// What a sync vector expects a reader to report, and the local documents a sync leaves
// (Specs/Sync.md §9, Specs/README.md §6): the files and entries skipped, the keys' order, the
// display names.
extension SyncMergeCase {
    /// Reads `skipped`, `keyOrder` and `names`.
    mutating func readReportExpectations(_ expect: JSONMemberReader) throws(JSONMemberError) {
        skipped = try expect.strings("skipped")?.sorted()
        if let object = try expect.object("keyOrder") {
            guard localReplica != nil else {
                throw JSONMemberError(path: expect.path("keyOrder"), message: "needs localReplica")
            }
            let lists = JSONMemberReader(object: object, path: expect.path("keyOrder"))
            var order: [SyncScope: [String]] = [:]
            for member in object.members {
                order[try Self.scope(member.key, path: lists.path)] = try lists.strings(member.key) ?? []
            }
            keyOrder = order
        }
        if let object = try expect.object("names") {
            guard localReplica != nil else {
                throw JSONMemberError(path: expect.path("names"), message: "needs localReplica")
            }
            var names: [ReplicaID: String] = [:]
            for member in object.members {
                let path = JSONMemberReader.join(expect.path("names"), member.key)
                guard let id = ReplicaID(member.key), let name = member.value.stringValue else {
                    throw JSONMemberError(path: path, message: "expected a replica id and a string")
                }
                names[id] = name
            }
            self.names = names
        }
    }

    /// Positions in an array of `count` elements.
    static func positions(_ reader: JSONMemberReader, _ name: String, count: Int) throws(JSONMemberError)
        -> Set<Int>
    {
        var result = Set<Int>()
        for (index, element) in (try reader.array(name) ?? []).enumerated() {
            guard let position = element.numberValue?.integerValue, position >= 0, position < count else {
                throw JSONMemberError(
                    path: JSONMemberReader.join(reader.path(name), index: index),
                    message: "expected a position in replicas (0 to \(count - 1))")
            }
            result.insert(position)
        }
        return result
    }

    func checkReports(_ result: Result, order: String) -> [String] {
        var failures: [String] = []
        if let skipped {
            // A skipped line is `<member path>: <why>`; the path is the longest expected one that
            // starts it (a scope may hold dots), else the whole line.
            let paths = skipped.sorted { $0.utf8.count > $1.utf8.count }
            let actual = result.skipped.map { line in paths.first { line.hasPrefix($0 + ": ") } ?? line }
                .sorted()
            if !Self.sameBytes(actual, skipped) {
                failures.append(
                    "skipped (\(order)): expected \(Self.list(skipped)), got \(Self.list(result.skipped))")
            }
        }
        for (scope, keys) in (keyOrder ?? [:]).sorted(by: { $0.key < $1.key }) {
            let actual = result.documents[scope]?.members.map(\.key) ?? []
            if !Self.sameBytes(actual, keys) {
                failures.append(
                    "keyOrder \(scope) (\(order)): expected \(Self.list(keys)), got \(Self.list(actual))")
            }
        }
        if let names {
            let actual = result.state.names
            let same =
                actual.count == names.count
                && names.allSatisfy { id, name in actual[id].map { $0.utf8.elementsEqual(name.utf8) } ?? false
                }
            if !same {
                failures.append("names (\(order)): expected \(Self.map(names)), got \(Self.map(actual))")
            }
        }
        return failures
    }

    /// A list of strings, as JSON: `["a", "b"]`.
    private static func list(_ strings: [String]) -> String {
        "[" + strings.map(JSONMemberReader.quoted).joined(separator: ", ") + "]"
    }

    /// Names by replica, as JSON with ids sorted: `{"a": "Kobo Clara"}`.
    private static func map(_ names: [ReplicaID: String]) -> String {
        "{"
            + names.sorted { $0.key < $1.key }.map {
                "\(JSONMemberReader.quoted($0.key.rawValue)): \(JSONMemberReader.quoted($0.value))"
            }
            .joined(separator: ", ") + "}"
    }

    /// Whether two lists of strings are equal byte for byte (keys are byte strings, Specs/Sync.md §1).
    private static func sameBytes(_ left: [String], _ right: [String]) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }
}
