import Foundation

/// The server's tables, created and upgraded by numbered migrations: each runs once, in order,
/// and the highest applied is kept in `schema_migrations`. A server that finds a database newer
/// than it knows refuses to start rather than guess.
///
/// - `accounts`, `tokens`: users and the SHA-256 of their bearer tokens (never the tokens).
/// - `reading_preferences`: the store's documents, one row per document of one user, as text
///   (`ReadingPreferencesSQL`).
/// - `sync_users`: per user, the server's replica id, its clock, the next change sequence and
///   the compaction floor.
/// - `sync_replicas`: the devices' replica ids each user has pushed with. Replica ids are per
///   user (two users' devices may both be `phone`); migration 2 made them so, keeping every row.
/// - `sync_entries`: per user, scope and key, the winning entry and the sequence it was stored
///   at (the changes feed).
/// - `sync_merged`: per user, the highest stamp merged of each replica.
/// - `sync_history`: per user, every change of a document (the storage's change journal), in the
///   order recorded, within the journal's bounds: what provenance and history read. Migration 3
///   made it, and gave `sync_replicas` the devices' display names.
enum Schema {
    /// The migrations, in order; a migration's statements run in one transaction, with its record.
    static func migrations(_ dialect: SQLDialect) -> [[String]] {
        let bytes = dialect == .postgres ? " COLLATE \"C\"" : ""
        return [
            [
                """
                CREATE TABLE IF NOT EXISTS accounts (
                    user_id TEXT PRIMARY KEY, name TEXT NOT NULL, created BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS tokens (
                    token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, created BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS reading_preferences (
                    user_id TEXT NOT NULL, scope TEXT\(bytes) NOT NULL, json TEXT NOT NULL, version TEXT NOT NULL,
                    PRIMARY KEY (user_id, scope))
                """,
                """
                CREATE TABLE IF NOT EXISTS sync_users (
                    user_id TEXT PRIMARY KEY, replica_id TEXT NOT NULL, clock_time BIGINT NOT NULL,
                    clock_counter BIGINT NOT NULL, next_seq BIGINT NOT NULL, floor_seq BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS sync_replicas (
                    replica_id TEXT\(bytes) PRIMARY KEY, user_id TEXT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS sync_entries (
                    user_id TEXT NOT NULL, scope TEXT\(bytes) NOT NULL, entry_key TEXT\(bytes) NOT NULL,
                    entry TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (user_id, scope, entry_key))
                """,
                "CREATE INDEX IF NOT EXISTS sync_entries_by_seq ON sync_entries (user_id, seq)",
                """
                CREATE TABLE IF NOT EXISTS sync_merged (
                    user_id TEXT NOT NULL, replica_id TEXT\(bytes) NOT NULL, stamp TEXT NOT NULL,
                    PRIMARY KEY (user_id, replica_id))
                """,
            ],
            // 2: replica ids per user. The first table claimed an id for the first account that
            // pushed with it, so a second user's `phone` was refused; the rows are kept.
            [
                """
                CREATE TABLE sync_replicas_by_user (
                    user_id TEXT NOT NULL, replica_id TEXT\(bytes) NOT NULL, PRIMARY KEY (user_id, replica_id))
                """,
                "INSERT INTO sync_replicas_by_user (user_id, replica_id) SELECT user_id, replica_id FROM sync_replicas",
                "DROP TABLE sync_replicas",
                "ALTER TABLE sync_replicas_by_user RENAME TO sync_replicas",
            ],
            // 3: the change journal (Specs/Store.md §15): every change of a user's documents,
            // kept as history; devices' display names.
            [
                """
                CREATE TABLE sync_history (
                    user_id TEXT NOT NULL, seq BIGINT NOT NULL, scope TEXT\(bytes) NOT NULL,
                    entry_key TEXT\(bytes) NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (user_id, seq))
                """,
                "CREATE INDEX sync_history_by_scope ON sync_history (user_id, scope, seq)",
                "ALTER TABLE sync_replicas ADD COLUMN name TEXT",
            ],
        ]
    }

    /// Creates the tables, or upgrades them, to the latest migration.
    static func migrate(_ database: any ServerDatabase) async throws {
        try await database.withSchemaLock { try await migrateLocked(database) }
    }

    private static func migrateLocked(_ database: any ServerDatabase) async throws {
        try await database.runScript([
            "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT NOT NULL)"
        ])
        let rows = try await database.query(
            "SELECT CAST(max(version) AS TEXT) AS v FROM schema_migrations", [])
        let applied = Int(rows.first?["v"] ?? "0") ?? 0
        let migrations = migrations(database.dialect)
        guard applied <= migrations.count else {
            throw ServerError.newerDatabase(applied, known: migrations.count)
        }
        for (index, statements) in migrations.enumerated() where index + 1 > applied {
            // A migration and its record commit together: a crash leaves it not applied at all.
            try await database.runScript(
                statements + ["INSERT INTO schema_migrations (version) VALUES (\(index + 1))"])
        }
    }
}

/// Why the server cannot start or run.
enum ServerError: Error, CustomStringConvertible {
    case newerDatabase(Int, known: Int)
    case usage(String)
    /// The database answered with something the server never writes.
    case unexpectedRow(String)

    var description: String {
        switch self {
        case .newerDatabase(let applied, let known):
            return "the database is at schema version \(applied); this server knows up to \(known)"
        case .usage(let message), .unexpectedRow(let message): return message
        }
    }
}
