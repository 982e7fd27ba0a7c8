import Foundation
import ReadingPreferences

extension PreferencesStore {
    /// This device as the store's storage knows it: its replica id and display name
    /// (Specs/Store.md §15.3).
    ///
    /// ```swift
    /// let device = try await store.device.setName("Kobo Clara")
    /// print(device.id)   // 4f2c9a1b7d3e
    /// ```
    ///
    /// A device becomes a *replica* (it gets a replica id, and its storage keeps a change journal,
    /// so its edits take their stamps when made and are kept as history) at its first sync, or
    /// sooner when it is named or told to keep history. Until then an edit costs no more than
    /// the document's own write.
    public nonisolated var device: Device { Device(store: self) }

    /// This device: see ``PreferencesStore/device``.
    public struct Device: Sendable {
        let store: PreferencesStore

        /// This device's identity, or `nil` when it is no replica yet (it never synced, and was
        /// never named or told to keep history).
        ///
        /// - Returns: The identity.
        /// - Throws: ``StorageError`` when the sync state cannot be read.
        public func identity() async throws -> DeviceIdentity? {
            guard let stored = try await store.storage.load(.syncState),
                let state = try? SyncState(document: stored.preferences)
            else { return nil }
            return DeviceIdentity(id: state.replica, name: state.name)
        }

        /// Names this device ("Kobo Clara"), as its replica file and its pushes carry it, so that
        /// other devices' provenance and history say where a value came from. A device with no
        /// replica id yet takes one, and its storage keeps a change journal from now on.
        ///
        /// - Parameter name: The name (trimmed, at most ``DeviceIdentity/maximumNameLength``
        ///   bytes), or `nil` to remove it.
        /// - Returns: This device's identity.
        /// - Throws: ``StorageError``.
        @discardableResult
        public func setName(_ name: String?) async throws -> DeviceIdentity {
            let normalized = name.flatMap(DeviceIdentity.normalizedName)
            return try await store.changeDevice { state in state.name = normalized }
        }

        /// Makes this device a replica now (a replica id, and a change journal kept by its
        /// storage from now on), so its edits are kept as history and take their stamps when
        /// made, before its first sync. Nothing changes for a device that is one already.
        ///
        /// - Returns: This device's identity.
        /// - Throws: ``StorageError``.
        @discardableResult
        public func keepHistory() async throws -> DeviceIdentity {
            try await store.changeDevice { _ in }
        }
    }

    /// ``updateSyncState(_:)`` in the write section.
    func changeDevice(_ change: @escaping @Sendable (inout SyncState) -> Void) async throws -> DeviceIdentity
    {
        try await section.run { _ in try await updateSyncState(change) }
    }

    /// Changes the sync state (made now, with a new replica id, when there is none) and the
    /// replica clock with it: the identity every journal entry of this device is stamped with.
    func updateSyncState(_ change: @escaping @Sendable (inout SyncState) -> Void) async throws
        -> DeviceIdentity
    {
        let state = try await retryingOnConflict(.syncState) { () async throws -> SyncState in
            let (stored, problem) = try await storage.loadRepairing(.syncState)
            if let problem { problems.append(problem) }
            var state =
                stored.flatMap { try? SyncState(document: $0.preferences) }
                ?? SyncState(replica: ReplicaID.random())
            let before = state
            change(&state)
            if stored == nil || state != before {
                _ = try await storage.save(state.document, to: .syncState, expecting: stored?.version)
            }
            return state
        }
        let replica = state.replica
        try await storage.updateReplicaClock { clock in
            if clock?.replica != replica {
                clock = HybridClock(replica: replica, time: clock?.time ?? 0, counter: clock?.counter ?? 0)
            }
        }
        return DeviceIdentity(id: state.replica, name: state.name)
    }
}
