import Foundation
import Logging
import ReadingPreferencesSQL
import SQLiteNIO

/// The embedded database: one SQLite file, one connection, every statement and transaction
/// taken in turn (SQLite has one writer at a time anyway; a connection's statements from two
/// tasks would otherwise interleave inside each other's transactions).
final class SQLiteDatabase: ServerDatabase, @unchecked Sendable {
    private let connection: SQLiteConnection
    private let turns = AsyncTurns()
    let dialect = SQLDialect.sqlite
    /// Where the file is, for people.
    let path: String

    private init(connection: SQLiteConnection, path: String) {
        self.connection = connection
        self.path = path
    }

    /// Opens (and creates) the database file, with write-ahead logging.
    static func open(path: String) async throws -> SQLiteDatabase {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        let database = SQLiteDatabase(connection: connection, path: path)
        _ = try await connection.query("PRAGMA journal_mode=WAL")
        _ = try await connection.query("PRAGMA synchronous=NORMAL")
        _ = try await connection.query("PRAGMA busy_timeout=5000")
        return database
    }

    func close() async throws {
        try await connection.close()
    }

    // MARK: - SQLDatabase

    func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
        try await turns.run { try await self.rows(sql, bindings) }
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

    /// One process owns the file's schema at a time through SQLite's own locking; the
    /// statements of a migration are idempotent.
    func withSchemaLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await body()
    }

    func runScript(_ statements: [String]) async throws {
        try await turns.run {
            for statement in statements { _ = try await self.connection.query(statement) }
        }
    }

    // MARK: - Statements

    fileprivate func rows(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
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
            try await database.rows(sql, bindings)
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

/// Runs asynchronous work one piece at a time, in the order asked.
actor AsyncTurns {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        await take()
        defer { give() }
        return try await work()
    }

    private func take() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func give() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
