import Foundation
import ReadingPreferences

/// A replica's own sync state (Specs/Sync.md §8), kept through the storage at
/// ``StorageLocation/syncState`` (`<root>/replica.json` for files, excluded from backups):
///
/// ```json
/// {
///   "format": "readingprefs-sync-state", "version": 1,
///   "replica": "4f2c9a1b7d3e",
///   "writers": ["9d41c07ab2e8"],
///   "clock": {"time": 1764000000900, "counter": 0},
///   "merged": {"4f2c9a1b7d3e": {"time": …, "counter": …, "replica": "4f2c9a1b7d3e"}},
///   "known": {"a81be07c55d0": {"seen": 1764000000000, "writer": "…", "merged": {…}}},
///   "scopes": ["epub/shared", "epub/publication/urn:isbn:978-0"],
///   "generation": 12
/// }
/// ```
///
/// `writers` are the writer ids of this replica's last writes of its replica file, newest
/// first; `known` holds every replica named by a file or a `merged` map, with what it had merged
/// when its file was last read, until it is retired; `scopes` are the documents that had a sync
/// snapshot after the last sync, so a document found without one is known to have lost it;
/// `generation` counts the syncs that changed documents. The sync lock is a document of its
/// own (``SyncLease``), so taking it never rewrites this one.
package struct SyncState: Sendable, Equatable {
    /// The format of the document.
    static let formatName = "readingprefs-sync-state"

    /// What this replica knows of another.
    package struct KnownReplica: Sendable, Equatable {
        /// When (local milliseconds) it was first named, or its file was last seen rewritten.
        var seen: UInt64
        /// The writer id of its file when last read.
        var writer: String?
        /// When it was retired, if it is retired now.
        var retired: UInt64?
        /// Since it came back after a retirement: the time before which its file's entries stay
        /// ignored, at every sync (Specs/Sync.md §5.7), so an entry older than its retirement
        /// never comes back with it.
        var ignoredBefore: UInt64?
        /// What it had merged when its file was last read; `nil` when its file was never read
        /// (then it holds every tombstone back until it is retired).
        var merged: [ReplicaID: SyncStamp]?

        package init(
            seen: UInt64, writer: String? = nil, retired: UInt64? = nil,
            merged: [ReplicaID: SyncStamp]? = nil,
            ignoredBefore: UInt64? = nil
        ) {
            self.seen = seen
            self.writer = writer
            self.retired = retired
            self.merged = merged
            self.ignoredBefore = ignoredBefore
        }
    }

    var replica: ReplicaID
    /// This device's display name ("Kobo Clara"), carried in its replica file.
    var name: String?
    /// The ids this replica had before (one an edit took before the first sync asked for
    /// another): the changes stamped with them are this device's.
    var former: [ReplicaID] = []
    /// Other devices' display names, as their files (or a server's state) gave them.
    var names: [ReplicaID: String] = [:]
    var writers: [String] = []
    var clockTime: UInt64 = 0
    var clockCounter: UInt64 = 0
    package var merged: [ReplicaID: SyncStamp] = [:]
    package var known: [ReplicaID: KnownReplica] = [:]
    package var scopes: Set<SyncScope> = []
    var generation: UInt64 = 0

    package init(replica: ReplicaID) { self.replica = replica }

    /// How many writer ids are remembered.
    static let writerMemory = 4

    /// Remembers a writer id of this replica's file.
    mutating func remember(writer: String) {
        writers.removeAll { $0 == writer }
        writers.insert(writer, at: 0)
        if writers.count > Self.writerMemory { writers.removeLast(writers.count - Self.writerMemory) }
    }

    // MARK: - JSON

    /// The document stored.
    package var document: Preferences {
        var members: [JSONObject.Member] = [
            .init(key: "format", value: .string(Self.formatName)), .init(key: "version", value: 1),
            .init(key: "replica", value: .string(replica.rawValue)),
        ]
        if let name { members.append(.init(key: "name", value: .string(name))) }
        if !former.isEmpty {
            members.append(.init(key: "former", value: .array(former.map { .string($0.rawValue) })))
        }
        members += [
            .init(key: "writers", value: .array(writers.map(JSONValue.string))),
            .init(
                key: "clock",
                value: [
                    "time": .number(JSONNumber(Int(clockTime))),
                    "counter": .number(JSONNumber(Int(clockCounter))),
                ]),
            .init(key: "merged", value: Self.json(merged)),
        ]
        // Members built in one pass: setting keys of a `JSONObject` one by one is linear each.
        let known = self.known.sorted(by: { $0.key < $1.key }).map { id, replica in
            var object: [JSONObject.Member] = [
                .init(key: "seen", value: .number(JSONNumber(Int(replica.seen))))
            ]
            if let writer = replica.writer { object.append(.init(key: "writer", value: .string(writer))) }
            if let retired = replica.retired {
                object.append(.init(key: "retired", value: .number(JSONNumber(Int(retired)))))
            }
            if let merged = replica.merged { object.append(.init(key: "merged", value: Self.json(merged))) }
            if let ignoredBefore = replica.ignoredBefore {
                object.append(.init(key: "ignoredBefore", value: .number(JSONNumber(Int(ignoredBefore)))))
            }
            return JSONObject.Member(key: id.rawValue, value: .object(JSONObject(members: object)))
        }
        members.append(.init(key: "known", value: .object(JSONObject(members: known))))
        if !names.isEmpty {
            members.append(
                .init(
                    key: "names",
                    value: .object(
                        JSONObject(
                            members: names.sorted(by: { $0.key < $1.key }).map {
                                JSONObject.Member(key: $0.key.rawValue, value: .string($0.value))
                            }))))
        }
        members.append(
            .init(key: "scopes", value: .array(scopes.sorted().map { .string($0.description) })))
        members.append(.init(key: "generation", value: .number(JSONNumber(Int(generation)))))
        return Preferences(members: members)
    }

    private static func json(_ stamps: [ReplicaID: SyncStamp]) -> JSONValue {
        .object(
            JSONObject(
                members: stamps.sorted(by: { $0.key < $1.key }).map {
                    JSONObject.Member(key: $0.key.rawValue, value: $0.value.jsonValue)
                }))
    }

    /// Reads a stored state; also the first format (`confirmed`, `pending`, `peers`).
    ///
    /// - Throws: ``SyncFormatError`` when it is not a sync state.
    init(document: Preferences) throws(SyncFormatError) {
        guard let text = document["replica"]?.stringValue, let id = ReplicaID(text) else {
            throw SyncFormatError("the sync state has no valid \"replica\"")
        }
        replica = id
        name = document["name"]?.stringValue
        former = (document["former"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(ReplicaID.init) }
        for member in document["names"]?.objectValue?.members ?? [] {
            if let id = ReplicaID(member.key), let name = member.value.stringValue { names[id] = name }
        }
        if let list = document["writers"]?.arrayValue {
            writers = list.compactMap(\.stringValue)
        } else {
            writers = ["pending", "confirmed"].compactMap { document[$0]?.stringValue }
        }
        if let clock = document["clock"]?.objectValue {
            clockTime = Self.integer(clock["time"]) ?? 0
            clockCounter = Self.integer(clock["counter"]) ?? 0
        }
        merged = Self.stamps(document["merged"])
        for member in document["known"]?.objectValue?.members ?? [] {
            guard let id = ReplicaID(member.key), let object = member.value.objectValue else { continue }
            known[id] = KnownReplica(
                seen: Self.integer(object["seen"]) ?? 0, writer: object["writer"]?.stringValue,
                retired: Self.integer(object["retired"]),
                merged: object["merged"].map { Self.stamps($0) },
                ignoredBefore: Self.integer(object["ignoredBefore"]))
        }
        // The first format kept each peer's merged map under "peers".
        for member in document["peers"]?.objectValue?.members ?? [] {
            guard let id = ReplicaID(member.key), known[id] == nil else { continue }
            known[id] = KnownReplica(
                seen: clockTime, writer: nil, retired: nil, merged: Self.stamps(member.value))
        }
        for value in document["scopes"]?.arrayValue ?? [] {
            if let text = value.stringValue, let scope = SyncScope(text) { scopes.insert(scope) }
        }
        generation = Self.integer(document["generation"]) ?? 0
    }

    private static func integer(_ value: JSONValue?) -> UInt64? {
        guard let integer = value?.numberValue?.integerValue, integer >= 0 else { return nil }
        return UInt64(integer)
    }

    private static func stamps(_ value: JSONValue?) -> [ReplicaID: SyncStamp] {
        var result: [ReplicaID: SyncStamp] = [:]
        for member in value?.objectValue?.members ?? [] {
            guard let stamp = try? SyncStamp(json: member.value), stamp.replica.rawValue == member.key else {
                continue
            }
            result[stamp.replica] = stamp
        }
        return result
    }
}
