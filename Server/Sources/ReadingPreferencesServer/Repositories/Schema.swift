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
/// - `devices`: the devices a user made tokens for (`POST /v1/devices`), each with its name,
///   class, replica id, when it was made and last seen; `tokens.device_id` names a device's token.
/// - `event_tickets`: the SHA-256 of each ticket that opens one event stream, until it expires.
/// - `event_streams`: the open event streams, each with a lease its instance renews, so a user's
///   streams are counted on every instance.
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
            // 4: live changes and devices (SRV-0005). A token may belong to a device, which the
            // reader sees and revokes; tickets open one event stream each; each open stream
            // holds a lease, so a user's streams are counted across instances.
            [
                "ALTER TABLE tokens ADD COLUMN device_id TEXT",
                "CREATE INDEX tokens_by_device ON tokens (device_id)",
                """
                CREATE TABLE devices (
                    device_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL,
                    device_class TEXT, replica_id TEXT, created BIGINT NOT NULL, last_seen BIGINT)
                """,
                "CREATE INDEX devices_by_user ON devices (user_id, created)",
                """
                CREATE TABLE event_tickets (
                    ticket_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, device_id TEXT,
                    expires BIGINT NOT NULL)
                """,
                "CREATE INDEX event_tickets_by_user ON event_tickets (user_id)",
                "CREATE INDEX event_tickets_by_expiry ON event_tickets (expires)",
                """
                CREATE TABLE event_streams (
                    stream_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, instance_id TEXT NOT NULL,
                    expires BIGINT NOT NULL)
                """,
                "CREATE INDEX event_streams_by_user ON event_streams (user_id)",
                "CREATE INDEX event_streams_by_instance ON event_streams (instance_id)",
            ] + (dialect == .postgres ? LiveNotice.postgresTriggers : []),
        ]
    }

    /// What a connection runs once the tables exist, for itself only: on SQLite, the temporary
    /// triggers that announce a committed change through the writing connection's own
    /// function (the same announcements PostgreSQL's triggers make with `NOTIFY`); nothing on
    /// PostgreSQL, whose triggers are in the schema.
    static func sessionStatements(_ dialect: SQLDialect) -> [String] {
        dialect == .sqlite ? LiveNotice.sqliteTriggers : []
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
        let session = sessionStatements(database.dialect)
        if !session.isEmpty { try await database.runScript(session) }
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
