import ReadingPreferences

// The storage as the store and sync use it: one way to read a document (damaged data set aside,
// never read as a removal), one retry-on-conflict loop, one way to apply changed keys.

extension PreferencesStorage {
    /// Loads a document; damaged data is set aside (``quarantine(_:expecting:replacement:)``)
    /// and reported. A synced layer's last synced values, from its sync snapshot, take the
    /// damaged data's place, so a typo in a hand-edited file never reads as the removal of every
    /// key (SPEC 10.1); without a snapshot the document reads as absent.
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

    /// Applies changed keys to documents, all in one batch: load them, apply, commit at the
    /// versions loaded, again on a conflict (another writer came first); a document left with
    /// no keys is removed.
    ///
    /// - Parameters:
    ///   - changes: The keys to set or remove, per document (each document once).
    ///   - isolation: The caller's actor, which the work stays on.
    /// - Returns: The documents as saved (`nil` when one no longer exists), and the problems met.
    /// - Throws: ``StorageError``.
    func apply(
        _ changes: [(location: StorageLocation, keys: KeyChanges)],
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> (documents: [StorageLocation: StoredDocument?], problems: [StorageError]) {
        var problems: [StorageError] = []
        let documents = try await retryingOnConflict(changes.first?.location ?? .device) {
            () async throws -> [StorageLocation: StoredDocument?] in
            var loaded: [StorageLocation: StoredDocument?] = [:]
            for change in changes {
                let (current, problem) = try await loadRepairing(change.location)
                if let problem { problems.append(problem) }
                loaded[change.location] = .some(current)
            }
            return try await commit(changes, on: loaded)
        }
        return (documents, problems)
    }

    /// Applies changed keys to documents as they were loaded, in one batch, with a check that
    /// each document in `verifying` is still as loaded: one attempt, which fails with a
    /// conflict when anything changed since.
    ///
    /// - Parameters:
    ///   - changes: The keys to set or remove, per document (each document once).
    ///   - loaded: The documents as loaded (`nil`: absent); every changed one is there.
    ///   - verifying: Documents the batch depends on (a precondition was computed on them),
    ///     checked whether or not they change.
    /// - Returns: The documents as saved.
    /// - Throws: ``StorageError``.
    func commit(
        _ changes: [(location: StorageLocation, keys: KeyChanges)],
        on loaded: [StorageLocation: StoredDocument?],
        verifying: [StorageLocation] = []
    ) async throws(StorageError) -> [StorageLocation: StoredDocument?] {
        var batch: [DocumentChange] = []
        var saved: [StorageLocation: Preferences] = [:]
        var result: [StorageLocation: StoredDocument?] = [:]
        var changed = Set<StorageLocation>()
        for change in changes {
            changed.insert(change.location)
            let current = loaded[change.location] ?? nil
            let edited = change.keys.applied(to: current?.preferences ?? Preferences())
            if edited.isEmpty {
                result[change.location] = .some(nil)
                if let current { batch.append(.remove(change.location, expecting: current.version)) }
            } else if let current, edited.isWrittenIdentically(to: current.preferences) {
                result[change.location] = .some(current)
            } else {
                saved[change.location] = edited
                batch.append(.save(edited, to: change.location, expecting: current?.version))
            }
        }
        var checks: [DocumentChange] = []
        for location in verifying where !batch.contains(where: { $0.location == location }) {
            checks.append(.verify(location, expecting: (loaded[location] ?? nil)?.version))
        }
        guard !batch.isEmpty || !checks.isEmpty else { return result }
        let versions = try await commit(batch + checks)
        for (change, version) in zip(batch, versions) {
            guard let preferences = saved[change.location], let version else { continue }
            result[change.location] = .some(StoredDocument(preferences: preferences, version: version))
        }
        return result
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
