import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// One user's reading preferences, kept in the table `reading_preferences`.
public struct SQLPreferencesStorage: PreferencesStorage {
    /// The database.
    public let database: any SQLDatabase
    /// The user whose documents these are: every statement is limited to their rows.
    public let userID: String
    /// The storage's change journal (Specs/Store.md §15.1): the user's sync log, which records in
    /// each batch's transaction every change of a layer document the batch carries, stamps the
    /// unstamped ones with the user's server replica, keeps them as history and, for synced
    /// documents, as the server replica's entries. `nil` keeps no journal.
    public var journal: SQLSyncLog?

    /// Creates the storage of one user's documents.
    ///
    /// - Parameters:
    ///   - database: The database.
    ///   - userID: The user.
    ///   - journal: The user's sync log, which keeps the storage's change journal; `nil` for none.
    public init(database: any SQLDatabase, userID: String, journal: SQLSyncLog? = nil) {
        self.database = database
        self.userID = userID
        self.journal = journal
    }

    /// Loads the row of a location.
    ///
    /// - Parameter location: Where the document lives.
    /// - Returns: The document, or `nil` when there is no row.
    /// - Throws: `StorageError`: `corruptDocument` when the row's text is not a JSON object,
    ///   `io` when the database fails.
    public func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        try location.checked()
        let scope = Self.scope(of: location)
        let rows = try await run(location) { try await Self.row(scope, of: userID, in: database) }
        guard let row = rows.first, let json = row["json"], let version = row["version"] else { return nil }
        do {
            return StoredDocument(preferences: try Preferences(json: json), version: StorageVersion(version))
        } catch {
            // Not a JSON object: report it with its version; the store sets it aside through
            // `quarantine`, so it is never lost and never blocks a new save.
            throw StorageError(
                .corruptDocument, location: location, message: "\(scope) is not a JSON object (\(error))",
                version: StorageVersion(version))
        }
    }

    /// Applies a batch in one transaction that holds the user's rows. Each write names the
    /// version it expects in its own statement (`... AND version = ?`, or `ON CONFLICT DO
    /// NOTHING` for a new row), so a write at the version this storage just read needs no
    /// second read; a write that changes no row is a conflict, and rolls all of it back.
    ///
    /// - Parameter changes: The changes.
    /// - Returns: One version per change.
    /// - Throws: `StorageError`: `conflict`, or `io` (transient) when the database fails.
    public func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        try DocumentChange.check(changes)
        let userID = userID
        let journal = journal
        return try await run(changes.first?.location) {
            try await database.transaction(lockingUser: userID) { transaction in
                var versions: [StorageVersion?] = []
                for change in changes {
                    let scope = Self.scope(of: change.location)
                    let expected = change.expected?.rawValue
                    switch change.action {
                    case .save(let preferences):
                        // A new random version at every save: a counter would start again at 1
                        // after a removal, and a stale writer's save would then win.
                        let version = UUID().uuidString
                        let json = preferences.jsonString()
                        let changed: Int
                        if let expected {
                            changed = try await transaction.execute(
                                "UPDATE reading_preferences SET json = ?, version = ? WHERE user_id = ? AND scope = ? AND version = ?",
                                [json, version, userID, scope, expected])
                        } else {
                            changed = try await transaction.execute(
                                "INSERT INTO reading_preferences (user_id, scope, json, version) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, scope) DO NOTHING",
                                [userID, scope, json, version])
                        }
                        guard changed == 1 else { throw StorageError.conflict(change.location) }
                        versions.append(StorageVersion(version))
                    case .remove:
                        if let expected {
                            let removed = try await transaction.execute(
                                "DELETE FROM reading_preferences WHERE user_id = ? AND scope = ? AND version = ?",
                                [userID, scope, expected])
                            guard removed == 1 else { throw StorageError.conflict(change.location) }
                        } else {
                            try await Self.check(change, of: userID, in: transaction)
                        }
                        versions.append(nil)
                    case .verify:
                        try await Self.check(change, of: userID, in: transaction)
                        versions.append(change.expected)
                    }
                }
                // The journal, in the same transaction: written with the documents, or not at all.
                let recorded = changes.filter { $0.location.isLayer && !$0.journal.isEmpty }
                if let journal, !recorded.isEmpty {
                    try await journal.record(
                        recorded.map { ($0.location, $0.journal) }, of: userID, in: transaction)
                }
                return versions
            }
        }
    }

    /// Checks that a row is at the version a change expects (absent for `nil`).
    private static func check(_ change: DocumentChange, of userID: String, in transaction: any SQLDatabase)
        async throws
    {
        let rows = try await row(scope(of: change.location), of: userID, in: transaction)
        guard rows.first?["version"] == change.expected?.rawValue else {
            throw StorageError.conflict(change.location)
        }
    }

    /// Copies a damaged row aside under a scope no location has, and puts the replacement (or
    /// nothing) in its place, in one transaction.
    ///
    /// - Parameters:
    ///   - location: Where the damaged data is.
    ///   - version: Its version.
    ///   - replacement: What the row holds afterwards.
    /// - Returns: The scope the data went to, and the replacement's version.
    /// - Throws: `StorageError`.
    public func quarantine(
        _ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?
    )
        async throws(StorageError) -> Quarantine
    {
        try location.checked()
        let scope = Self.scope(of: location)
        let userID = userID
        // The damaged row is copied aside under a scope no location has, then replaced, in one
        // transaction.
        let aside = "corrupt:\(Int(Date().timeIntervalSince1970 * 1000)):\(UUID().uuidString):\(scope)"
        let next = replacement.map { _ in UUID().uuidString }
        try await run(location) {
            try await database.transaction(lockingUser: userID) { transaction in
                let rows = try await Self.row(scope, of: userID, in: transaction)
                guard let row = rows.first, row["version"] == version.rawValue, let json = row["json"] else {
                    throw StorageError.conflict(location)
                }
                _ = try await transaction.execute(
                    "INSERT INTO reading_preferences (user_id, scope, json, version) VALUES (?, ?, ?, ?)",
                    [userID, aside, json, version.rawValue])
                if let replacement, let next {
                    _ = try await transaction.execute(
                        "UPDATE reading_preferences SET json = ?, version = ? WHERE user_id = ? AND scope = ?",
                        [replacement.jsonString(), next, userID, scope])
                } else {
                    _ = try await transaction.execute(
                        "DELETE FROM reading_preferences WHERE user_id = ? AND scope = ?", [userID, scope])
                }
            }
        }
        return Quarantine(movedTo: aside, version: next.map(StorageVersion.init))
    }

    /// A page of identifiers, read from the scopes between the prefix and its end in byte order.
    ///
    /// - Parameters:
    ///   - kind: Which documents.
    ///   - configurable: The configurable.
    ///   - after: Only identifiers after this one.
    ///   - limit: The most to return.
    /// - Returns: The identifiers, sorted by their UTF-8 bytes.
    /// - Throws: `StorageError`.
    public func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError) -> [String]
    {
        try StorageLocation.checkConfigurable(configurable)
        let layer = (kind.isSnapshot ? "/sync/" : "/") + kind.layer("").scopePath
        let prefix = Self.encoded(configurable) + layer
        // The scopes between `<prefix>` and `<prefix>` with its final `/` made `0` (the next
        // byte) are the scopes that start with it, in byte order (`COLLATE "C"`).
        let start = prefix + (after ?? "")
        let end = String(prefix.dropLast()) + "0"
        let sql =
            "SELECT scope FROM reading_preferences WHERE user_id = ? AND scope > ? AND scope < ? ORDER BY scope"
            + (limit.map { " LIMIT \(max($0, 0))" } ?? "")
        let rows = try await run(nil) { try await database.query(sql, [userID, start, end]) }
        return rows.compactMap { row -> String? in
            guard let scope = row["scope"], scope.utf8.starts(with: prefix.utf8) else { return nil }
            return String(decoding: scope.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
        }
    }

    /// The configurables with a row.
    ///
    /// - Returns: Their identifiers, sorted by their UTF-8 bytes.
    /// - Throws: `StorageError`.
    public func configurables() async throws(StorageError) -> [String] {
        let rows = try await run(nil) {
            try await database.query(
                "SELECT DISTINCT scope FROM reading_preferences WHERE user_id = ?", [userID])
        }
        var names = Set<String>()
        for row in rows {
            // `device`, `sync-state`, `sync-lease` and corrupt rows have no `/` before any `:`.
            guard let scope = row["scope"], let slash = scope.firstIndex(of: "/"),
                !scope[..<slash].contains(":")
            else { continue }
            names.insert(String(scope[..<slash]).removingPercentEncoding ?? String(scope[..<slash]))
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// A layer document's change journal: the changes the user's sync log recorded for it, after
    /// a cursor (`h<sequence>`); none without a ``journal``.
    ///
    /// - Parameters:
    ///   - location: A layer document.
    ///   - cursor: Where an earlier read got to.
    /// - Returns: The entries recorded since, oldest first, and the cursor after them.
    /// - Throws: `StorageError` when the database fails.
    public func journal(of location: StorageLocation, after cursor: JournalCursor?) async throws(StorageError)
        -> JournalRead
    {
        try location.checked()
        guard let journal, location.isLayer else { return JournalRead() }
        let userID = userID
        return try await run(location) {
            try await journal.journal(of: Self.scope(of: location), after: cursor, of: userID, in: database)
        }
    }

    /// The user's server replica clock (with a ``journal``), in a transaction that holds the
    /// user's rows; without one, the clock kept as a document.
    public func updateReplicaClock<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        guard let journal else {
            return try await updateClockDocument(body)
        }
        let userID = userID
        return try await database.transaction(lockingUser: userID) { transaction in
            try await journal.updateClock(of: userID, in: transaction, body)
        }
    }

    /// Every row of the user, in one statement, and with a ``journal`` the user's history in the
    /// same transaction: for an account's deletion.
    public func removeAll() async throws(StorageError) {
        let userID = userID
        guard let journal else {
            _ = try await run(nil) {
                try await database.execute("DELETE FROM reading_preferences WHERE user_id = ?", [userID])
            }
            return
        }
        _ = try await run(nil) {
            try await database.transaction(lockingUser: userID) { transaction in
                _ = try await transaction.execute(
                    "DELETE FROM reading_preferences WHERE user_id = ?", [userID])
                try await journal.forgetHistory(of: userID, in: transaction)
            }
        }
    }

    // MARK: - Scopes

    /// The row of a scope, or none.
    static func row(_ scope: String, of userID: String, in database: any SQLDatabase) async throws
        -> [[String: String]]
    {
        try await database.query(
            "SELECT json, version FROM reading_preferences WHERE user_id = ? AND scope = ?", [userID, scope])
    }

    /// The scope column of a location: `device`, `sync-state`, `sync-lease`, or the configurable's
    /// identifier followed by the layer, as in `epub/shared`, `epub/overrides`,
    /// `epub/profile/3f9c2a7e51d0` and `epub/publication/urn:isbn:978-0` (and `epub/sync/...` for
    /// a sync snapshot).
    public static func scope(of location: StorageLocation) -> String {
        switch location {
        case .device: return "device"
        case .syncState: return "sync-state"
        case .syncLease: return "sync-lease"
        case .replicaClock: return "replica-clock"
        case .layer(let configurable, let layer): return encoded(configurable) + "/" + path(of: layer)
        case .syncSnapshot(let configurable, let layer):
            return encoded(configurable) + "/sync/" + path(of: layer)
        }
    }

    static func path(of layer: StoreLayer) -> String { layer.scopePath }

    /// The configurable's identifier with everything but ASCII letters, digits, `-` and `.`
    /// percent-encoded. It never holds `/` or `:`, so no two locations share a scope, and no
    /// location's scope is `device` or starts like a corrupt row's `corrupt:<time>:...`.
    static func encoded(_ configurable: String) -> String {
        if configurable.utf8.allSatisfy(plainBytes.contains) { return configurable }
        return configurable.addingPercentEncoding(withAllowedCharacters: plain) ?? configurable
    }

    static let plainCharacters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-."
    static let plain = CharacterSet(charactersIn: plainCharacters)
    static let plainBytes = Set(plainCharacters.utf8)

    /// Runs a database call: a `StorageError` (a conflict found in a transaction) as it is, any
    /// other failure of the database as `io`, transient, with the driver's error underneath.
    private func run<T>(_ location: StorageLocation?, _ call: () async throws -> T) async throws(StorageError)
        -> T
    {
        do {
            return try await call()
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(
                .io, location: location, message: "the database failed: \(error)", isTransient: true,
                underlying: SQLFailure(description: "\(error)"))
        }
    }
}

/// A database failure, as text (a driver's error may not be `Sendable`).
struct SQLFailure: Error, Sendable, CustomStringConvertible {
    var description: String
}
