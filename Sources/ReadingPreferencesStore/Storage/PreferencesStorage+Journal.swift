import ReadingPreferences

// The change journal and the replica clock of a storage that keeps none of its own: no journal,
// and the clock kept in the sync state document, read and saved at its version (Specs/Store.md
// §15.1). ReadingPreferences' own storages keep both natively.

extension PreferencesStorage {
    /// Keeps no journal: nothing to read.
    public func journal(of location: StorageLocation, after cursor: JournalCursor?) async throws(StorageError)
        -> JournalRead
    {
        try location.checked()
        return JournalRead()
    }

    /// The clock kept as a document (``StorageLocation/replicaClock``), `{"replica", "time",
    /// "counter"}`: loaded, changed by `body` and saved at the version loaded, again on a
    /// conflict. With no such document, the sync state's clock, when the storage has one.
    public func updateReplicaClock<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        try await updateClockDocument(body)
    }

    /// ``updateReplicaClock(_:)``'s default, for storages that override it in some cases only
    /// (a SQL storage without a sync log keeps its clock as this document).
    ///
    /// - Parameter body: Reads and raises the clock (`nil` when the storage has none yet).
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or a ``StorageError``.
    public func updateClockDocument<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        try await retryingOnConflict(.replicaClock) { () async throws -> Result in
            let stored = try await load(.replicaClock)
            var clock = stored.flatMap { HybridClock(document: $0.preferences) }
            if stored == nil, let state = try await load(.syncState) {
                clock = (try? SyncState(document: state.preferences))?.clock
            }
            let before = clock
            let result = try body(&clock)
            guard let clock, clock != before || stored == nil else { return result }
            _ = try await commit([
                .saveUnflushed(clock.document, to: .replicaClock, expecting: stored?.version)
            ])
            return result
        }
    }
}

extension HybridClock {
    /// The clock as a document: `{"replica", "time", "counter"}`.
    var document: Preferences {
        [
            "replica": .string(replica.rawValue), "time": .number(JSONNumber(Int(time))),
            "counter": .number(JSONNumber(Int(counter))),
        ]
    }

    /// A clock from its document.
    init?(document: Preferences) {
        guard let text = document["replica"]?.stringValue, let replica = ReplicaID(text),
            let time = document["time"]?.numberValue?.integerValue, time >= 0,
            let counter = document["counter"]?.numberValue?.integerValue, counter >= 0
        else { return nil }
        self.init(replica: replica, time: UInt64(time), counter: UInt64(counter))
    }
}

extension SyncState {
    /// The replica's clock as the state keeps it.
    var clock: HybridClock {
        get { HybridClock(replica: replica, time: clockTime, counter: clockCounter) }
        set {
            replica = newValue.replica
            clockTime = newValue.time
            clockCounter = newValue.counter
        }
    }
}
