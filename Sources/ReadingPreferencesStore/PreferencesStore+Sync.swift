import Foundation
import ReadingPreferences

extension PreferencesStore: SyncListener {
    /// Syncs this store's storage with other devices through a transport (Specs/Sync.md): every
    /// configurable the storage holds, not just this store's. What the sync changed is reported
    /// on the change streams of this store and of every store open on the same storage in this
    /// process, with cause ``ChangeCause/sync``.
    ///
    /// ```swift
    /// let report = try await store.sync(with: MirrorFolder(url: iCloudFolder))
    /// for change in report.changes { print(change) }
    /// ```
    ///
    /// Pending coalesced edits are written first. Any storage syncs: sync keeps its state
    /// through the storage (Specs/Sync.md §8).
    ///
    /// - Parameters:
    ///   - transport: How replica states travel: a ``MirrorFolder``, or another transport.
    ///   - options: How the sync behaves.
    /// - Returns: What changed locally and what was skipped or ignored.
    /// - Throws: ``SyncError`` (``SyncError/usage(_:)`` for a mirror that overlaps the store,
    ///   ``SyncError/busy(_:)`` when another sync of the storage holds the lock), or
    ///   ``StorageError``.
    @discardableResult
    public func sync(with transport: some ReplicaTransport, options: SyncOptions = SyncOptions()) async throws
        -> SyncReport
    {
        scheduledFlush?.cancel()
        scheduledFlush = nil
        let result = try await section.run { turn in
            try await flush(turn)
            let result: Result<SyncSession.Outcome, any Error>
            do {
                result = .success(
                    try await SyncSession(storage: storage, transport: transport, options: options).run())
            } catch {
                result = .failure(error)
            }
            // A sync that failed half way may have changed documents too.
            try await reload(cause: .sync, turn)
            return result
        }
        let changed = (try? result.get().changed.isEmpty == false) ?? true
        if let beacon, changed {
            let (generation, listeners) = beacon.didSync(by: self)
            beaconGeneration = generation
            for listener in listeners { await listener.storageDidSync() }
        }
        return try result.get().report
    }

    /// Syncs through a folder several devices share (a ``MirrorFolder``).
    ///
    /// ```swift
    /// let report = try await store.sync(with: iCloudFolder)
    /// ```
    ///
    /// - Parameters:
    ///   - mirror: The shared folder.
    ///   - options: How the sync behaves.
    /// - Returns: What changed locally and what was skipped or ignored.
    /// - Throws: ``SyncError``, or ``StorageError``.
    @discardableResult
    public func sync(with mirror: URL, options: SyncOptions = SyncOptions()) async throws -> SyncReport {
        try await sync(with: MirrorFolder(url: mirror), options: options)
    }

    /// Reads the documents again after another store of the process synced the storage.
    func storageDidSync() async {
        _ = try? await section.run { turn in
            if let beacon { beaconGeneration = beacon.generation }
            try await reload(cause: .sync, turn)
        }
    }

    /// Starts following syncs run by other processes, when the storage can signal them.
    func watchSyncsIfNeeded() async {
        guard syncWatch == nil else { return }
        beacon?.listen(self)
        guard let signals = storage.syncSignals() else { return }
        syncGeneration = await currentSyncGeneration()
        syncWatch = Task { [weak self] in
            for await _ in signals {
                guard let self else { return }
                await self.syncSignalled()
            }
        }
    }

    /// Reads the documents again when the sync state says another sync finished.
    private func syncSignalled() async {
        let generation = await currentSyncGeneration()
        guard generation != syncGeneration else { return }
        syncGeneration = generation
        await storageDidSync()
    }

    /// The generation of the storage's sync state: one more after every sync.
    private func currentSyncGeneration() async -> UInt64? {
        guard let stored = try? await storage.load(.syncState) else { return nil }
        return (try? SyncState(document: stored.preferences))?.generation
    }
}
