import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One sync of a storage with a transport (SPEC 10, 10.1): the I/O around ``Reconciliation``.
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
    private let holder = ReplicaID.random().rawValue
    /// How long the lock is held before another sync may take it, renewed as the sync goes.
    private static let leaseDuration: UInt64 = 60_000

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
        var lock = try await acquire(problems: &report.problems)
        do {
            let outcome = try await synchronize(&lock, report: report)
            try await release(&lock)
            return outcome
        } catch {
            try? await release(&lock)
            throw error
        }
    }

    // MARK: - The steps

    private func synchronize(_ lock: inout Lock, report: SyncReport) async throws -> Outcome {
        var report = report
        let now = options.nowMilliseconds
        if let requested = options.replica, requested != lock.state.replica, !lock.isFirstSync {
            report.problems.append(.replicaMismatch(requested: requested, actual: lock.state.replica))
        }
        var reconciliation = Reconciliation(
            state: lock.state, settings: options.settings(now: now), isFirstSync: lock.isFirstSync)
        for id in options.retire { reconciliation.retire(id) }

        let inbox = try await transport.receive(for: lock.state.replica)
        for problem in inbox.problems { reconciliation.report(problem) }
        if let own = inbox.own {
            if lock.state.writers.contains(own.file.state.writer) {
                reconciliation.admitOwn(own.file)
            } else {
                reconciliation.changeReplica(to: ReplicaID.random(prefix: lock.state.replica.rawValue))
                reconciliation.admit(own.file, source: own.source)
            }
        }
        for other in inbox.others { reconciliation.admit(other.file, source: other.source) }
        reconciliation.computeFloors()

        var changed = Set<SyncScope>()
        var scopes = try await localScopes(reconciliation: &reconciliation)
        scopes.formUnion(reconciliation.incoming.documents.keys)
        scopes.formUnion(lock.state.scopes)
        for scope in scopes.sorted() {
            let changes = try await settle(scope, &reconciliation)
            if !changes.isEmpty { changed.insert(scope) }
            report.changes += changes
            try await renewIfNeeded(&lock)
        }

        let writer = ReplicaID.random().rawValue
        var finished = reconciliation.finishedState()
        finished.remember(writer: writer)
        finished.lease = lock.state.lease
        // The writer id is kept before the file is written: a crash between the two never looks
        // like another device writing under this id.
        try await save(&lock, finished)
        report.problems += reconciliation.problems
        report.problems += try await transport.publish(reconciliation.published(writer: writer))
        report.replica = finished.replica
        return Outcome(report: report, changed: changed)
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
            for kind in [StorageKind.profiles, .profileSnapshots] {
                for id in try await storage.names(of: kind, configurable: configurable) {
                    if let scope = SyncScope(configurable: configurable, layer: .profile(id)) {
                        scopes.insert(scope)
                    }
                }
            }
            for kind in [StorageKind.publications, .publicationSnapshots] {
                for id in try await storage.names(of: kind, configurable: configurable) {
                    if let scope = SyncScope(configurable: configurable, layer: .publication(id)) {
                        scopes.insert(scope)
                    }
                }
            }
        }
        return scopes
    }

    /// Stamps, settles and writes one document, again while an edit lands meanwhile.
    private func settle(_ scope: SyncScope, _ reconciliation: inout Reconciliation) async throws
        -> [SyncChange]
    {
        // The document as the previous attempt read it: what an edit changed since then is fresh.
        var earlier: Preferences?
        return try await retryingOnConflict(scope.location) { () async throws -> [SyncChange] in
            let (document, documentVersion) = try await loadDocument(scope, &reconciliation)
            let (snapshot, snapshotVersion) = try await loadSnapshot(scope, &reconciliation)
            defer { earlier = document.preferences ?? Preferences() }
            var clock = reconciliation.clock
            let stamped = reconciliation.stamp(
                scope, document: document, snapshot: snapshot, clock: &clock, earlier: earlier)
            reconciliation.advanceClock(to: clock)
            let settled = reconciliation.settle(scope, stamped, document: document)
            if !settled.changes.isEmpty {
                let edited = settled.changes.applied(to: document.preferences ?? Preferences())
                if edited.isEmpty {
                    if let documentVersion {
                        try await storage.remove(scope.location, expecting: documentVersion)
                    }
                } else {
                    _ = try await storage.save(edited, to: scope.location, expecting: documentVersion)
                }
            }
            if case .present(let old) = snapshot, old == settled.snapshot {
                // Unchanged.
            } else if settled.snapshot.isEmpty {
                if let snapshotVersion {
                    try await storage.remove(scope.snapshotLocation, expecting: snapshotVersion)
                }
            } else {
                _ = try await storage.save(
                    SyncSnapshot.document(settled.snapshot), to: scope.snapshotLocation,
                    expecting: snapshotVersion)
            }
            reconciliation.commit(scope, settled, clock: clock, unstamped: stamped.unstamped.count)
            if stamped.lostHistory { reconciliation.report(.documentWithoutHistory(scope)) }
            if case .unreadable(let reason) = document {
                reconciliation.report(.documentUnreadable(scope, reason))
            }
            return settled.report
        }
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
        Reconciliation.Snapshot, StorageVersion?
    ) {
        let (stored, problem) = try await storage.loadRepairing(scope.snapshotLocation)
        if let problem { reconciliation.report(.documentSetAside(problem.message)) }
        guard let stored else { return (problem == nil ? .absent : .damaged(problem?.message ?? ""), nil) }
        do throws(SyncFormatError) {
            return (.present(try SyncSnapshot.entries(of: stored.preferences)), stored.version)
        } catch {
            return (.damaged(error.description), stored.version)
        }
    }

    // MARK: - The sync lock

    /// The sync state while this sync holds its lock, and its stored version.
    struct Lock {
        var state: SyncState
        var version: StorageVersion
        var isFirstSync: Bool
        var takenAt: UInt64
    }

    /// Takes the lock: a lease in the sync state, saved at the version loaded. A lease another
    /// sync holds is waited for, unless it has expired or its process is gone.
    private func acquire(problems: inout [SyncProblem]) async throws -> Lock {
        let deadline = Date().addingTimeInterval(options.busyTimeout)
        var delay: UInt64 = 2_000_000
        while true {
            let now = options.nowMilliseconds
            let (stored, problem) = try await storage.loadRepairing(.syncState)
            if let problem { problems.append(.documentSetAside(problem.message)) }
            var state: SyncState
            var isFirstSync = false
            if let stored {
                do throws(SyncFormatError) {
                    state = try SyncState(document: stored.preferences)
                } catch {
                    let aside = try? await storage.quarantine(
                        .syncState, expecting: stored.version, replacement: nil)
                    problems.append(
                        .documentSetAside(
                            "the sync state is damaged (\(error)); moved to \(aside?.movedTo ?? "-")"))
                    continue
                }
            } else {
                state = SyncState(replica: options.replica ?? ReplicaID.random())
                isFirstSync = true
            }
            if let lease = state.lease, lease.holder != holder, lease.until > now, Self.isAlive(lease) {
                guard Date() < deadline else {
                    throw SyncError.busy("held by process \(lease.pid) on \(lease.host) until \(lease.until)")
                }
                try await Task.sleep(nanoseconds: delay)
                delay = min(delay * 2, 200_000_000)
                continue
            }
            state.lease = lease(now: now)
            do throws(StorageError) {
                let version = try await storage.save(
                    state.document, to: .syncState, expecting: stored?.version)
                return Lock(state: state, version: version, isFirstSync: isFirstSync, takenAt: now)
            } catch {
                guard error.code == .conflict else { throw error }
            }
        }
    }

    private func lease(now: UInt64) -> SyncState.Lease {
        SyncState.Lease(holder: holder, host: Self.host, pid: getpid(), until: now + Self.leaseDuration)
    }

    /// Saves the sync state, with the lease renewed.
    private func save(_ lock: inout Lock, _ state: SyncState) async throws {
        var state = state
        let now = options.nowMilliseconds
        state.lease = lease(now: now)
        do throws(StorageError) {
            lock.version = try await storage.save(state.document, to: .syncState, expecting: lock.version)
        } catch {
            guard error.code == .conflict else { throw error }
            throw SyncError.busy("another sync took this store's sync lock after it expired")
        }
        lock.state = state
        lock.takenAt = now
    }

    private func renewIfNeeded(_ lock: inout Lock) async throws {
        if options.nowMilliseconds > lock.takenAt + Self.leaseDuration / 3 {
            try await save(&lock, lock.state)
        }
    }

    /// Gives the lock back.
    private func release(_ lock: inout Lock) async throws {
        var state = lock.state
        state.lease = nil
        lock.version = try await storage.save(state.document, to: .syncState, expecting: lock.version)
    }

    /// This machine's name, for leases.
    private static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Whether the sync that holds a lease may still be running: on another machine, or in a
    /// process of this one that is alive.
    private static func isAlive(_ lease: SyncState.Lease) -> Bool {
        guard lease.host == host, lease.pid > 0 else { return true }
        return kill(lease.pid, 0) == 0 || errno == EPERM
    }
}
