import Foundation
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// A user's storage with the documents a request will read fetched in one query: a book's
/// settings read the device document, shared, the book's and the overrides, one round trip
/// instead of four. Each prefetched document is served once (a store keeps what it read); a
/// second load of it, such as a conditional edit's fresh read or a retry after a conflict, goes
/// to the database. Writes always go to the database.
final class PrefetchedStorage: PreferencesStorage, @unchecked Sendable {
    let base: SQLPreferencesStorage
    private let lock = NSLock()
    private var prefetched: [StorageLocation: StoredDocument?]

    private init(base: SQLPreferencesStorage, prefetched: [StorageLocation: StoredDocument?]) {
        self.base = base
        self.prefetched = prefetched
    }

    /// Reads `locations` in one query.
    static func prefetching(_ locations: [StorageLocation], from base: SQLPreferencesStorage) async throws
        -> PrefetchedStorage
    {
        let scopes = locations.map(SQLPreferencesStorage.scope(of:))
        let marks = Array(repeating: "?", count: scopes.count).joined(separator: ", ")
        let rows = try await base.database.query(
            "SELECT scope, json, version FROM reading_preferences WHERE user_id = ? AND scope IN (\(marks))",
            [base.userID] + scopes)
        var found: [String: (String, String)] = [:]
        for row in rows {
            if let scope = row["scope"], let json = row["json"], let version = row["version"] {
                found[scope] = (json, version)
            }
        }
        var prefetched: [StorageLocation: StoredDocument?] = [:]
        for (location, scope) in zip(locations, scopes) {
            guard let (json, version) = found[scope] else {
                prefetched[location] = .some(nil)
                continue
            }
            // Damaged data is left to the storage's own load, which reports it.
            if let preferences = try? Preferences(json: json) {
                prefetched[location] = .some(
                    StoredDocument(preferences: preferences, version: StorageVersion(version)))
            }
        }
        return PrefetchedStorage(base: base, prefetched: prefetched)
    }

    func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        let served: StoredDocument?? = lock.withLock { prefetched.removeValue(forKey: location) }
        if let served { return served }
        return try await base.load(location)
    }

    func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        lock.withLock { for change in changes { prefetched[change.location] = nil } }
        return try await base.commit(changes)
    }

    func quarantine(_ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?)
        async throws(StorageError) -> Quarantine
    {
        lock.withLock { prefetched[location] = nil }
        return try await base.quarantine(location, expecting: version, replacement: replacement)
    }

    func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError)
        -> [String]
    {
        try await base.names(of: kind, configurable: configurable, after: after, limit: limit)
    }

    func configurables() async throws(StorageError) -> [String] { try await base.configurables() }

    func export() async throws(StorageError) -> [ExportedDocument] { try await base.export() }

    func removeAll() async throws(StorageError) { try await base.removeAll() }
}
