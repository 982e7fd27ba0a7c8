import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// A sync vector (Specs/Sync.md §9, Specs/README.md §6, `Specs/Conformance/sync/`): replica files, and what merging
/// them must give.
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
///
/// Without `localReplica`, the files are merged with the pure merge, in the given order and in
/// reverse. With `localReplica` and `now`, the replica of that id (its file among `replicas`,
/// or an empty one) reconciles with the others as a sync does: the future bound, the clock
/// rule, known replicas (`knownReplicas`), the tombstone `horizon` and the `retirementHorizon`
/// apply, and `expect` may also give the `clock` afterwards, the entries `ignored`, the
/// replicas `retired`, the `keyOrder` of the local documents afterwards and the display `names`
/// the published state carries. Either way `expect` may give the files a reader skips whole
/// (`skippedFiles`, their positions in `replicas`) and the entries it skips (`skipped`, their
/// member paths in the file). With `localReplica`, `firstJoin` (`ask`, `keepMine`, `takeTheirs`,
/// `merge`) makes the sync the replica's first (Specs/Sync.md §5.9), and `expect` may give the
/// `differences`.
public struct SyncMergeCase: Sendable, Hashable {
    /// The replica files to merge, as read (malformed entries skipped).
    public var replicas: [ReplicaFile]
    /// The local replica, for a reconciliation vector.
    public var localReplica: ReplicaID?
    /// The local wall clock, in milliseconds.
    public var now: UInt64?
    /// The tombstone horizon, in milliseconds.
    public var horizon: UInt64?
    /// The retirement horizon, in milliseconds.
    public var retirementHorizon: UInt64?
    /// What the local replica knows of others before the sync.
    var knownReplicas: [ReplicaID: ReconciliationInput.Known] = [:]
    /// The expected entries of the result, by scope and key; `nil` when not checked.
    public var documents: [SyncScope: SyncDocument]?
    /// The local documents now, when they differ from the local replica's entries (its edits
    /// since its last sync); `nil`: they hold exactly its entries' values.
    public var localDocuments: [SyncScope: Preferences]?
    /// The pending stamps the local replica's edits took (Specs/Sync.md §5.4), per document.
    public var pending: [SyncScope: SyncDocument] = [:]
    /// The expected values (removals left out), by scope; `nil` when not checked.
    public var preferences: [SyncScope: Preferences]?
    /// The expected highest merged stamp per replica; `nil` when not checked.
    public var merged: [ReplicaID: SyncStamp]?
    /// The expected clock afterwards, as `[time, counter]`; `nil` when not checked.
    public var clock: [UInt64]?
    /// The expected ignored entries, `scope key`, sorted; `nil` when not checked.
    public var ignored: [String]?
    /// The expected retired replicas, sorted; `nil` when not checked.
    public var retired: [ReplicaID]?
    /// The positions in `replicas` of the files a reader must skip whole (Specs/Sync.md §2).
    var skippedFiles: Set<Int> = []
    /// The positions in `replicas` of files expected to be skipped that were read.
    var readThoughSkipped: [Int] = []
    /// The expected skipped entries, scopes and `merged` stamps, by their member path in the
    /// file (`documents.<scope>.<key>`), sorted; `nil` when not checked.
    var skipped: [String]?
    /// The expected keys of the local documents after the sync, in their order, per scope;
    /// `nil` when not checked.
    var keyOrder: [SyncScope: [String]]?
    /// The expected display names of other replicas in the published state; `nil` when not
    /// checked.
    var names: [ReplicaID: String]?
    /// `firstJoin`: the local replica's first sync, and how it goes; `nil`: a later sync.
    var firstSync: ReconciliationInput.FirstSync?
    /// The expected differing keys per document at a first sync; `nil` when not checked.
    var differences: [SyncScope: [String]]?

    /// Reads a case's members.
    ///
    /// - Parameters:
    ///   - reader: The case object.
    ///   - replicaSources: The bytes of each replica state in the vector document, when known.
    /// - Throws: `JSONMemberError` naming the member that is wrong.
    init(_ reader: JSONMemberReader, replicaSources: [Data]? = nil) throws(JSONMemberError) {
        replicas = []
        let parsed = try reader.array("replicas") ?? []
        let expect = try JSONMemberReader(reader.value("expect") ?? .object(JSONObject()), path: "expect")
        skippedFiles = try Self.positions(expect, "skippedFiles", count: parsed.count)
        // Each state from its own bytes when they are known: a key or scope it repeats merges.
        let sources = replicaSources?.count == parsed.count ? replicaSources : nil
        for (index, replica) in parsed.enumerated() {
            do throws(ReplicaFileError) {
                replicas.append(try ReplicaState.read(sources?[index] ?? replica.jsonData()))
                if skippedFiles.contains(index) { readThoughSkipped.append(index) }
            } catch {
                // A file the vector says a reader skips is left out; any other is a broken vector.
                guard skippedFiles.contains(index) else {
                    throw JSONMemberError(
                        path: JSONMemberReader.join("replicas", index: index), message: error.description)
                }
            }
        }
        if let text = try reader.string("localReplica") {
            guard let id = ReplicaID(text) else {
                throw JSONMemberError(path: "localReplica", message: "\(text) is not a replica id")
            }
            localReplica = id
            guard let now = try Self.integer(reader, "now") else {
                throw JSONMemberError(path: "now", message: "required with localReplica")
            }
            self.now = now
        }
        if let object = try reader.object("localDocuments") {
            var documents: [SyncScope: Preferences] = [:]
            for member in object.members {
                let path = JSONMemberReader.join("localDocuments", member.key)
                let scope = try Self.scope(member.key, path: path)
                guard let values = member.value.objectValue else {
                    throw JSONMemberError(path: path, message: "expected an object of values")
                }
                documents[scope] = Preferences(values)
            }
            localDocuments = documents
        }
        for member in try reader.object("pending")?.members ?? [] {
            let path = JSONMemberReader.join("pending", member.key)
            let scope = try Self.scope(member.key, path: path)
            guard let entries = member.value.objectValue else {
                throw JSONMemberError(path: path, message: "expected an object of entries")
            }
            var document = SyncDocument()
            for entry in entries.members {
                do throws(SyncFormatError) {
                    document.merge(try SyncEntry(json: entry.value), forKey: entry.key)
                } catch {
                    throw JSONMemberError(
                        path: JSONMemberReader.join(path, entry.key), message: error.description)
                }
            }
            pending[scope] = document
        }
        horizon = try Self.integer(reader, "horizon")
        retirementHorizon = try Self.integer(reader, "retirementHorizon")
        for member in try reader.object("knownReplicas")?.members ?? [] {
            let path = JSONMemberReader.join("knownReplicas", member.key)
            guard let id = ReplicaID(member.key) else {
                throw JSONMemberError(path: path, message: "not a replica id")
            }
            let known = try JSONMemberReader(member.value, path: path)
            knownReplicas[id] = ReconciliationInput.Known(
                seen: try Self.integer(known, "seen") ?? 0, retired: try Self.integer(known, "retired"),
                merged: try known.value("merged").map { json throws(JSONMemberError) in
                    try Self.stamps(json, path: known.path("merged"))
                }, ignoredBefore: try Self.integer(known, "ignoredBefore"))
        }
        if let object = try expect.object("documents") {
            var documents: [SyncScope: SyncDocument] = [:]
            for member in object.members {
                let scope = try Self.scope(member.key, path: expect.path("documents"))
                let entries = try JSONMemberReader(member.value, path: "expect.documents.\(member.key)")
                var document = SyncDocument()
                for entry in entries.object.members {
                    do throws(SyncFormatError) {
                        document[entry.key] = try SyncEntry(json: entry.value)
                    } catch {
                        throw JSONMemberError(path: entries.path(entry.key), message: error.description)
                    }
                }
                documents[scope] = document
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
        if let json = expect.value("merged") { merged = try Self.stamps(json, path: expect.path("merged")) }
        if let json = expect.value("clock") {
            let clock = try JSONMemberReader(json, path: expect.path("clock"))
            self.clock = [try Self.integer(clock, "time") ?? 0, try Self.integer(clock, "counter") ?? 0]
        }
        ignored = try expect.strings("ignored")?.sorted()
        if let list = try expect.strings("retired") {
            retired = try list.map { text throws(JSONMemberError) in
                guard let id = ReplicaID(text) else {
                    throw JSONMemberError(
                        path: expect.path("retired"), message: "\(text) is not a replica id")
                }
                return id
            }.sorted()
        }
        try readReportExpectations(expect)
        try readFirstJoin(reader, expect)
    }

    private static func integer(_ reader: JSONMemberReader, _ name: String) throws(JSONMemberError) -> UInt64?
    {
        guard let value = reader.value(name) else { return nil }
        guard let integer = value.numberValue?.integerValue, integer >= 0 else {
            throw JSONMemberError(path: reader.path(name), message: "expected a non-negative integer")
        }
        return UInt64(integer)
    }

    private static func stamps(_ json: JSONValue, path: String) throws(JSONMemberError) -> [ReplicaID:
        SyncStamp]
    {
        guard case .object(let object) = json else {
            throw JSONMemberError(path: path, message: "expected an object")
        }
        var result: [ReplicaID: SyncStamp] = [:]
        for member in object.members {
            do throws(SyncFormatError) {
                let stamp = try SyncStamp(json: member.value)
                result[stamp.replica] = stamp
            } catch {
                throw JSONMemberError(
                    path: JSONMemberReader.join(path, member.key), message: error.description)
            }
        }
        return result
    }

    static func scope(_ text: String, path: String) throws(JSONMemberError) -> SyncScope {
        guard let scope = SyncScope(text) else {
            throw JSONMemberError(path: path, message: "\(text) is not a scope")
        }
        return scope
    }

    // MARK: - Running

    /// What differs from the expectation, with the states taken in the given order and in reverse.
    func failures() -> [String] {
        guard !replicas.isEmpty || localReplica != nil else {
            return ["replicas: expected at least one replica state"]
        }
        var failures = readThoughSkipped.map {
            "replicas[\($0)]: expected the file to be skipped whole (Specs/Sync.md §2), but it was read"
        }
        for (order, files) in [("in order", replicas), ("in reverse order", Array(replicas.reversed()))] {
            let result = outcome(of: files)
            failures += check(result, order: order)
        }
        return failures
    }

    struct Result {
        var state: ReplicaState
        var clock: [UInt64]?
        var ignored: [String] = []
        var retired: [ReplicaID] = []
        var skipped: [String] = []
        var documents: [SyncScope: Preferences] = [:]
        var differences: [SyncScope: [String]] = [:]
    }

    private func outcome(of files: [ReplicaFile]) -> Result {
        guard let localReplica, let now else {
            var state = files[0].state
            for file in files.dropFirst() { state.merge(file.state) }
            return Result(state: state, skipped: files.flatMap(\.skipped))
        }
        let input = ReconciliationInput(
            replica: localReplica, local: files.first { $0.state.replica == localReplica }?.state,
            remotes: files.filter { $0.state.replica != localReplica }.map {
                (source: "\($0.state.replica).json", file: $0)
            },
            now: now, tombstoneHorizon: horizon ?? 30 * 86_400_000,
            retirementHorizon: retirementHorizon ?? 180 * 86_400_000, known: knownReplicas)
        var reconciliation = input
        reconciliation.documents = localDocuments
        reconciliation.pending = pending
        reconciliation.firstSync = firstSync
        let output = reconciliation.run()
        return Result(
            state: output.state, clock: [output.clockTime, output.clockCounter],
            ignored: output.ignored.sorted(), retired: output.retired.sorted(), skipped: output.skipped,
            documents: output.documents, differences: output.differences)
    }

    private func check(_ result: Result, order: String) -> [String] {
        var failures: [String] = []
        let actual = result.state.documents.filter { !$0.value.isEmpty }
        if let documents, actual != documents.filter({ !$0.value.isEmpty }) {
            failures.append(
                "documents (\(order)): expected \(Self.describe(documents)), got \(Self.describe(actual))")
        }
        if let preferences {
            let values = actual.compactMapValues { $0.values.isEmpty ? nil : $0.values }
            if values != preferences.filter({ !$0.value.isEmpty }) {
                failures.append(
                    "preferences (\(order)): expected \(Self.describe(preferences)), got \(Self.describe(values))"
                )
            }
        }
        if let merged, result.state.merged != merged {
            failures.append(
                "merged (\(order)): expected \(Self.describe(merged)), got \(Self.describe(result.state.merged))"
            )
        }
        if let clock, let actual = result.clock, actual != clock {
            failures.append("clock (\(order)): expected \(clock), got \(actual)")
        }
        if let ignored, result.ignored != ignored {
            failures.append("ignored (\(order)): expected \(ignored), got \(result.ignored)")
        }
        if let retired, result.retired != retired {
            failures.append("retired (\(order)): expected \(retired), got \(result.retired)")
        }
        return failures + checkReports(result, order: order) + checkFirstJoin(result, order: order)
    }

    private static func describe(_ documents: [SyncScope: SyncDocument]) -> String {
        documents.sorted { $0.key < $1.key }.map { scope, document in
            "\(scope): {"
                + document.keys.compactMap { key in document[key].map { "\(key): \($0.jsonValue)" } }
                .joined(separator: ", ") + "}"
        }.joined(separator: "; ")
    }

    private static func describe(_ preferences: [SyncScope: Preferences]) -> String {
        preferences.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
    }

    private static func describe(_ merged: [ReplicaID: SyncStamp]) -> String {
        merged.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }
}
