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
///
/// The writing connection has one function of the server's own, `readingprefs_notify(channel,
/// payload)`, which the schema's temporary triggers call when a user's change cursor moves or a
/// device is revoked (``LiveNotice``). What it is told waits until the transaction commits, and
/// is then handed to the sink given to ``announce(to:)`` (the instance's event streams); a rollback forgets it.
final class SQLiteDatabase: ServerDatabase, @unchecked Sendable {
    private let connection: SQLiteConnection
    private let turns = AsyncTurns()
    private let readers: [(connection: SQLiteConnection, turns: AsyncTurns)]
    private let lock = NSLock()
    private var nextReader = 0
    /// What the writing connection's triggers announced in the transaction that runs now.
    private let announced: Announcements

    /// Tells `sink` what each committed transaction announced.
    func announce(to sink: @escaping @Sendable ([LiveNotice]) -> Void) { announced.sink = sink }
    let dialect = SQLDialect.sqlite
    /// Where the file is, for people.
    let path: String
    /// How many connections read beside the writer.
    static let readerCount = 2

    private init(
        connection: SQLiteConnection, readers: [SQLiteConnection], path: String, announced: Announcements
    ) {
        self.connection = connection
        self.readers = readers.map { ($0, AsyncTurns()) }
        self.path = path
        self.announced = announced
    }

    /// Opens (and creates) the database file, with write-ahead logging.
    static func open(path: String) async throws -> SQLiteDatabase {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        let announced = Announcements()
        // `indirect`: called from the triggers (Specs/Server.md §9.3).
        try await connection.install(
            customFunction: SQLiteCustomFunction(
                LiveNotice.sqliteFunction, argumentCount: 2, indirect: true
            ) { [announced] values in
                if case .text(let channel) = values[0], case .text(let payload) = values[1],
                    let notice = LiveNotice(channel: channel, payload: payload)
                {
                    announced.add(notice)
                }
                return nil
            })
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
        return SQLiteDatabase(connection: connection, readers: readers, path: path, announced: announced)
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
        try await turns.run {
            do {
                let count = try await self.changes(sql, bindings)
                self.announced.deliver()
                return count
            } catch {
                self.announced.forget()
                throw error
            }
        }
    }

    func transaction<T: Sendable>(
        lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await turns.run {
            _ = try await self.connection.query("BEGIN IMMEDIATE")
            do {
                let result = try await body(Transaction(database: self))
                _ = try await self.connection.query("COMMIT")
                self.announced.deliver()
                return result
            } catch {
                _ = try? await self.connection.query("ROLLBACK")
                self.announced.forget()
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
                self.announced.deliver()
            } catch {
                _ = try? await self.connection.query("ROLLBACK")
                self.announced.forget()
                throw error
            }
        }
    }

    /// What the writing connection's triggers announced, kept until its transaction ends. The
    /// connection runs one transaction at a time (``AsyncTurns``), so what is kept belongs to the
    /// one running.
    private final class Announcements: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [LiveNotice] = []
        private var handler: (@Sendable ([LiveNotice]) -> Void)?

        var sink: (@Sendable ([LiveNotice]) -> Void)? {
            get { lock.withLock { handler } }
            set { lock.withLock { handler = newValue } }
        }

        func add(_ notice: LiveNotice) { lock.withLock { kept.append(notice) } }

        /// Hands what was kept to the sink: the transaction committed.
        func deliver() {
            let (notices, sink) = lock.withLock { () -> ([LiveNotice], (@Sendable ([LiveNotice]) -> Void)?) in
                defer { kept.removeAll() }
                return (kept, handler)
            }
            if !notices.isEmpty { sink?(notices) }
        }

        /// Forgets what was kept: the transaction rolled back.
        func forget() { lock.withLock { kept.removeAll() } }
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
