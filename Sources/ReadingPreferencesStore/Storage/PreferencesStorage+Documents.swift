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

    /// Applies changed keys to a document: load it, apply, save at the version loaded, again on
    /// a conflict (another writer came first); a document left with no keys is removed.
    ///
    /// - Parameters:
    ///   - changes: The keys to set or remove.
    ///   - location: The document.
    ///   - isolation: The caller's actor, which the work stays on.
    /// - Returns: The document as saved (`nil` when it no longer exists), and the problems met.
    /// - Throws: ``StorageError``.
    func apply(
        _ changes: KeyChanges, to location: StorageLocation, isolation: isolated (any Actor)? = #isolation
    ) async throws -> (document: StoredDocument?, problems: [StorageError]) {
        var problems: [StorageError] = []
        let document = try await retryingOnConflict(location) { () async throws -> StoredDocument? in
            let (current, problem) = try await loadRepairing(location)
            if let problem { problems.append(problem) }
            let edited = changes.applied(to: current?.preferences ?? Preferences())
            if edited.isEmpty {
                if let current { try await remove(location, expecting: current.version) }
                return nil
            }
            if let current, edited.members == current.preferences.members { return current }
            let version = try await save(edited, to: location, expecting: current?.version)
            return StoredDocument(preferences: edited, version: version)
        }
        return (document, problems)
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
