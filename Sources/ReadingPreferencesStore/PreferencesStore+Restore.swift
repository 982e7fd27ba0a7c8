import Foundation
import ReadingPreferences

extension PreferencesStore {
    /// Restores the documents of an export (``PreferencesExport``), such as the one a first sync
    /// that took the synced documents set aside (Specs/Sync.md §5.9): each replaces the document
    /// stored at its place, of any configurable, in one batch. The changes are recorded with cause
    /// ``ChangeOrigin/import`` and reported with cause ``ChangeCause/edit``; the next sync sends
    /// them as this device's edits.
    ///
    /// ```swift
    /// let report = try await store.sync(with: mirror, options: SyncOptions(firstJoin: .takeTheirs))
    /// if let file = report.firstJoin?.export {
    ///     try await store.restore(PreferencesExport(contentsOf: file))
    /// }
    /// ```
    ///
    /// - Parameter export: The documents to restore; where one place is given twice, the last
    ///   wins.
    /// - Returns: What changed, one change per key.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func restore(_ export: PreferencesExport) async throws -> [StoredChange] {
        var latest: [StorageLocation: Preferences] = [:]
        var order: [StorageLocation] = []
        for item in export.documents where item.location.isLayer {
            if latest.updateValue(item.document.preferences, forKey: item.location) == nil {
                order.append(item.location)
            }
        }
        guard !order.isEmpty else { return [] }
        let edits = order.map { location in
            let preferences = latest[location] ?? Preferences()
            return DocumentEdit(location) { _ in preferences }
        }
        return try await section.run { turn in
            try await flush(turn)
            let writes = try await storage.write(edits, recording: recording(.import))
            problems += writes.problems
            try await reload(cause: .edit, turn)
            return writes.changes
        }
    }
}
