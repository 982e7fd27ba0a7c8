import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// A reading back end as one more sync replica of each of its users (Specs/Sync.md §7), and the
/// change journal of each user's storage (Specs/Store.md §15.1), kept in SQL tables beside
/// ``SQLPreferencesStorage``'s, with sync's one merge and one clock:
///
/// - A device **pushes** its entries (``push(_:of:)``); each is merged with the entry the log
///   holds for its key (`SyncDocument.merge(_:forKey:)`) and, when it wins, stored with the next
///   number of the user's change sequence and applied to the user's documents through the
///   storage's document-write step (a damaged document is set aside first), all in one
///   transaction. The log never restamps what a device pushed. An entry stamped more than 24
///   hours ahead of the server's clock is ignored and reported, never a reason to refuse the rest.
/// - A write through the server's own routes is **recorded** by the storage it goes through
///   (``SQLPreferencesStorage/journal``): each changed key is stamped by the user's server
///   replica (its own id, its clock, which follows every stamp it accepted), one tick each, in
///   the transaction of the write.
/// - Every change, a device's or the server's, is kept as **history** (`sync_history`), within
///   `JournalBounds.standard`: what provenance and history read.
/// - The **changes** since a cursor (``changes(of:since:limit:)``) are the entries stored after
///   it, in order, paged; the **state** (``state(of:)``) is every entry in the replica-file
///   format; ``reset(of:in:)`` forgets them for an account's deletion.
///
/// Its tables, in the dialects of ``SQLDatabase``:
///
/// ```sql
/// CREATE TABLE sync_users (user_id TEXT PRIMARY KEY, replica_id TEXT NOT NULL,
///     clock_time BIGINT NOT NULL, clock_counter BIGINT NOT NULL, next_seq BIGINT NOT NULL,
///     floor_seq BIGINT NOT NULL);
/// CREATE TABLE sync_replicas (user_id TEXT NOT NULL, replica_id TEXT NOT NULL, name TEXT,
///     PRIMARY KEY (user_id, replica_id));
/// CREATE TABLE sync_entries (user_id TEXT NOT NULL, scope TEXT NOT NULL, entry_key TEXT NOT NULL,
///     entry TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (user_id, scope, entry_key));
/// CREATE INDEX sync_entries_by_seq ON sync_entries (user_id, seq);
/// CREATE TABLE sync_merged (user_id TEXT NOT NULL, replica_id TEXT NOT NULL, stamp TEXT NOT NULL,
///     PRIMARY KEY (user_id, replica_id));
/// CREATE TABLE sync_history (user_id TEXT NOT NULL, seq BIGINT NOT NULL, scope TEXT NOT NULL,
///     entry_key TEXT NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (user_id, seq));
/// CREATE INDEX sync_history_by_scope ON sync_history (user_id, scope, seq);
/// ```
///
/// (text columns `COLLATE "C"` on PostgreSQL, so scopes and keys compare byte for byte).
public struct SQLSyncLog: Sendable {
    let database: any SQLDatabase
    /// How far ahead of the server's clock a stamp may be (Specs/Sync.md §4: 24 hours).
    static let futureBound: UInt64 = 24 * 3600 * 1000
    /// The wall clock, in milliseconds since 1970.
    let now: @Sendable () -> UInt64

    /// A log on a database.
    ///
    /// ```swift
    /// let log = SQLSyncLog(database: database)
    /// let answer = try await log.push(body, of: userID)
    /// ```
    ///
    /// - Parameters:
    ///   - database: The database, with the tables above.
    ///   - now: The wall clock, in milliseconds since 1970 (tests move it).
    public init(
        database: any SQLDatabase,
        now: @escaping @Sendable () -> UInt64 = { UInt64(max(0, Date().timeIntervalSince1970 * 1000)) }
    ) {
        self.database = database
        self.now = now
    }

    /// The server's replica id for a user: `server-` and 12 hex digits of the SHA-256 of the
    /// user's id, the same on every instance.
    ///
    /// - Parameter userID: The user.
    /// - Returns: The id.
    public static func replicaID(for userID: String) -> ReplicaID {
        let digest = SHA256.hash(userID.utf8).hexString(digits: 12)
        return ReplicaID("server-" + digest) ?? ReplicaID.random(prefix: "server")
    }

    /// The display name of every user's server replica, which stamps the writes made through the
    /// server's routes (a web reader's): its changes read "set on the web, 3 days ago" in
    /// history and provenance, on the server and on every device that syncs with it.
    public static let replicaName = "the web"

    // MARK: - The user's sync row

    /// The user's clock, sequence and compaction floor, read in a transaction.
    struct UserRow {
        var time: UInt64
        var counter: UInt64
        var nextSeq: Int64
        var floor: Int64

        /// The server replica's clock, as the row keeps it.
        func clock(of replica: ReplicaID) -> HybridClock {
            HybridClock(replica: replica, time: time, counter: counter)
        }

        /// Keeps where a clock stands.
        mutating func keep(_ clock: HybridClock) {
            time = clock.time
            counter = clock.counter
        }
    }

    /// Reads the user's row, creating it on first use.
    static func userRow(_ transaction: any SQLDatabase, _ userID: String) async throws -> UserRow {
        let rows = try await transaction.query(
            "SELECT CAST(clock_time AS TEXT) AS clock_time, CAST(clock_counter AS TEXT) AS clock_counter, "
                + "CAST(next_seq AS TEXT) AS next_seq, CAST(floor_seq AS TEXT) AS floor_seq FROM sync_users WHERE user_id = ?",
            [userID])
        if let row = rows.first {
            return UserRow(
                time: UInt64(row["clock_time"] ?? "0") ?? 0,
                counter: UInt64(row["clock_counter"] ?? "0") ?? 0,
                nextSeq: Int64(row["next_seq"] ?? "1") ?? 1, floor: Int64(row["floor_seq"] ?? "0") ?? 0)
        }
        _ = try await transaction.execute(
            "INSERT INTO sync_users (user_id, replica_id, clock_time, clock_counter, next_seq, floor_seq) "
                + "VALUES (?, ?, 0, 0, 1, 0)",
            [userID, replicaID(for: userID).rawValue])
        return UserRow(time: 0, counter: 0, nextSeq: 1, floor: 0)
    }

    static func save(_ row: UserRow, _ transaction: any SQLDatabase, _ userID: String) async throws {
        _ = try await transaction.execute(
            "UPDATE sync_users SET clock_time = CAST(? AS BIGINT), clock_counter = CAST(? AS BIGINT), "
                + "next_seq = CAST(? AS BIGINT) WHERE user_id = ?",
            [String(row.time), String(row.counter), String(row.nextSeq), userID])
    }

    /// Stores entries at the next sequence numbers, in order, a hundred rows per statement. A key
    /// given twice keeps its last entry (its earlier number goes unused).
    static func store(
        _ entries: [(scope: SyncScope, key: String, entry: SyncEntry)], _ row: inout UserRow,
        _ transaction: any SQLDatabase, _ userID: String
    ) async throws {
        var rows: [[String]] = []
        var position: [[UInt8]: Int] = [:]
        for item in entries {
            let values = [
                userID, item.scope.description, item.key, item.entry.jsonValue.jsonString(),
                String(row.nextSeq),
            ]
            row.nextSeq += 1
            let key = Array(item.scope.description.utf8) + [0] + Array(item.key.utf8)
            if let index = position[key] {
                rows[index] = values
            } else {
                position[key] = rows.count
                rows.append(values)
            }
        }
        try await insert(rows, of: "(?, ?, ?, ?, CAST(? AS BIGINT))", in: transaction) { marks in
            "INSERT INTO sync_entries (user_id, scope, entry_key, entry, seq) VALUES \(marks) "
                + "ON CONFLICT (user_id, scope, entry_key) DO UPDATE SET entry = excluded.entry, seq = excluded.seq"
        }
    }

    /// Runs a multi-row statement a hundred rows at a time (a database takes a few thousand
    /// bound values at most).
    static func insert(
        _ rows: [[String]], of mark: String, in transaction: any SQLDatabase, _ statement: (String) -> String
    ) async throws {
        for start in stride(from: 0, to: rows.count, by: 100) {
            let chunk = rows[start..<min(start + 100, rows.count)]
            _ = try await transaction.execute(
                statement(SQLMarks.list(chunk.count, of: mark)), chunk.flatMap { $0 })
        }
    }

}
