import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import Testing

/// Replica files exchanged in memory, as bytes, so every exchange goes through the file format's
/// reader and writer: the transport of the sync property tests.
actor MemoryExchange {
    private(set) var files: [String: Data] = [:]
    /// Whether `receive` hands files over in reverse order (the merge must not care).
    var reversed = false

    func receive(for replica: ReplicaID) -> ReplicaInbox {
        var inbox = ReplicaInbox()
        let names = files.keys.sorted()
        for name in reversed ? names.reversed() : names {
            guard let data = files[name] else { continue }
            do throws(ReplicaFileError) {
                let file = try ReplicaState.read(data)
                let received = ReplicaInbox.Received(source: name, file: file)
                if file.state.replica == replica {
                    inbox.own = received
                } else {
                    inbox.others.append(received)
                }
            } catch {
                inbox.problems.append(.skippedReplicaFile(name, error.description))
            }
        }
        return inbox
    }

    func publish(_ state: ReplicaState) {
        files[state.replica.rawValue + ".json"] = state.jsonData()
    }

    func setReversed(_ value: Bool) { reversed = value }

    /// Puts a file back as it was (a stale copy delivered late).
    func publishRaw(_ name: String, _ data: Data) { files[name] = data }

    func remove(_ name: String) { files[name] = nil }
}

/// A transport over a ``MemoryExchange``.
struct MemoryTransport: ReplicaTransport {
    let exchange: MemoryExchange

    func prepare(localFolder: URL?) async throws(SyncError) -> [SyncProblem] { [] }

    func receive(for replica: ReplicaID) async throws(SyncError) -> ReplicaInbox {
        await exchange.receive(for: replica)
    }

    func publish(_ state: ReplicaState) async throws(SyncError) -> [SyncProblem] {
        await exchange.publish(state)
        return []
    }
}

/// A storage that injects faults into another: a failing save, a save that yields first (so
/// other work interleaves), and work run just before a save (an edit landing during a sync). It
/// counts the saves that reach the storage.
actor FaultyStorage: PreferencesStorage {
    let base: any PreferencesStorage
    /// Saves and removes to let through before the next one fails (`nil`: none fails).
    private var failAfter: Int?
    /// Run once, before the next save of a layer document (then cleared).
    private var beforeSave: (@Sendable () async -> Void)?
    /// Whether each save yields a few times first.
    private var yields = false
    /// The faults injected so far.
    private(set) var injected = 0
    /// The saves that reached the storage.
    private(set) var saves = 0

    init(_ base: any PreferencesStorage = InMemoryStorage()) { self.base = base }

    nonisolated var identity: String? { base.identity }
    nonisolated var folder: URL? { base.folder }

    func failAfter(_ count: Int?) { failAfter = count }
    func setYields(_ value: Bool) { yields = value }
    func beforeNextLayerSave(_ work: @escaping @Sendable () async -> Void) { beforeSave = work }

    private func fault(_ location: StorageLocation) async throws(StorageError) {
        if yields {
            for _ in 0..<3 { await Task.yield() }
        }
        if let remaining = failAfter {
            if remaining == 0 {
                failAfter = nil
                injected += 1
                throw StorageError(.io, location: location, message: "injected failure")
            }
            failAfter = remaining - 1
        }
        if case .layer = location, let work = beforeSave {
            beforeSave = nil
            injected += 1
            await work()
        }
    }

    func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        try await base.load(location)
    }

    /// Each write of the batch passes the fault point first: a fault fails the whole batch.
    func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        for change in changes where change.action != .verify {
            try await fault(change.location)
            if case .save = change.action { saves += 1 }
        }
        return try await base.commit(changes)
    }

    func quarantine(_ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?)
        async throws(StorageError) -> Quarantine
    {
        try await base.quarantine(location, expecting: version, replacement: replacement)
    }

    func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError) -> [String]
    {
        try await base.names(of: kind, configurable: configurable, after: after, limit: limit)
    }

    func configurables() async throws(StorageError) -> [String] {
        try await base.configurables()
    }

    func journal(of location: StorageLocation, after cursor: JournalCursor?) async throws(StorageError)
        -> JournalRead
    {
        try await base.journal(of: location, after: cursor)
    }

    func updateReplicaClock<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        try await base.updateReplicaClock(body)
    }

    /// Removes a document behind the store's back (a lost file).
    func lose(_ location: StorageLocation) async {
        if let document = try? await base.load(location) {
            try? await base.remove(location, expecting: document.version)
        }
    }
}

/// A wall clock the tests move by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var milliseconds: Int64

    init(_ start: Int64 = 1_764_000_000_000) { milliseconds = start }

    func advance(by delta: Int64) { lock.withLock { milliseconds += delta } }

    /// The time, seen by a clock `skew` milliseconds off.
    func date(skew: Int64 = 0) -> Date {
        lock.withLock { Date(timeIntervalSince1970: Double(milliseconds + skew) / 1000) }
    }
}

/// A replica id the test knows is valid; an invalid one fails the test.
func replicaID(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ReplicaID {
    try #require(ReplicaID(text), "\(text) is not a replica id", sourceLocation: sourceLocation)
}

/// A stamp the test knows is valid.
func stamp(
    _ time: UInt64, _ counter: UInt64 = 0, _ replica: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> SyncStamp {
    try #require(
        SyncStamp(time: time, counter: counter, replica: try replicaID(replica)),
        sourceLocation: sourceLocation)
}

/// A scope the test knows is valid.
func scope(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> SyncScope {
    try #require(SyncScope(text), "\(text) is not a scope", sourceLocation: sourceLocation)
}
