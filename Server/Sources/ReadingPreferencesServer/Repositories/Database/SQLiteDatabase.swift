import Foundation
import Logging
import ReadingPreferencesSQL
import SQLiteNIO

/// The embedded database: one SQLite file, in write-ahead-log mode.
///
/// One connection writes, every transaction and change taken in turn (SQLite has one writer at
/// a time anyway; a connection's statements from two tasks would otherwise interleave inside
/// each other's transactions). Reads outside a transaction go to a few more connections, each
/// also taken in turn, which the log lets read beside the writer; each sees what was committed
/// when its statement began.
final class SQLiteDatabase: ServerDatabase, @unchecked Sendable {
    private let connection: SQLiteConnection
    private let turns = AsyncTurns()
    private let readers: [(connection: SQLiteConnection, turns: AsyncTurns)]
    private let lock = NSLock()
    private var nextReader = 0
    let dialect = SQLDialect.sqlite
    /// Where the file is, for people.
    let path: String
    /// How many connections read beside the writer.
    static let readerCount = 2

    private init(connection: SQLiteConnection, readers: [SQLiteConnection], path: String) {
        self.connection = connection
        self.readers = readers.map { ($0, AsyncTurns()) }
        self.path = path
    }

    /// Opens (and creates) the database file, with write-ahead logging.
    static func open(path: String) async throws -> SQLiteDatabase {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        _ = try await connection.query("PRAGMA journal_mode=WAL")
        _ = try await connection.query("PRAGMA synchronous=NORMAL")
        _ = try await connection.query("PRAGMA busy_timeout=5000")
        var readers: [SQLiteConnection] = []
        for _ in 0..<readerCount {
            let reader = try await SQLiteConnection.open(storage: .file(path: path))
            _ = try await reader.query("PRAGMA busy_timeout=5000")
            _ = try await reader.query("PRAGMA query_only=1")
            readers.append(reader)
        }
        return SQLiteDatabase(connection: connection, readers: readers, path: path)
    }

    func close() async throws {
        for reader in readers { try await reader.connection.close() }
        try await connection.close()
    }

    // MARK: - SQLDatabase

    func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
        let reader = lock.withLock {
            nextReader = (nextReader + 1) % readers.count
            return readers[nextReader]
        }
        return try await reader.turns.run { try await Self.rows(sql, bindings, on: reader.connection) }
    }

    func execute(_ sql: String, _ bindings: [String]) async throws -> Int {
        try await turns.run { try await self.changes(sql, bindings) }
    }

    func transaction<T: Sendable>(
        lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await turns.run {
            _ = try await self.connection.query("BEGIN IMMEDIATE")
            do {
                let result = try await body(Transaction(database: self))
                _ = try await self.connection.query("COMMIT")
                return result
            } catch {
                _ = try? await self.connection.query("ROLLBACK")
                throw error
            }
        }
    }

    /// One process changes the file's schema at a time through SQLite's own locking: each
    /// migration runs in one `BEGIN IMMEDIATE` transaction with its record, and a migration run
    /// twice by two processes keeps every row (each step reads what the one before wrote).
    func withSchemaLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await body()
    }

    func runScript(_ statements: [String]) async throws {
        // One transaction: SQLite's schema changes are transactional, so a migration is applied
        // whole or not at all.
        try await turns.run {
            _ = try await self.connection.query("BEGIN IMMEDIATE")
            do {
                for statement in statements { _ = try await self.connection.query(statement) }
                _ = try await self.connection.query("COMMIT")
            } catch {
                _ = try? await self.connection.query("ROLLBACK")
                throw error
            }
        }
    }

    // MARK: - Statements

    fileprivate static func rows(_ sql: String, _ bindings: [String], on connection: SQLiteConnection)
        async throws -> [[String: String]]
    {
        let rows = try await connection.query(sql, bindings.map { .text($0) })
        return rows.map { row in
            var result: [String: String] = [:]
            for column in row.columns {
                switch column.data {
                case .text(let text): result[column.name] = text
                case .integer(let value): result[column.name] = String(value)
                case .float(let value): result[column.name] = String(value)
                case .blob(let buffer): result[column.name] = String(buffer: buffer)
                case .null: break
                }
            }
            return result
        }
    }

    /// Runs an `INSERT`, `UPDATE` or `DELETE` and counts the rows it changed, in one statement
    /// (`RETURNING`, SQLite 3.35 and later; the bundled SQLite is newer).
    fileprivate func changes(_ sql: String, _ bindings: [String]) async throws -> Int {
        try await connection.query(sql + " RETURNING 1", bindings.map { .text($0) }).count
    }

    /// The statements of one transaction, run inside its turn.
    private struct Transaction: SQLDatabase {
        let database: SQLiteDatabase

        func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
            try await SQLiteDatabase.rows(sql, bindings, on: database.connection)
        }

        func execute(_ sql: String, _ bindings: [String]) async throws -> Int {
            try await database.changes(sql, bindings)
        }

        func transaction<T: Sendable>(
            lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
        ) async throws -> T {
            try await body(self)
        }
    }
}
