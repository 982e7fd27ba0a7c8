import ReadingPreferences

/// One device's synced state in memory (SPEC 10): its documents as a person and the store see
/// them, the stamps of its sidecars, its clock, and what every replica has merged. The file
/// ``Synchronizer`` loads it from a root and writes it back; tests drive it directly.
///
/// ```swift
/// var phone = LocalReplica(replica: "phone")
/// phone.documents[shared] = ["fontSize": 1.4]
/// let outcome = phone.reconcile(with: [tablet.state], now: now)
/// ```
public struct LocalReplica: Sendable, Hashable {
    /// The clock, which knows the replica's id.
    public var clock: HybridClock
    /// The documents: what the plain files hold (reserved `$id` aside).
    public var documents: [SyncScope: Preferences]
    /// The sidecars: per key, the last value (or removal) stamped.
    public var stamps: [SyncScope: [String: SyncEntry]]
    /// The highest stamp merged from each replica (this one's own included).
    public var merged: [String: SyncStamp]
    /// What every other known replica has merged, as its file last said: a removal is forgotten
    /// only once all of them have merged past it.
    public var peers: [String: [String: SyncStamp]]

    /// Creates an empty replica.
    ///
    /// - Parameters:
    ///   - replica: The replica's id.
    ///   - documents: Its documents.
    public init(replica: String, documents: [SyncScope: Preferences] = [:]) {
        clock = HybridClock(replica: replica)
        self.documents = documents
        stamps = [:]
        merged = [:]
        peers = [:]
    }

    /// The replica's id.
    public var replica: String { clock.replica }

    /// The state this replica publishes: its file in the mirror folder.
    public var state: ReplicaState {
        ReplicaState(replica: replica, documents: stamps, merged: merged)
    }

    /// Whether a key syncs: every key but `$id`, which a file storage writes into a
    /// publication's file (its scope names the publication already).
    static func isSynced(_ key: String) -> Bool { key != "$id" }

    /// Gives a fresh stamp to every key whose value differs from its last stamped value (an edit
    /// through the store, or a hand edit of the file), and a removal stamp to every stamped key
    /// that is gone (SPEC 10).
    ///
    /// - Parameter now: The wall clock, in milliseconds since 1970.
    /// - Returns: The scopes and keys stamped.
    @discardableResult
    public mutating func stampChanges(now: Int64) -> [(scope: SyncScope, key: String)] {
        var stamped: [(scope: SyncScope, key: String)] = []
        for scope in Set(documents.keys).union(stamps.keys).sorted() {
            let document = documents[scope] ?? Preferences()
            var entries = stamps[scope] ?? [:]
            for member in document.members
            where Self.isSynced(member.key) && entries[member.key]?.value != member.value {
                entries[member.key] = SyncEntry(value: member.value, stamp: clock.tick(now: now))
                stamped.append((scope, member.key))
            }
            for (key, entry) in entries.sorted(by: { $0.key < $1.key })
            where !entry.isRemoval && document[key] == nil {
                entries[key] = SyncEntry(value: nil, stamp: clock.tick(now: now))
                stamped.append((scope, key))
            }
            stamps[scope] = entries
        }
        if !stamped.isEmpty { note(clock.last) }
        return stamped
    }

    /// Reconciles with other replicas' states (SPEC 10): stamps local changes, keeps per key
    /// the entry with the greatest stamp, applies the winners to the documents, and forgets
    /// removals that every known replica has merged past and that are older than the horizon.
    ///
    /// - Parameters:
    ///   - remotes: The other replicas' states (this replica's own is ignored).
    ///   - now: The wall clock, in milliseconds since 1970.
    ///   - tombstoneHorizon: How old a removal must be before it can be forgotten, in
    ///     milliseconds (default 30 days).
    ///   - futureLimit: How far ahead of `now` a remote stamp may be (default 24 hours); later
    ///     ones are ignored and reported.
    /// - Returns: The changes applied to the documents, and the stamps ignored.
    public mutating func reconcile(
        with remotes: [ReplicaState], now: Int64, tombstoneHorizon: Int64 = 30 * 86_400_000,
        futureLimit: Int64 = 86_400_000
    ) -> ReconcileOutcome {
        stampChanges(now: now)
        var outcome = ReconcileOutcome()
        let limit = now &+ futureLimit
        for remote in remotes where remote.replica != replica {
            for (scope, entries) in remote.documents {
                for (key, entry) in entries {
                    guard entry.stamp.time <= limit else {
                        outcome.ignored.append(
                            IgnoredStamp(replica: remote.replica, scope: scope, key: key, stamp: entry.stamp))
                        continue
                    }
                    clock.observe(entry.stamp)
                    note(entry.stamp)
                    if let current = stamps[scope]?[key], !entry.wins(over: current) { continue }
                    stamps[scope, default: [:]][key] = entry
                    var document = documents[scope] ?? Preferences()
                    let old = document[key]
                    guard old != entry.value else { continue }
                    document[key] = entry.value
                    documents[scope] = document
                    outcome.changes.append(
                        SyncChange(scope: scope, key: key, oldValue: old, newValue: entry.value))
                }
            }
            var vector: [String: SyncStamp] = [:]
            for (origin, stamp) in remote.merged where stamp.time <= limit {
                vector[origin] = stamp
                note(stamp)
            }
            peers[remote.replica] = vector
        }
        compact(now: now, horizon: tombstoneHorizon)
        outcome.changes.sort { ($0.scope, $0.key) < ($1.scope, $1.key) }
        return outcome
    }

    /// Records that a stamp has been merged.
    private mutating func note(_ stamp: SyncStamp) {
        if merged[stamp.replica].map({ $0 < stamp }) ?? true { merged[stamp.replica] = stamp }
    }

    /// Forgets removals older than the horizon that every known replica has merged past.
    private mutating func compact(now: Int64, horizon: Int64) {
        let vectors = Array(peers.values) + [merged]
        for scope in Array(stamps.keys) {
            guard var entries = stamps[scope] else { continue }
            for (key, entry) in entries where entry.isRemoval && entry.stamp.time < now &- horizon {
                let everyoneHasIt = vectors.allSatisfy { vector in
                    vector[entry.stamp.replica].map { !($0 < entry.stamp) } ?? false
                }
                if everyoneHasIt { entries[key] = nil }
            }
            stamps[scope] = entries.isEmpty ? nil : entries
            if entries.isEmpty, documents[scope]?.isEmpty ?? true { documents[scope] = nil }
        }
    }
}

/// What a reconciliation did.
public struct ReconcileOutcome: Sendable, Hashable {
    /// The changes applied to the documents, sorted by scope and key.
    public var changes: [SyncChange] = []
    /// The remote stamps ignored for being too far in the future.
    public var ignored: [IgnoredStamp] = []
}

/// One key changed by a sync: in which document, from what, to what.
public struct SyncChange: Sendable, Hashable, CustomStringConvertible {
    /// The document.
    public var scope: SyncScope
    /// The key.
    public var key: String
    /// The value before; `nil` when there was none.
    public var oldValue: JSONValue?
    /// The value after; `nil` when the key was removed.
    public var newValue: JSONValue?

    /// `scope key old → new`.
    public var description: String {
        "\(scope) \(key) \(oldValue?.jsonString() ?? "(none)") → \(newValue?.jsonString() ?? "(removed)")"
    }
}

/// A remote stamp ignored for being more than the future limit ahead of the local clock.
public struct IgnoredStamp: Sendable, Hashable, CustomStringConvertible {
    /// The replica whose file holds it.
    public var replica: String
    /// The document.
    public var scope: SyncScope
    /// The key.
    public var key: String
    /// The stamp.
    public var stamp: SyncStamp

    /// One line.
    public var description: String {
        "\(replica): \(scope) \(key) is stamped \(stamp), too far in the future; ignored"
    }
}
