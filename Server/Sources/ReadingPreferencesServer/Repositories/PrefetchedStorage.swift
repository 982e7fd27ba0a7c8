import Foundation
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// A user's storage with the documents a request will read fetched in one query: a book's
/// settings read the device document, shared, the book's and the overrides, one round trip
/// instead of four. Each prefetched document is served once (a store keeps what it read); a
/// second load of it, such as a conditional edit's fresh read or a retry after a conflict, goes
/// to the database. Writes always go to the database.
///
/// It also notes what the store loaded and at which versions, which is what an answer built with
/// it depends on (``AnswerCache``).
final class PrefetchedStorage: PreferencesStorage, @unchecked Sendable {
    /// Where everything else goes: the user's SQL storage, or a write's storage inside its
    /// transaction.
    let base: any PreferencesStorage
    /// The class the request names (`deviceClass`), given to the store as its device state's
    /// class on every load of the device document, so the class document resolves between the
    /// base and the publication (Specs/Server.md §5.3); `nil` for none.
    let deviceClass: String?
    /// Each prefetched location's row as read: its text and version, or `nil` when absent.
    private let rows: [StorageLocation: (json: String, version: StorageVersion)?]
    private let lock = NSLock()
    /// The prefetched locations not served yet.
    private var unserved: Set<StorageLocation>
    /// What the store loaded, with the versions it had; `nil` once the store did anything else
    /// (a load outside the prefetched set or a second one, a listing, a write).
    private var loaded: [StorageLocation: StorageVersion?]? = [:]

    private init(
        base: any PreferencesStorage, rows: [StorageLocation: (json: String, version: StorageVersion)?],
        deviceClass: String?
    ) {
        self.base = base
        self.deviceClass = deviceClass
        self.rows = rows
        self.unserved = Set(rows.keys)
    }

    /// Reads a user's documents at `locations` in one query of `database`, over the storage
    /// `base` of the same user on the same database (or transaction), for a device of
    /// `deviceClass` when one is named.
    static func prefetching(
        _ locations: [StorageLocation], of userID: String, from base: any PreferencesStorage,
        in database: any SQLDatabase, deviceClass: String? = nil
    ) async throws -> PrefetchedStorage {
        let scopes = scopes(of: locations)
        let found = try await database.query(
            "SELECT scope, json, version FROM reading_preferences WHERE user_id = ? AND scope IN (\(SQLMarks.list(scopes.count)))",
            [userID] + scopes)
        var byScope: [String: (json: String, version: StorageVersion)] = [:]
        for row in found {
            if let scope = row["scope"], let json = row["json"], let version = row["version"] {
                byScope[scope] = (json, StorageVersion(version))
            }
        }
        var rows: [StorageLocation: (json: String, version: StorageVersion)?] = [:]
        for (location, scope) in zip(locations, scopes) { rows[location] = .some(byScope[scope]) }
        return PrefetchedStorage(base: base, rows: rows, deviceClass: deviceClass)
    }

    /// The versions of a user's rows at `scopes`, by scope (absent rows are left out), in one
    /// query.
    static func versions(of userID: String, at scopes: [String], in database: any SQLDatabase) async throws
        -> [String: String]
    {
        let rows = try await database.query(
            "SELECT scope, version FROM reading_preferences WHERE user_id = ? AND scope IN (\(SQLMarks.list(scopes.count)))",
            [userID] + scopes)
        var versions: [String: String] = [:]
        for row in rows {
            if let scope = row["scope"], let version = row["version"] { versions[scope] = version }
        }
        return versions
    }

    /// The scopes of the rows of `locations`, in order.
    static func scopes(of locations: [StorageLocation]) -> [String] {
        locations.map(SQLPreferencesStorage.scope(of:))
    }

    /// Every document the store loaded, with its version, when it loaded only prefetched
    /// documents, each once, and did nothing else; otherwise `nil`.
    var dependencies: [StorageLocation: StorageVersion?]? { lock.withLock { loaded } }

    private func spoil() { lock.withLock { loaded = nil } }

    func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        let document = try await loadStored(location)
        guard location == .device, let deviceClass else { return document }
        // The request's class, at the stored state's version: nothing more is read.
        var state = document?.preferences ?? Preferences()
        state["deviceClass"] = .string(deviceClass)
        return StoredDocument(preferences: state, version: document?.version ?? Self.noDeviceState)
    }

    /// The version of the device state made for a request's class when the user has none stored:
    /// a write that verifies the state expects it absent.
    static let noDeviceState = StorageVersion("")

    /// A document as stored: prefetched the first time, otherwise from the base storage.
    private func loadStored(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        try location.checked()
        let first = lock.withLock { unserved.remove(location) != nil }
        if first, let row = rows[location] {
            guard let row else {
                lock.withLock { loaded?[location] = .some(nil) }
                return nil
            }
            // Damaged data is left to the storage's own load, which reports it.
            if let preferences = try? Preferences(json: row.json) {
                lock.withLock { loaded?[location] = .some(row.version) }
                return StoredDocument(preferences: preferences, version: row.version)
            }
        }
        spoil()
        return try await base.load(location)
    }

    func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        spoil()
        lock.withLock { for change in changes { unserved.remove(change.location) } }
        guard deviceClass != nil else { return try await base.commit(changes) }
        // A check of the state served with the request's class is a check of what is stored.
        let stored = changes.map { change -> DocumentChange in
            guard change.location == .device, change.expected == Self.noDeviceState else { return change }
            var change = change
            change.expected = nil
            return change
        }
        return try await base.commit(stored)
    }

    func quarantine(_ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?)
        async throws(StorageError) -> Quarantine
    {
        spoil()
        lock.withLock { _ = unserved.remove(location) }
        return try await base.quarantine(location, expecting: version, replacement: replacement)
    }

    func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError)
        -> [String]
    {
        spoil()
        return try await base.names(of: kind, configurable: configurable, after: after, limit: limit)
    }

    func journal(of location: StorageLocation, after cursor: JournalCursor?) async throws(StorageError)
        -> JournalRead
    {
        try await base.journal(of: location, after: cursor)
    }

    func updateReplicaClock<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        try await base.updateReplicaClock(body)
    }

    func configurables() async throws(StorageError) -> [String] {
        spoil()
        return try await base.configurables()
    }

    func export() async throws(StorageError) -> [ExportedDocument] {
        spoil()
        return try await base.export()
    }

    func removeAll() async throws(StorageError) {
        spoil()
        try await base.removeAll()
    }
}
