import ReadingPreferences
import ReadingPreferencesStore

/// A sync merge vector (SPEC 10, `Specs/Conformance/sync/`): replica states, and the state their
/// merge must give, in any order.
///
/// ```json
/// {
///   "name": "the greater stamp wins",
///   "replicas": [ {replica file}, {replica file} ],
///   "expect": {
///     "documents": {"epub/shared": {"fontSize": {"value": 1.4, "stamp": {...}}}},
///     "preferences": {"epub/shared": {"fontSize": 1.4}},
///     "merged": {"phone": {...}}
///   }
/// }
/// ```
public struct SyncMergeCase: Sendable, Hashable {
    /// The replica states to merge.
    public var replicas: [ReplicaState]
    /// The expected entries of the merge, by scope and key; `nil` when not checked.
    public var documents: [SyncScope: [String: SyncEntry]]?
    /// The expected values (removals left out), by scope; `nil` when not checked.
    public var preferences: [SyncScope: Preferences]?
    /// The expected highest merged stamp per replica; `nil` when not checked.
    public var merged: [String: SyncStamp]?

    /// Reads a case's `replicas` and `expect`.
    ///
    /// - Parameter reader: The case object.
    /// - Throws: `JSONMemberError` naming the member that is wrong.
    init(_ reader: JSONMemberReader) throws(JSONMemberError) {
        replicas = []
        for (index, replica) in (try reader.array("replicas") ?? []).enumerated() {
            do throws(ReplicaFileError) {
                replicas.append(try ReplicaState(json: replica.jsonData()))
            } catch {
                throw JSONMemberError(
                    path: JSONMemberReader.join("replicas", index: index), message: error.description)
            }
        }
        let expect = try JSONMemberReader(reader.value("expect") ?? .object(JSONObject()), path: "expect")
        if let object = try expect.object("documents") {
            var documents: [SyncScope: [String: SyncEntry]] = [:]
            for member in object.members {
                let scope = try Self.scope(member.key, path: expect.path("documents"))
                let entries = try JSONMemberReader(member.value, path: "expect.documents.\(member.key)")
                var result: [String: SyncEntry] = [:]
                for entry in entries.object.members {
                    result[entry.key] = try SyncEntry(json: entry.value, path: entries.path(entry.key))
                }
                documents[scope] = result
            }
            self.documents = documents
        }
        if let object = try expect.object("preferences") {
            var preferences: [SyncScope: Preferences] = [:]
            for member in object.members {
                let scope = try Self.scope(member.key, path: expect.path("preferences"))
                guard case .object(let values) = member.value else {
                    throw JSONMemberError(
                        path: "expect.preferences.\(member.key)", message: "expected an object")
                }
                preferences[scope] = Preferences(values)
            }
            self.preferences = preferences
        }
        if let object = try expect.object("merged") {
            var merged: [String: SyncStamp] = [:]
            for member in object.members {
                merged[member.key] = try SyncStamp(json: member.value, path: "expect.merged.\(member.key)")
            }
            self.merged = merged
        }
    }

    private static func scope(_ text: String, path: String) throws(JSONMemberError) -> SyncScope {
        guard let scope = SyncScope(text) else {
            throw JSONMemberError(path: path, message: "\(text) is not a scope")
        }
        return scope
    }

    /// What differs from the expectation, merging the replicas in the given order and in reverse.
    func failures() -> [String] {
        guard let first = replicas.first else { return ["replicas: expected at least one replica state"] }
        var failures: [String] = []
        for (order, states) in [("in order", replicas), ("in reverse order", Array(replicas.reversed()))] {
            let merge = states.dropFirst().reduce(states.first ?? first, ReplicaState.merged)
            if let documents {
                let actual = merge.documents.filter { !$0.value.isEmpty }
                if actual != documents.filter({ !$0.value.isEmpty }) {
                    failures.append(
                        "documents (\(order)): expected \(Self.describe(documents)), got \(Self.describe(actual))"
                    )
                }
            }
            if let preferences {
                let actual = Self.values(merge.documents)
                if actual != preferences.filter({ !$0.value.isEmpty }) {
                    failures.append(
                        "preferences (\(order)): expected \(Self.describe(preferences)), got \(Self.describe(actual))"
                    )
                }
            }
            if let merged, merge.merged != merged {
                failures.append(
                    "merged (\(order)): expected \(merged.sorted { $0.key < $1.key }), got \(merge.merged.sorted { $0.key < $1.key })"
                )
            }
        }
        return failures
    }

    /// The values of entries that are not removals, by scope (scopes with none left out).
    static func values(_ documents: [SyncScope: [String: SyncEntry]]) -> [SyncScope: Preferences] {
        var result: [SyncScope: Preferences] = [:]
        for (scope, entries) in documents {
            var preferences = Preferences()
            for (key, entry) in entries.sorted(by: { $0.key < $1.key }) { preferences[key] = entry.value }
            if !preferences.isEmpty { result[scope] = preferences }
        }
        return result
    }

    private static func describe(_ documents: [SyncScope: [String: SyncEntry]]) -> String {
        documents.sorted { $0.key < $1.key }.map { scope, entries in
            "\(scope): {"
                + entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.jsonValue)" }.joined(
                    separator: ", ")
                + "}"
        }.joined(separator: "; ")
    }

    private static func describe(_ preferences: [SyncScope: Preferences]) -> String {
        preferences.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
    }
}
