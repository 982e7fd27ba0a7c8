import Foundation
import ReadingPreferences

extension PreferencesStorage {
    /// Reads a document, changes it and saves it without flushing it to stable storage: for
    /// what a crash may lose without harm (an edit's pending sync stamps, which only make the
    /// edit younger when lost). A ``FileStorage`` does it in one step under the file's lock; any
    /// other storage loads and saves at the version loaded, again on a conflict.
    ///
    /// - Parameters:
    ///   - location: The document.
    ///   - isolation: The caller's actor, which the work stays on.
    ///   - change: The new document from the stored one (`nil`: absent); `nil` leaves it as it is.
    /// - Throws: ``StorageError``, or what `change` throws.
    package func updateUnflushed(
        _ location: StorageLocation, isolation: isolated (any Actor)? = #isolation,
        _ change: @escaping @Sendable (Preferences?) throws -> Preferences?
    ) async throws {
        if let files = self as? FileStorage,
            try await files.updateInPlace(location, { stored, _ in try change(stored) })
        {
            return
        }
        try await retryingOnConflict(location, attempts: 8) { () async throws in
            let stored = try await load(location)
            guard let changed = try change(stored?.preferences) else { return }
            _ = try await commit([.saveUnflushed(changed, to: location, expecting: stored?.version)])
        }
    }
}

extension FileStorage {
    /// ``PreferencesStorage/updateUnflushed(_:isolation:_:)`` in one call under the file's lock:
    /// read, changed, renamed into place without `fsync`. With `foldingAppendix`, `change` also
    /// receives the records appended beside the document, and the appendix is dropped with the
    /// write, under the same lock (so no record appended meanwhile is lost). `false` when it
    /// cannot be done so (damaged data, a batch of several files that may be pending, or no
    /// folder): the caller then takes the general way.
    func updateInPlace(
        _ location: StorageLocation, foldingAppendix: Bool = false,
        _ change: @escaping @Sendable (Preferences?, [Preferences]) throws -> Preferences?
    ) async throws -> Bool {
        try location.checked()
        let batch = FileBatch(layout: layout, faults: nil)
        guard faults == nil, !batch.mayHavePendingJournal else { return false }
        let path = path(of: location)
        let storage = self
        return try await BlockingIO.run { () throws -> Bool in
            let outcome: Result<Bool, any Error>
            do {
                outcome = try DurableFile.withLockedFile(path, links: .follow) {
                    (file: borrowing DurableFile.LockedFile) throws(Never) -> Result<Bool, any Error> in
                    do {
                        var current: Preferences?
                        if let existing = file.existing {
                            // Damaged data is the general way's to report.
                            guard let parsed = try? Preferences(json: existing.data) else {
                                return .success(false)
                            }
                            current = parsed
                        }
                        let appendix = Self.appendixPath(ofResolved: file.path)
                        let records = foldingAppendix ? try Self.records(at: appendix, location) : []
                        guard let changed = try change(current, records) else { return .success(true) }
                        try file.replace(with: storage.bytes(of: changed, at: location), flushes: false)
                        if foldingAppendix { _ = unlink(appendix) }
                        return .success(true)
                    } catch {
                        return .failure(error)
                    }
                }
            } catch {
                // No folder yet, or a lock that cannot be taken: the general way says why.
                return false
            }
            return try outcome.get()
        }
    }
}
