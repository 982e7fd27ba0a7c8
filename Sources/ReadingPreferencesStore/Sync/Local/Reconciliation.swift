import ReadingPreferences

/// One sync's reasoning, with no I/O (Specs/Sync.md §5): what a replica keeps of the states it
/// reads, how it stamps its local changes, the merge, and what it forgets. A sync
/// (``SyncSession``) loads documents, runs these steps and writes the results; the sync vectors
/// run the same steps on states given as data.
///
/// 1. ``admit(_:source:)`` each remote state: drop entries stamped beyond the future limit and
///    old entries of a retired replica, learn every replica named, let the clock and the merged
///    map follow every stamp kept, and merge it into ``incoming`` (``ReplicaState/merge(_:)``).
/// 2. ``computeFloors()``: what every known, unretired replica has merged.
/// 3. For each document, ``stamp(_:document:snapshot:clock:)`` its changes since its snapshot,
///    ``settle(_:_:document:)`` it against ``incoming``, and ``commit(_:_:clock:)`` the result.
/// 4. ``published(writer:)`` is the state to publish; ``finishedState()`` the state to keep.
package struct Reconciliation: Sendable {
    /// The numbers a sync runs with, in milliseconds.
    package struct Settings: Sendable, Equatable {
        var now: UInt64
        var tombstoneHorizon: UInt64 = 30 * 86_400_000
        var retirementHorizon: UInt64 = 180 * 86_400_000
        var futureLimit: UInt64 = 86_400_000

        package init(now: UInt64, tombstoneHorizon: UInt64, retirementHorizon: UInt64, futureLimit: UInt64) {
            self.now = now
            self.tombstoneHorizon = tombstoneHorizon
            self.retirementHorizon = retirementHorizon
            self.futureLimit = futureLimit
        }

        init(now: UInt64) { self.now = now }
    }

    /// A local document as loaded.
    package enum LocalDocument: Sendable {
        case present(Preferences)
        case absent
        /// It exists but cannot be read: it stamps nothing and nothing is written to it.
        case unreadable(String)

        var preferences: Preferences? {
            if case .present(let preferences) = self { return preferences }
            return nil
        }
    }

    /// A document's snapshot as loaded.
    package enum Snapshot: Sendable {
        case present(SyncDocument)
        case absent
        /// It exists but cannot be trusted: the document counts as having lost it.
        case damaged(String)
    }

    /// A document's entries after stamping its local changes.
    package struct Stamped: Sendable {
        /// The entries: the snapshot's, with fresh stamps for what changed.
        var entries: SyncDocument
        /// The keys whose change could not be stamped (the clock was exhausted): they keep their
        /// snapshot entry and their local value this round.
        package var unstamped: Set<JSONScalarKey> = []
        /// The snapshot as it was, for the unstamped keys.
        var snapshot: SyncDocument?
        /// Whether the document is left alone this round (it cannot be read).
        var isSkipped = false
        /// Whether the document had lost its snapshot: its keys were stamped lowest.
        var lostHistory = false
        /// The local changes stamped: what this replica sends.
        var sent: [Sent] = []
        /// When the document is gone while its snapshot holds values: how many keys that
        /// removes.
        var removedDocument: Int?
        /// How many fresh stamps the clock made (changes found with no pending stamp).
        var fresh = 0
        /// Whether every key of the gone document was removed by an edit (each has a pending
        /// removal stamp): the store removed the document with its last key, nobody deleted the
        /// file.
        var removedByEdits = false
    }

    /// One local change a sync stamped, to send: a key's value as last synced and now.
    package struct Sent: Sendable, Hashable {
        var key: String
        var oldValue: JSONValue?
        var newValue: JSONValue?
        /// The stamp it was sent with.
        var stamp: SyncStamp
        /// Whether the sync found it (a hand edit, or an edit whose pending stamp was lost) and
        /// stamped it now, rather than sending the stamp an edit took.
        var isFound: Bool
    }

    /// What settling a document gives.
    package struct Settled: Sendable {
        /// The entries after the merge and compaction: what this replica publishes.
        var entries: SyncDocument
        /// What to store as the snapshot.
        var snapshot: SyncDocument
        /// The changes to apply to the document.
        package var changes: KeyChanges
        /// The same, for the report.
        var report: [SyncChange]
    }

    let settings: Settings
    /// The sync state, updated as the sync goes.
    private(set) var state: SyncState
    /// Whether the replica had never synced before.
    let isFirstSync: Bool
    /// At the first sync, the documents that differed from the ones read, with the choice that
    /// settles each (Specs/Sync.md §5.9); ``FirstJoinChoice/merge`` is left out (it is the rule of
    /// every sync).
    package var firstJoin: [SyncScope: FirstJoinChoice] = [:]
    /// The clock.
    package private(set) var clock: HybridClock
    /// Everything admitted, merged.
    package private(set) var incoming: ReplicaState
    /// What this replica holds after each settled document.
    private(set) var own: [SyncScope: SyncDocument] = [:]
    /// What was skipped, ignored or found, in order.
    package private(set) var problems: [SyncProblem] = []
    /// Per replica, the stamp every known, unretired replica has merged; `nil` until computed.
    var floors: [ReplicaID: SyncStamp]?
    /// Whether a known replica's merged map is unknown, which holds every tombstone back.
    var compactionBlocked = false
    /// Keys whose change waits for the clock, counted for one report.
    var exhausted = 0

    package init(state: SyncState, settings: Settings, isFirstSync: Bool) {
        self.state = state
        self.settings = settings
        self.isFirstSync = isFirstSync
        clock = HybridClock(replica: state.replica, time: state.clockTime, counter: state.clockCounter)
        incoming = ReplicaState(replica: state.replica)
        // Replicas not seen for the retirement horizon no longer hold tombstones back.
        for (id, known) in state.known
        where known.retired == nil && settings.now > known.seen
            && settings.now - known.seen > settings.retirementHorizon
        {
            self.state.known[id]?.retired = settings.now
            problems.append(.replicaRetired(id))
        }
    }

    /// Retires a replica now (a device known to be gone): it no longer holds removals back.
    /// `reported` is `false` for this replica's own old id, which its rename reports.
    mutating func retire(_ id: ReplicaID, reported: Bool = true) {
        guard id != state.replica, state.known[id]?.retired == nil else { return }
        state.known[id, default: SyncState.KnownReplica(seen: settings.now)].retired = settings.now
        if reported { problems.append(.replicaRetired(id)) }
    }

    // MARK: - 1. Admitting remote states

    /// The local replica's own last published state, read back: its entries are this replica's
    /// own history (a lost snapshot is recovered from it), merged without any filter.
    mutating func admitOwn(_ file: ReplicaFile) {
        observe(file.state.merged)
        incoming.merge(file.state)
    }

    /// Why a replica takes a new id.
    enum NewIDReason {
        /// Another device was found writing under this one: the old id's file is that device's
        /// from now on.
        case inUseElsewhere
        /// Asked for (``SyncOptions/newReplica``): a server refused the old id.
        case requested
    }

    /// Takes a new id.
    mutating func changeReplica(to id: ReplicaID, reason: NewIDReason) {
        let old = state.replica
        state.replica = id
        state.writers = []
        state.known[old] = SyncState.KnownReplica(seen: settings.now)
        clock = HybridClock(replica: id, time: clock.time, counter: clock.counter)
        incoming.replica = id
        switch reason {
        case .inUseElsewhere: problems.append(.replicaIDInUse(old, newID: id))
        case .requested:
            // Still this device: its changes under the old id are its own.
            state.former.append(old)
            problems.append(.replicaRenamed(old, newID: id))
        }
    }

    /// Admits another replica's state (Specs/Sync.md §5.3).
    ///
    /// - Parameters:
    ///   - file: The state as read.
    ///   - source: Where it came from (a file name), for reports.
    package mutating func admit(_ file: ReplicaFile, source: String) {
        for line in file.skipped { problems.append(.skippedEntry(source: source, detail: line)) }
        var remote = file.state
        let id = remote.replica
        var known = state.known[id] ?? SyncState.KnownReplica(seen: settings.now)
        let rewritten = known.writer != remote.writer
        // Entries older than a retirement stay ignored while the replica is retired, and after
        // it came back too (Specs/Sync.md §5.7): its file may still hold values others removed
        // and forgot since.
        let retirement = known.retired
        if let retired = retirement {
            if rewritten {
                known.retired = nil
                known.seen = settings.now
                known.ignoredBefore = max(known.ignoredBefore ?? 0, retired)
            }
        } else if rewritten {
            known.seen = settings.now
        }
        let cutoff = retirement ?? known.ignoredBefore
        known.writer = remote.writer
        // A replica's own file names it; what it says of others fills in names not known yet.
        if let name = remote.name { state.names[id] = name }
        for (other, name) in remote.names where other != state.replica && state.names[other] == nil {
            state.names[other] = name
        }
        let limit = settings.now &+ settings.futureLimit
        var ignored = 0
        let keep: (SyncEntry) -> Bool = { entry in
            entry.stamp.time <= limit && cutoff.map { entry.stamp.time >= $0 } != false
        }
        // Most files need no filtering: look before copying anything.
        if remote.documents.values.contains(where: { $0.entries.values.contains { !keep($0) } }) {
            var documents: [SyncScope: SyncDocument] = [:]
            for (scope, document) in remote.documents {
                var kept = document
                for (key, entry) in document.all where !keep(entry) {
                    if entry.stamp.time > limit {
                        problems.append(
                            .futureStamp(source: source, scope: scope, key: key, stamp: entry.stamp))
                    } else {
                        ignored += 1
                    }
                    kept[key] = nil
                }
                documents[scope] = kept
            }
            remote = ReplicaState(replica: id, writer: remote.writer, documents: documents)
            remote.setMerged(file.state.merged.filter { $0.value.time <= limit })
        } else if remote.merged.values.contains(where: { $0.time > limit }) {
            remote.setMerged(remote.merged.filter { $0.value.time <= limit })
        }
        if let retired = retirement, rewritten {
            problems.append(.retiredReplicaReturned(id, retiredAt: retired, ignoredEntries: ignored))
        }
        if retirement == nil || rewritten { known.merged = remote.merged }
        state.known[id] = known
        for named in remote.merged.keys where named != state.replica && state.known[named] == nil {
            state.known[named] = SyncState.KnownReplica(seen: settings.now)
        }
        observe(remote.merged)
        incoming.merge(remote)
    }

    /// Lets the clock and the merged map follow stamps read (Specs/Sync.md §4).
    mutating func observe(_ stamps: [ReplicaID: SyncStamp]) {
        for stamp in stamps.values {
            clock.observe(stamp)
            note(stamp)
        }
    }

    mutating func note(_ stamp: SyncStamp) {
        if state.merged[stamp.replica].map({ $0 < stamp }) ?? true { state.merged[stamp.replica] = stamp }
    }

    // MARK: - 2. Floors

    /// Computes, per replica, the stamp every known, unretired replica has merged: a tombstone
    /// at or below it, older than the horizon, can be forgotten. Linear in the maps' sizes.
    package mutating func computeFloors() {
        let others = state.known.filter { $0.key != state.replica && $0.value.retired == nil }
        compactionBlocked = others.values.contains { $0.merged == nil }
        var floors: [ReplicaID: SyncStamp] = [:]
        var counts: [ReplicaID: Int] = [:]
        for replica in others.values {
            for (origin, stamp) in replica.merged ?? [:] {
                counts[origin, default: 0] += 1
                if floors[origin].map({ stamp < $0 }) ?? true { floors[origin] = stamp }
            }
        }
        self.floors = floors.filter { counts[$0.key] == others.count }
        if others.isEmpty { self.floors = nil }
    }

    /// Whether a removal can be forgotten (Specs/Sync.md §5.6).
    func isForgettable(_ entry: SyncEntry) -> Bool {
        guard entry.isRemoval, !compactionBlocked, settings.now > entry.stamp.time,
            settings.now - entry.stamp.time > settings.tombstoneHorizon
        else { return false }
        // No other replica known: only this one needs to have merged it, and it has.
        guard let floors else { return true }
        return floors[entry.stamp.replica].map { !($0 < entry.stamp) } ?? false
    }

    package mutating func commit(_ scope: SyncScope, _ settled: Settled, clock: HybridClock, unstamped: Int) {
        self.clock = clock
        for (_, entry) in settled.entries.all { note(entry.stamp) }
        own[scope] = settled.entries.isEmpty ? nil : settled.entries
        if settled.snapshot.isEmpty {
            state.scopes.remove(scope)
        } else {
            state.scopes.insert(scope)
        }
        exhausted += unstamped
    }

    /// Moves the clock on to stamps made for a document whose write must be tried again (a
    /// stamp is never made twice), or to the replica clock every edit ticks.
    package mutating func advanceClock(to clock: HybridClock) {
        self.clock = clock
    }

    /// Records a problem found while loading documents.
    mutating func report(_ problem: SyncProblem) {
        problems.append(problem)
    }

    // MARK: - 4. Results

    /// The state to publish: every document's entries, and the merged map.
    package func published(writer: String) -> ReplicaState {
        var result = ReplicaState(replica: state.replica, writer: writer, documents: own)
        result.name = state.name
        result.names = state.names
        result.setMerged(state.merged)
        return result
    }

    /// The sync state to keep, and the last problem (a clock that waits) reported.
    mutating func finishedState() -> SyncState {
        if exhausted > 0 {
            problems.append(.clockExhausted(keys: exhausted, until: clock.time))
            exhausted = 0
        }
        var finished = state
        finished.clockTime = clock.time
        finished.clockCounter = clock.counter
        return finished
    }
}
