import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One sync of a storage with a transport (Specs/Sync.md §5): the I/O around ``Reconciliation``.
/// Every document, snapshot and the sync state are read and written through the storage, so any
/// storage syncs; replica states travel through the transport.
///
/// 1. Take the sync lock: a lease in the sync state, taken by a conditional save, so one sync at
///    a time runs per storage; a second one waits, or reports busy, and never takes a new id.
/// 2. Receive every replica's state; admit them (the replica's own file, read back, restores
///    what a lost snapshot forgot; another writer in it means a second device uses this id).
/// 3. For each document: load it and its snapshot, stamp its changes, settle it, and save both
///    at the versions loaded; on a conflict (an edit landed meanwhile), do it again, so an edit
///    is either in this round's snapshot or stamped in the next, never lost or overwritten.
/// 4. Record the new writer id, publish this replica's state, and release the lock.
struct SyncSession {
    let storage: any PreferencesStorage
    let transport: any ReplicaTransport
    let options: SyncOptions
    /// Who holds the lock: this sync.
    let holder = ReplicaID.random().rawValue

    init(storage: any PreferencesStorage, transport: any ReplicaTransport, options: SyncOptions) {
        self.storage = storage
        self.transport = transport
        self.options = options
    }

    /// What a sync did: its report, and the documents it changed.
    struct Outcome: Sendable {
        var report: SyncReport
        var changed: Set<SyncScope>
    }

    /// Runs the sync.
    func run() async throws -> Outcome {
        var report = SyncReport()
        report.problems += try await transport.prepare(localFolder: storage.folder)
        var lock = try await acquire()
        do {
            let outcome = try await synchronize(&lock, report: report)
            try await release(lock)
            return outcome
        } catch {
            try? await release(lock)
            throw error
        }
    }

    // MARK: - The steps

    private func synchronize(_ lock: inout Lock, report: SyncReport) async throws -> Outcome {
        var report = report
        let now = options.nowMilliseconds
        let (initial, stateVersion, isFirstSync) = try await loadState(problems: &report.problems)
        if let requested = options.replica, requested != initial.replica, !isFirstSync, !options.newReplica {
            report.problems.append(.replicaMismatch(requested: requested, actual: initial.replica))
        }
        var reconciliation = Reconciliation(
            state: initial, settings: options.settings(now: now), isFirstSync: isFirstSync)
        if options.newReplica, !isFirstSync {
            let old = initial.replica
            // The id asked for, unless it is the one refused: then a random one.
            let new = options.replica.flatMap { $0 == old ? nil : $0 } ?? ReplicaID.random()
            reconciliation.changeReplica(to: new, reason: .requested)
            reconciliation.retire(old, reported: false)
        }
        for id in options.retire { reconciliation.retire(id) }

        let inbox = try await transport.receive(for: initial.replica)
        for problem in inbox.problems { reconciliation.report(problem) }
        if let own = inbox.own {
            if initial.writers.contains(own.file.state.writer) {
                reconciliation.admitOwn(own.file)
            } else {
                reconciliation.changeReplica(
                    to: ReplicaID.random(prefix: initial.replica.rawValue), reason: .inUseElsewhere)
                reconciliation.admit(own.file, source: own.source)
            }
        }
        for other in inbox.others { reconciliation.admit(other.file, source: other.source) }
        reconciliation.computeFloors()
        if isFirstSync { report.firstJoin = try await settleFirstJoin(&reconciliation) }
        // Edits made from now on come after everything read: the replica clock, which every
        // edit ticks, goes past it; and this sync stamps above every edit made so far.
        try await shareClock(&reconciliation)

        var changed = Set<SyncScope>()
        var scopes = try await localScopes(reconciliation: &reconciliation)
        scopes.formUnion(reconciliation.incoming.documents.keys)
        scopes.formUnion(initial.scopes)
        for scope in scopes.sorted() {
            let settlement = try await settle(scope, &reconciliation)
            if !settlement.received.isEmpty { changed.insert(scope) }
            report.changes += settlement.received
            report.sent += settlement.sent
            if let removed = settlement.removedDocument, removed.keys > 0 {
                report.removedDocuments.append(removed)
            }
            try await renewIfNeeded(&lock)
        }

        try await shareClock(&reconciliation)
        var finished = reconciliation.finishedState()
        if !changed.isEmpty { finished.generation &+= 1 }
        // Every sync publishes, under a new writer id (Specs/Sync.md §5.8): a replica whose file
        // is never rewritten looks gone to the others, which retire it after their horizon.
        let published = reconciliation.published(writer: ReplicaID.random().rawValue)
        finished.remember(writer: published.writer)
        // The writer id is kept before the file is written: a crash between the two never looks
        // like another device writing under this id.
        do {
            do throws(StorageError) {
                _ = try await storage.save(finished.document, to: .syncState, expecting: stateVersion)
            } catch {
                guard error.code == .conflict else { throw error }
                throw SyncError.busy("another sync changed this store's sync state")
            }
        }
        report.problems += reconciliation.problems
        report.problems += try await transport.publish(published)
        report.replica = finished.replica
        return Outcome(report: report, changed: changed)
    }

    /// The sync state, or a new one at the first sync; a damaged one is set aside and reported,
    /// and the replica starts again under a new id.
    private func loadState(problems: inout [SyncProblem]) async throws -> (SyncState, StorageVersion?, Bool) {
        for _ in 0..<8 {
            let (state, version, isFirstSync) = try await loadStoredState(problems: &problems)
            if version != nil { return (state, version, isFirstSync) }
            // The id is kept before anything else, so an edit made while this first sync runs
            // takes its pending stamps under it instead of making a state of its own.
            do throws(StorageError) {
                let version = try await storage.save(state.document, to: .syncState, expecting: nil)
                return (state, version, true)
            } catch {
                guard error.code == .conflict else { throw error }
            }
        }
        throw SyncError.busy("the sync state keeps changing")
    }

    private func loadStoredState(problems: inout [SyncProblem]) async throws -> (
        SyncState, StorageVersion?, Bool
    ) {
        let (stored, problem) = try await storage.loadRepairing(.syncState)
        if let problem { problems.append(.documentSetAside(problem.message)) }
        if let stored {
            do throws(SyncFormatError) {
                var state = try SyncState(document: stored.preferences)
                // A state an edit made (its id, for pending stamps) that never synced: this is
                // still the first sync, and the id asked for is taken (pending stamps made under
                // the other one are relabelled when they are used).
                guard state.writers.isEmpty else { return (state, stored.version, false) }
                if let requested = options.replica, requested != state.replica {
                    // Edits made under the id they took are this device's still (history names
                    // them by it).
                    state.former.append(state.replica)
                    state.replica = requested
                }
                return (state, stored.version, true)
            } catch {
                let aside = try await storage.quarantine(
                    .syncState, expecting: stored.version, replacement: nil)
                problems.append(
                    .documentSetAside("the sync state is damaged (\(error)); moved to \(aside.movedTo)"))
            }
        }
        return (SyncState(replica: options.replica ?? ReplicaID.random()), nil, true)
    }

    /// Every synced document the storage holds, or held at the last sync.
    private func localScopes(reconciliation: inout Reconciliation) async throws -> Set<SyncScope> {
        var scopes = Set<SyncScope>()
        for configurable in try await storage.configurables() {
            guard let shared = SyncScope(configurable: configurable, layer: .shared) else {
                reconciliation.report(.skippedConfigurable(configurable))
                continue
            }
            scopes.insert(shared)
            // Specs/Sync.md §1: the rules document syncs, when there is one or was one at the last
            // sync (its removal to send).
            if let rules = SyncScope(configurable: configurable, layer: .rules),
                await isPresent(rules)
            {
                scopes.insert(rules)
            }
            // Profiles, device classes (every class, whatever this device's: Specs/Sync.md §1) and
            // publications, with a document or a snapshot.
            for kind in StorageKind.documents + StorageKind.snapshots {
                for id in try await storage.names(of: kind, configurable: configurable) {
                    if let scope = SyncScope(configurable: configurable, layer: kind.layer(id)) {
                        scopes.insert(scope)
                    }
                }
            }
        }
        return scopes
    }

    /// Makes the replica clock (``PreferencesStorage/updateReplicaClock(_:)``) and this sync's
    /// agree: each follows the other, and the clock takes this replica's id.
    private func shareClock(_ reconciliation: inout Reconciliation) async throws {
        let own = reconciliation.clock
        let shared = try await storage.updateReplicaClock { clock -> HybridClock in
            var merged = own
            if let clock { merged.observe(clock.last) }
            clock = merged
            return merged
        }
        reconciliation.advanceClock(to: shared)
    }

    /// Stamps, settles and writes one document, again while an edit lands meanwhile.
    private func settle(_ scope: SyncScope, _ reconciliation: inout Reconciliation) async throws
        -> Settlement
    {
        // The document as the previous attempt read it: what an edit changed since then is fresh.
        var earlier: Preferences?
        var sent: [SyncChange] = []
        var removedDocument: SyncReport.RemovedDocument?
        let received = try await retryingOnConflict(scope.location) { () async throws -> [SyncChange] in
            let (document, documentVersion) = try await loadDocument(scope, &reconciliation)
            let (snapshot, pending, snapshotVersion, cursor) = try await loadSnapshot(scope, &reconciliation)
            defer { earlier = document.preferences ?? Preferences() }
            let (stamped, clock) = try await stamp(
                scope, document: document, snapshot: snapshot, pending: pending, earlier: earlier,
                reconciliation)
            reconciliation.advanceClock(to: clock)
            let settled = reconciliation.settle(scope, stamped, document: document)
            // The snapshot changes with the document, in the one document-write step's batch.
            var snapshotChanges: [DocumentChange] = []
            if case .present(let old) = snapshot, old == settled.snapshot, pending.isEmpty,
                stamped.sent.isEmpty
            {
                // Unchanged (a sidecar is written again once the journal has changes past its
                // cursor: they are in the snapshot now, or no longer hold their value).
            } else if settled.snapshot.isEmpty {
                if let snapshotVersion {
                    snapshotChanges.append(.remove(scope.snapshotLocation, expecting: snapshotVersion))
                }
            } else {
                snapshotChanges.append(
                    .save(
                        SyncSnapshot.document(settled.snapshot, journal: cursor), to: scope.snapshotLocation,
                        expecting: snapshotVersion))
            }
            // A document that cannot be read is never written, nor checked. One that changed
            // since it was read fails the batch (the retry reads it again), even when only the
            // snapshot is written: the step checks a document it leaves alone.
            var edits: [DocumentEdit] = []
            var loaded: [StorageLocation: StoredDocument?] = [:]
            if case .unreadable = document {
                // Left alone.
            } else {
                var edit = DocumentEdit.keys(settled.changes, at: scope.location)
                // What this sync found changed and stamped (hand edits), and what other devices
                // changed that this one learns of now without applying it (a later change won),
                // join the journal with the document's write.
                edit.found =
                    stamped.sent.filter(\.isFound).map {
                        JournalEntry(
                            key: $0.key, oldValue: $0.oldValue, newValue: $0.newValue,
                            origin: reconciliation.firstJoin[scope] == nil ? .handEdit : .firstJoin,
                            time: $0.stamp.time, stamp: $0.stamp)
                    } + reconciliation.learned(scope, snapshot: snapshot, settled: settled)
                edits.append(edit)
                loaded[scope.location] = .some(
                    document.preferences.flatMap { preferences in
                        documentVersion.map { StoredDocument(preferences: preferences, version: $0) }
                    })
            }
            _ = try await storage.write(
                edits, on: loaded, alongside: snapshotChanges,
                recording: reconciliation.arrivals(scope, settled))
            reconciliation.commit(scope, settled, clock: clock, unstamped: stamped.unstamped.count)
            sent = stamped.sent.map {
                SyncChange(scope: scope, key: $0.key, oldValue: $0.oldValue, newValue: $0.newValue)
            }
            removedDocument = stamped.removedDocument.map {
                SyncReport.RemovedDocument(
                    scope: scope, keys: $0, cause: stamped.removedByEdits ? .lastKeyRemoved : .fileDeleted)
            }
            if stamped.lostHistory { reconciliation.report(.documentWithoutHistory(scope)) }
            if case .unreadable(let reason) = document {
                reconciliation.report(.documentUnreadable(scope, reason))
            }
            return settled.report
        }
        return Settlement(received: received, sent: sent, removedDocument: removedDocument)
    }

    /// A document's changes stamped: from this sync's clock alone when they need no fresh stamp
    /// (nothing changed, or every change has its edit's pending stamp), else again under the
    /// replica clock's lock, so a fresh stamp is above every stamp an edit in any process made.
    private func stamp(
        _ scope: SyncScope, document: Reconciliation.LocalDocument, snapshot: Reconciliation.Snapshot,
        pending: SyncDocument, earlier: Preferences?, _ reconciliation: Reconciliation
    ) async throws -> (Reconciliation.Stamped, HybridClock) {
        var probe = reconciliation.clock
        let first = reconciliation.stamp(
            scope, document: document, snapshot: snapshot, pending: pending, clock: &probe, earlier: earlier)
        guard first.fresh > 0 else { return (first, probe) }
        return try await storage.updateReplicaClock { shared in
            var clock = reconciliation.clock
            if let shared { clock.observe(shared.last) }
            let stamped = reconciliation.stamp(
                scope, document: document, snapshot: snapshot, pending: pending, clock: &clock,
                earlier: earlier)
            shared = clock
            return (stamped, clock)
        }
    }

    /// What settling one document did.
    struct Settlement {
        /// The keys changed here.
        var received: [SyncChange]
        /// The local changes stamped, which this replica sends.
        var sent: [SyncChange]
        /// When the document was gone: how many keys its removal removes, and why it was gone.
        var removedDocument: SyncReport.RemovedDocument?
    }

    private func loadDocument(_ scope: SyncScope, _ reconciliation: inout Reconciliation) async throws -> (
        Reconciliation.LocalDocument, StorageVersion?
    ) {
        do throws(StorageError) {
            let (document, problem) = try await storage.loadRepairing(scope.location)
            if let problem { reconciliation.report(.documentSetAside(problem.message)) }
            guard let document else { return (.absent, nil) }
            return (.present(document.preferences), document.version)
        } catch {
            guard error.code == .io else { throw error }
            return (.unreadable(error.message), nil)
        }
    }

    private func loadSnapshot(_ scope: SyncScope, _ reconciliation: inout Reconciliation) async throws -> (
        Reconciliation.Snapshot, pending: SyncDocument, StorageVersion?, JournalCursor?
    ) {
        let (stored, problem) = try await storage.loadRepairing(scope.snapshotLocation)
        if let problem { reconciliation.report(.documentSetAside(problem.message)) }
        var sidecar: SyncSnapshot.Sidecar?
        var damage: String?
        if let stored {
            do throws(SyncFormatError) {
                sidecar = try SyncSnapshot.sidecar(of: stored.preferences)
            } catch {
                damage = error.description
            }
        }
        var pending = sidecar?.pending ?? SyncDocument()
        let journal = await changesRecorded(scope, after: sidecar?.journal, into: &pending)
        guard let stored else {
            return (problem == nil ? .absent : .damaged(problem?.message ?? ""), pending, nil, journal)
        }
        guard let sidecar else { return (.damaged(damage ?? ""), pending, stored.version, journal) }
        return (sidecar.entries.map { .present($0) } ?? .absent, pending, stored.version, journal)
    }

    /// The pending stamps of the edits recorded in a document's journal since the last sync
    /// (Specs/Sync.md §5.4): the latest stamp of each key. A journal that cannot be read gives
    /// none: losing them only makes the edits younger.
    private func changesRecorded(
        _ scope: SyncScope, after cursor: JournalCursor?, into pending: inout SyncDocument
    )
        async -> JournalCursor?
    {
        guard let read = try? await storage.journal(of: scope.location, after: cursor) else { return cursor }
        // A first join's entries are in the snapshot the same write keeps (Specs/Sync.md §5.9).
        for entry in read.entries where ![.sync, .handEdit, .firstJoin].contains(entry.origin) {
            if let synced = entry.syncEntry { pending.merge(synced, forKey: entry.key) }
        }
        return read.cursor
    }
}
