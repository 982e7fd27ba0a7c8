import ReadingPreferences
import ReadingPreferencesStore

/// A reconciliation given as data (`Specs/Sync.md` §9): a local replica's state, the states it reads,
/// its clock, horizons and known replicas. The sync vectors run it, so the future bound, the
/// clock rule and compaction are checked on the same steps a sync runs.
package struct ReconciliationInput: Sendable {
    /// What the local replica knows of another, before the sync.
    package struct Known: Sendable, Hashable {
        package var seen: UInt64
        package var retired: UInt64?
        package var merged: [ReplicaID: SyncStamp]?
        /// Since it came back after a retirement: its entries older than this stay ignored.
        package var ignoredBefore: UInt64?

        package init(
            seen: UInt64, retired: UInt64?, merged: [ReplicaID: SyncStamp]?, ignoredBefore: UInt64? = nil
        ) {
            self.seen = seen
            self.retired = retired
            self.merged = merged
            self.ignoredBefore = ignoredBefore
        }
    }

    /// What the reconciliation gives.
    package struct Output: Sendable {
        /// The local replica's state afterwards: what it publishes.
        package var state: ReplicaState
        /// The clock afterwards.
        package var clockTime: UInt64
        package var clockCounter: UInt64
        /// The entries ignored as stamped too far ahead: `scope key`.
        package var ignored: [String]
        /// The replicas retired.
        package var retired: [ReplicaID]
        /// The entries (and scopes, and `merged` stamps) the reader skipped in the states it
        /// admitted, one line each: `documents.<scope>.<key>: <why>`.
        package var skipped: [String]
        /// The local documents afterwards, the sync's changes applied (a document left with no
        /// keys is gone).
        package var documents: [SyncScope: Preferences]
        /// At a first sync, the differing keys of each local document that differs from what was
        /// admitted (Specs/Sync.md §5.9).
        package var differences: [SyncScope: [String]] = [:]
    }

    /// How a first sync goes (Specs/Sync.md §5.9).
    package enum FirstSync: Sendable, Hashable {
        /// With no choice: when documents differ, the sync stops and writes nothing.
        case ask
        /// With this choice.
        case choosing(FirstJoinChoice)
    }

    package var replica: ReplicaID
    package var local: ReplicaState?
    package var remotes: [(source: String, file: ReplicaFile)]
    package var now: UInt64
    package var tombstoneHorizon: UInt64
    package var retirementHorizon: UInt64
    package var futureLimit: UInt64 = 86_400_000
    package var known: [ReplicaID: Known]
    /// The local documents now, when they differ from the local state's entries (the changes
    /// since the last sync); `nil`: they hold exactly its entries' values.
    package var documents: [SyncScope: Preferences]?
    /// The pending stamps the local edits took (Specs/Sync.md §5.4), per document.
    package var pending: [SyncScope: SyncDocument] = [:]
    /// Whether this is the replica's first sync, and how it goes; `nil`: a later sync.
    package var firstSync: FirstSync?

    package init(
        replica: ReplicaID, local: ReplicaState?, remotes: [(source: String, file: ReplicaFile)], now: UInt64,
        tombstoneHorizon: UInt64, retirementHorizon: UInt64, known: [ReplicaID: Known]
    ) {
        self.replica = replica
        self.local = local
        self.remotes = remotes
        self.now = now
        self.tombstoneHorizon = tombstoneHorizon
        self.retirementHorizon = retirementHorizon
        self.known = known
    }

    /// Runs the reconciliation: the local documents hold the values of the local state's
    /// entries (nothing to stamp) or ``documents``, with ``pending`` stamps, and every remote
    /// state is admitted in order.
    package func run() -> Output {
        var state = SyncState(replica: replica)
        state.merged = local?.merged ?? [:]
        for (id, known) in known {
            state.known[id] = SyncState.KnownReplica(
                seen: known.seen, writer: nil, retired: known.retired, merged: known.merged,
                ignoredBefore: known.ignoredBefore)
        }
        let documents = local?.documents ?? [:]
        state.scopes = Set(documents.keys)
        var reconciliation = Reconciliation(
            state: state,
            settings: .init(
                now: now, tombstoneHorizon: tombstoneHorizon, retirementHorizon: retirementHorizon,
                futureLimit: futureLimit),
            isFirstSync: firstSync != nil)
        for remote in remotes { reconciliation.admit(remote.file, source: remote.source) }
        reconciliation.computeFloors()
        var differences: [SyncScope: [String]] = [:]
        if let firstSync {
            for scope in reconciliation.incoming.documents.keys {
                let local = self.documents.map { $0[scope] ?? Preferences() } ?? documents[scope]?.values
                let keys = reconciliation.firstJoinDifferences(scope, local: local ?? Preferences())
                if !keys.isEmpty { differences[scope] = keys }
            }
            switch firstSync {
            case .ask where !differences.isEmpty:
                // The sync stops: nothing is published, and the documents stay as they are.
                return Output(
                    state: ReplicaState(replica: replica), clockTime: reconciliation.clock.time,
                    clockCounter: reconciliation.clock.counter, ignored: [], retired: [], skipped: [],
                    documents: self.documents
                        ?? documents.compactMapValues { $0.values.isEmpty ? nil : $0.values },
                    differences: differences)
            case .choosing(let choice) where choice != .merge:
                for scope in differences.keys { reconciliation.firstJoin[scope] = choice }
            default: break
            }
        }
        // The replica clock (Specs/Sync.md §8), which every edit ticked, is past every pending
        // stamp of every document; the sync shares it before stamping anything, so a fresh stamp
        // in one document is above the pending stamps of all of them (as `SyncSession` does).
        var shared = reconciliation.clock
        for document in pending.values {
            for (_, entry) in document.all { shared.observe(entry.stamp) }
        }
        reconciliation.advanceClock(to: shared)
        var after: [SyncScope: Preferences] = [:]
        let scopes = Set(documents.keys).union(reconciliation.incoming.documents.keys)
            .union(self.documents.map { Array($0.keys) } ?? []).union(pending.keys)
        for scope in scopes.sorted() {
            let entries = documents[scope]
            let values = self.documents.map { $0[scope] ?? Preferences() } ?? entries?.values ?? Preferences()
            let document: Reconciliation.LocalDocument = values.isEmpty ? .absent : .present(values)
            var clock = reconciliation.clock
            let stamped = reconciliation.stamp(
                scope, document: document, snapshot: entries.map { .present($0) } ?? .absent,
                pending: pending[scope] ?? SyncDocument(), clock: &clock)
            let settled = reconciliation.settle(scope, stamped, document: document)
            reconciliation.commit(scope, settled, clock: clock, unstamped: stamped.unstamped.count)
            // Applied as the document-write step applies them: a key in place keeps its place.
            let written = settled.changes.applied(to: values)
            if !written.isEmpty { after[scope] = written }
        }
        var ignored: [String] = []
        var retired: [ReplicaID] = []
        var skipped: [String] = []
        for problem in reconciliation.problems {
            switch problem {
            case .futureStamp(_, let scope, let key, _): ignored.append("\(scope) \(key)")
            case .replicaRetired(let id): retired.append(id)
            case .skippedEntry(_, let detail): skipped.append(detail)
            default: break
            }
        }
        return Output(
            state: reconciliation.published(writer: ""), clockTime: reconciliation.clock.time,
            clockCounter: reconciliation.clock.counter, ignored: ignored, retired: retired, skipped: skipped,
            documents: after, differences: differences)
    }
}
