import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension SQLSyncLog {
    // MARK: - Stamping the server's own writes

    /// Stamps what a batch of the server's storage changed in synced documents, in the batch's
    /// transaction (the storage's ``SQLPreferencesStorage/afterWrites``): each key the batch
    /// changed in a synced document (``SQLDocumentWrite/changes``) gets an entry stamped by the
    /// user's server replica, one tick of its clock each, at the next numbers of the change
    /// sequence.
    ///
    /// ```swift
    /// storage.afterWrites = { transaction, writes in
    ///     try await log.stamp(writes, of: userID, in: transaction)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - writes: What the batch wrote.
    ///   - userID: The user.
    ///   - transaction: The batch's transaction, which holds the user's rows.
    /// - Throws: What the database throws.
    public func stamp(_ writes: [SQLDocumentWrite], of userID: String, in transaction: any SQLDatabase)
        async throws
    {
        var changes: [(SyncScope, String, JSONValue?)] = []
        for write in writes {
            for change in write.changes {
                // The overrides never sync (their scope is none).
                guard let scope = change.scope else { continue }
                changes.append((scope, change.key, change.newValue))
            }
        }
        guard !changes.isEmpty else { return }
        var row = try await Self.userRow(transaction, userID)
        var clock = row.clock(of: Self.replicaID(for: userID))
        let wall = now()
        var stamped: [(scope: SyncScope, key: String, entry: SyncEntry)] = []
        for (scope, key, value) in changes {
            // An exhausted clock stamps no more this millisecond: those keys sync when a later
            // write or push moves it on (the clock never wraps).
            guard let stamp = clock.tick(now: wall) else { break }
            stamped.append((scope, key, SyncEntry(value: value, stamp: stamp)))
        }
        row.keep(clock)
        // The server's own merged stamp is its entries' greatest, which the state notes as it
        // reads them; only other replicas' merged stamps are kept apart.
        try await Self.store(stamped, &row, transaction, userID)
        try await Self.save(row, transaction, userID)
    }
}
