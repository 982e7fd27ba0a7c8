import Foundation
import ReadingPreferences

extension PreferencesStore {
    /// Syncs this store's folder with a mirror folder shared by several devices (SPEC 10), then
    /// reports what the sync changed on every change stream, with cause ``ChangeCause/sync``.
    ///
    /// ```swift
    /// let report = try await store.sync(with: iCloudFolder)
    /// ```
    ///
    /// Pending coalesced edits are written first. The store must keep its documents in a
    /// ``FileStorage``.
    ///
    /// - Parameters:
    ///   - mirror: The shared mirror folder.
    ///   - options: How the reconciliation behaves.
    /// - Returns: What changed locally and what was skipped or ignored.
    /// - Throws: ``SyncError``, or ``StorageError``.
    @discardableResult
    public func sync(with mirror: URL, options: Synchronizer.Options = Synchronizer.Options()) async throws
        -> SyncReport
    {
        guard let files = storage as? FileStorage else {
            throw SyncError.mirrorNotWritable("the store's storage is not a folder of files")
        }
        scheduledFlush?.cancel()
        scheduledFlush = nil
        return try await serialized {
            try await flushLocked()
            let report = try await Synchronizer(root: files.root, mirror: mirror, options: options)
                .reconcile()
            try await reload(cause: .sync)
            return report
        }
    }
}

extension Preferences {
    /// The keys whose values differ from `edited` (added, removed or changed), reserved `$` keys
    /// aside.
    func changedKeys(to edited: Preferences) -> [String] {
        var keys: [String] = []
        for member in edited.members
        where !Preferences.isReserved(member.key) && self[member.key] != member.value {
            keys.append(member.key)
        }
        for member in members where !Preferences.isReserved(member.key) && edited[member.key] == nil {
            keys.append(member.key)
        }
        return keys
    }
}
