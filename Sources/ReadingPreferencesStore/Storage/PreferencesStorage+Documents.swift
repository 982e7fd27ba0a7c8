import ReadingPreferences

// The storage as the store and sync use it: one way to read a document (damaged data set aside,
// never read as a removal), one retry-on-conflict loop, one way to write documents.

extension PreferencesStorage {
    /// Loads a document; damaged data is set aside (``quarantine(_:expecting:replacement:)``)
    /// and reported. A synced layer's last synced values, from its sync snapshot, take the
    /// damaged data's place, so a typo in a hand-edited file never reads as the removal of every
    /// key (Specs/Sync.md §5.4); without a snapshot the document reads as absent.
    ///
    /// - Parameter location: Where the document lives.
    /// - Returns: The document (or `nil`), and the problem to report when data was set aside.
    /// - Throws: ``StorageError`` when the document cannot be read.
    func loadRepairing(_ location: StorageLocation) async throws(StorageError) -> (
        document: StoredDocument?, problem: StorageError?
    ) {
        var lastConflict: StorageError?
        for _ in 0..<8 {
            let damaged: StorageError
            do throws(StorageError) {
                return (try await load(location), nil)
            } catch {
                guard error.code == .corruptDocument, error.version != nil else { throw error }
                damaged = error
            }
            guard let version = damaged.version else { throw damaged }
            let replacement = await lastSyncedValues(of: location)
            do throws(StorageError) {
                let aside = try await quarantine(location, expecting: version, replacement: replacement)
                var problem = damaged
                problem.movedTo = aside.movedTo
                problem.message += "; moved to \(aside.movedTo)"
                if replacement != nil { problem.message += "; its last synced values were put back" }
                let document = replacement.map { preferences in
                    aside.version.map { StoredDocument(preferences: preferences, version: $0) }
                }
                return (document ?? nil, problem)
            } catch {
                guard error.code == .conflict else { throw error }
                lastConflict = error
            }
        }
        throw lastConflict ?? StorageError.conflict(location)
    }

    /// The values a synced layer last synced, from its snapshot, or `nil`.
    private func lastSyncedValues(of location: StorageLocation) async -> Preferences? {
        guard case .layer(let configurable, let layer) = location, layer.isSynced,
            let snapshot = try? await load(.syncSnapshot(configurable: configurable, layer)),
            let entries = try? SyncSnapshot.entries(of: snapshot.preferences)
        else { return nil }
        let values = entries.values
        return values.isEmpty ? nil : values
    }

    /// The one document-write step: documents edited together, in one batch.
    ///
    /// Each edit's new document comes from the document as `loaded` (the version the caller
    /// holds already) and follows one rule (``DocumentOutcome``): a document left with no keys
    /// is removed, one written identically is left alone, any other is saved at the version
    /// loaded. When anything is written, every edited document left alone is checked to be still
    /// as loaded, with those in `verifying` (what the caller's decision rests on), all in the
    /// same batch as the writes and `alongside`: so nothing is written over a change made since
    /// it was read. One attempt: a conflict goes back to the caller, who reads again (or calls
    /// ``write(_:verifying:holding:recording:isolation:)``, which does).
    ///
    /// With `recording`, every key the step changes in a layer document is handed to the storage's
    /// change journal with its change (``DocumentChange/journal``), as are the changes an edit
    /// found already made (``DocumentEdit/found``): the one place a change is recorded
    /// (Specs/Store.md §15.1).
    ///
    /// - Parameters:
    ///   - edits: The edits, each document once.
    ///   - loaded: The documents as the caller read them (`nil`: absent); every edited one is
    ///     there.
    ///   - verifying: Documents the batch depends on, checked whether or not they change.
    ///   - alongside: Other changes of the same batch (a sync snapshot).
    ///   - recording: What to record in the journal; `nil` records nothing.
    ///   - isolation: The caller's actor, which the edits run on.
    /// - Returns: The edited documents as they are now, and every key changed.
    /// - Throws: What an edit's transform throws, or ``StorageError``.
    package func write(
        _ edits: [DocumentEdit], on loaded: [StorageLocation: StoredDocument?],
        verifying: [StorageLocation] = [], alongside: [DocumentChange] = [],
        recording: ChangeRecording? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws -> DocumentWrites {
        var writes = DocumentWrites()
        var batch: [DocumentChange] = []
        var untouched: [StorageLocation] = []
        var saved: [StorageLocation: Preferences] = [:]
        var found: [StorageLocation: [JournalEntry]] = [:]
        for edit in edits {
            let current = loaded[edit.location] ?? nil
            let edited = try edit.transform(current)
            if recording != nil, !edit.found.isEmpty { found[edit.location] = edit.found }
            switch DocumentOutcome(edited, over: current?.preferences) {
            case .unchanged:
                writes.documents[edit.location] = .some(current)
                untouched.append(edit.location)
                continue
            case .removed:
                writes.documents[edit.location] = .some(nil)
                if let current { batch.append(.remove(edit.location, expecting: current.version)) }
            case .saved(let document):
                saved[edit.location] = document
                batch.append(.save(document, to: edit.location, expecting: current?.version))
            }
            let changes = StoredChange.changes(at: edit.location, from: current?.preferences, to: edited)
            batch[batch.count - 1].changes = changes
            if let recording {
                batch[batch.count - 1].journal =
                    (found.removeValue(forKey: edit.location) ?? []) + changes.map(recording.entry)
            }
            writes.changes += changes
        }
        let written =
            !batch.isEmpty || !found.isEmpty || alongside.contains { $0.action != .verify }
        var checks: [DocumentChange] = []
        for location in verifying + (written ? untouched : [])
        where !batch.contains(where: { $0.location == location })
            && !checks.contains(where: { $0.location == location })
        {
            var check = DocumentChange.verify(location, expecting: (loaded[location] ?? nil)?.version)
            check.journal = found.removeValue(forKey: location) ?? []
            checks.append(check)
        }
        guard written || !checks.isEmpty || !alongside.isEmpty else { return writes }
        let versions = try await commit(batch + alongside + checks)
        for (change, version) in zip(batch, versions) {
            guard let document = saved[change.location], let version else { continue }
            writes.documents[change.location] = .some(StoredDocument(preferences: document, version: version))
        }
        return writes
    }

    /// ``write(_:on:verifying:alongside:recording:isolation:)`` on the documents read now, again on
    /// a conflict (another writer came first: the edits run again on what it wrote). Damaged data
    /// is set aside as it is read (``loadRepairing(_:)``).
    ///
    /// - Parameters:
    ///   - edits: The edits, each document once.
    ///   - verifying: Documents the batch depends on.
    ///   - held: Documents the caller read before (its cache), which the first attempt starts
    ///     from instead of reading them again.
    ///   - recording: What to record in the journal; `nil` records nothing.
    ///   - isolation: The caller's actor, which the work stays on.
    /// - Returns: What was written, and the damaged data set aside.
    /// - Throws: What an edit's transform throws, or ``StorageError``.
    package func write(
        _ edits: [DocumentEdit], verifying: [StorageLocation] = [],
        holding held: [StorageLocation: StoredDocument?] = [:], recording: ChangeRecording? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> DocumentWrites {
        var problems: [StorageError] = []
        var first = true
        var writes = try await retryingOnConflict(edits.first?.location ?? .device) {
            () async throws -> DocumentWrites in
            // The first attempt starts from the documents the caller holds: a stale copy fails
            // the batch's version check, and the next attempt reads them. An attempt that would
            // leave every held copy as it is writes nothing to check it with: read them then.
            let held = first ? held : [:]
            first = false
            for start in held.isEmpty ? [[:]] : [held, [:]] {
                var loaded: [StorageLocation: StoredDocument?] = start
                for location in edits.map(\.location) + verifying where loaded[location] == nil {
                    let (current, problem) = try await loadRepairing(location)
                    if let problem { problems.append(problem) }
                    loaded[location] = .some(current)
                }
                let writes = try await write(edits, on: loaded, verifying: verifying, recording: recording)
                if start.isEmpty || !writes.changes.isEmpty { return writes }
            }
            return DocumentWrites()
        }
        writes.problems = problems
        return writes
    }
}
/// Runs `body` again while it fails with a conflict (another writer came first), up to
/// `attempts` times: the one retry-on-conflict loop of the store and sync.
///
/// - Parameters:
///   - location: The document concerned, for the error when every attempt conflicts.
///   - attempts: How many times to try.
///   - isolation: The caller's actor, which the work stays on.
///   - body: One attempt: load, change, save at the version loaded.
/// - Returns: What the successful attempt returns.
/// - Throws: What `body` throws, or the last conflict.
func retryingOnConflict<Result>(
    _ location: StorageLocation, attempts: Int = 32, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
) async throws -> Result {
    var lastConflict: StorageError?
    for _ in 0..<attempts {
        do {
            return try await body()
        } catch let error as StorageError where error.code == .conflict {
            lastConflict = error
        }
    }
    throw lastConflict
        ?? StorageError(.conflict, location: location, message: "too many concurrent writers")
}
