import Foundation
import ReadingPreferencesConformance
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// The guide's `SQLDatabase` in memory: the handful of statements the guide's storage runs,
/// over one table `reading_preferences (user_id, scope, json, version)` compared byte for byte
/// (a `COLLATE "C"` text column), with transactions that hold a user's rows, and faults on
/// demand. Any other statement is an error, so the guide cannot drift from what this checks.
actor InMemorySQLDatabase: SQLDatabase {
    /// The table, as a value a transaction copies.
    struct Table: Sendable {
        struct Key: Hashable, Sendable {
            var user: [UInt8]
            var scope: [UInt8]
        }

        var rows: [Key: (json: String, version: String)] = [:]

        static func key(_ user: String, _ scope: String) -> Key {
            Key(user: Array(user.utf8), scope: Array(scope.utf8))
        }

        func query(_ sql: String, _ bindings: [String]) throws -> [[String: String]] {
            switch sql {
            case "SELECT json, version FROM reading_preferences WHERE user_id = ? AND scope = ?":
                guard let row = rows[Self.key(bindings[0], bindings[1])] else { return [] }
                return [["json": row.json, "version": row.version]]
            case "SELECT DISTINCT scope FROM reading_preferences WHERE user_id = ?":
                let user = Array(bindings[0].utf8)
                return rows.keys.filter { $0.user == user }.map {
                    ["scope": String(decoding: $0.scope, as: UTF8.self)]
                }
            default:
                let range =
                    "SELECT scope FROM reading_preferences WHERE user_id = ? AND scope > ? AND scope < ? ORDER BY scope"
                guard sql.hasPrefix(range) else { throw SQLDoubleError.unknownStatement(sql) }
                let rest = sql.dropFirst(range.count)
                var limit = Int.max
                if !rest.isEmpty {
                    guard rest.hasPrefix(" LIMIT "), let value = Int(rest.dropFirst(" LIMIT ".count)) else {
                        throw SQLDoubleError.unknownStatement(sql)
                    }
                    limit = value
                }
                let user = Array(bindings[0].utf8)
                let low = Array(bindings[1].utf8)
                let high = Array(bindings[2].utf8)
                let scopes = rows.keys.filter {
                    $0.user == user && low.lexicographicallyPrecedes($0.scope)
                        && $0.scope.lexicographicallyPrecedes(high)
                }
                .map(\.scope).sorted { $0.lexicographicallyPrecedes($1) }
                return scopes.prefix(limit).map { ["scope": String(decoding: $0, as: UTF8.self)] }
            }
        }

        mutating func execute(_ sql: String, _ bindings: [String]) throws -> Int {
            switch sql {
            case "INSERT INTO reading_preferences (user_id, scope, json, version) VALUES (?, ?, ?, ?)":
                let key = Self.key(bindings[0], bindings[1])
                guard rows[key] == nil else { throw SQLDoubleError.duplicateKey }
                rows[key] = (bindings[2], bindings[3])
                return 1
            case "INSERT INTO reading_preferences (user_id, scope, json, version) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, scope) DO NOTHING":
                let key = Self.key(bindings[0], bindings[1])
                guard rows[key] == nil else { return 0 }
                rows[key] = (bindings[2], bindings[3])
                return 1
            case "UPDATE reading_preferences SET json = ?, version = ? WHERE user_id = ? AND scope = ?":
                let key = Self.key(bindings[2], bindings[3])
                guard rows[key] != nil else { return 0 }
                rows[key] = (bindings[0], bindings[1])
                return 1
            case "UPDATE reading_preferences SET json = ?, version = ? WHERE user_id = ? AND scope = ? AND version = ?":
                let key = Self.key(bindings[2], bindings[3])
                guard let row = rows[key], Array(row.version.utf8) == Array(bindings[4].utf8) else {
                    return 0
                }
                rows[key] = (bindings[0], bindings[1])
                return 1
            case "DELETE FROM reading_preferences WHERE user_id = ? AND scope = ?":
                return rows.removeValue(forKey: Self.key(bindings[0], bindings[1])) == nil ? 0 : 1
            case "DELETE FROM reading_preferences WHERE user_id = ? AND scope = ? AND version = ?":
                let key = Self.key(bindings[0], bindings[1])
                guard let row = rows[key], Array(row.version.utf8) == Array(bindings[2].utf8) else {
                    return 0
                }
                rows[key] = nil
                return 1
            case "DELETE FROM reading_preferences WHERE user_id = ?":
                let user = Array(bindings[0].utf8)
                let removed = rows.keys.filter { $0.user == user }
                for key in removed { rows[key] = nil }
                return removed.count
            default:
                throw SQLDoubleError.unknownStatement(sql)
            }
        }
    }

    private var table = Table()
    private var heldUsers: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var failAfter: Int?
    private var readsFail = false
    /// The statements run, for tests that count them.
    private(set) var statements = 0

    // MARK: - SQLDatabase

    func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
        if readsFail { throw SQLDoubleError.injected }
        statements += 1
        return try table.query(sql, bindings)
    }

    func execute(_ sql: String, _ bindings: [String]) async throws -> Int {
        try step()
        statements += 1
        return try table.execute(sql, bindings)
    }

    func transaction<T: Sendable>(
        lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
    )
        async throws -> T
    {
        await hold(userID)
        defer { release(userID) }
        // The transaction works on its own copy; its user's rows replace ours when it commits.
        let transaction = Transaction(database: self, table: table)
        let result = try await body(transaction)
        let user = Array(userID.utf8)
        let committed = transaction.table
        for key in table.rows.keys where key.user == user { table.rows[key] = nil }
        for (key, row) in committed.rows where key.user == user { table.rows[key] = row }
        return result
    }

    // MARK: - Faults

    nonisolated var faults: StorageFaults {
        StorageFaults(
            plant: { data, location in
                await self.plant(
                    String(decoding: data, as: UTF8.self), at: SQLPreferencesStorage.scope(of: location))
            },
            failWrites: { await self.setFailAfter($0) }, failReads: { await self.setReadsFail($0) },
            readSetAside: { scope in await self.json(at: scope) })
    }

    private func json(at scope: String) -> Data? {
        table.rows.first { $0.key.scope == Array(scope.utf8) }.map { Data($0.value.0.utf8) }
    }

    private func plant(_ json: String, at scope: String) {
        for key in table.rows.keys where key.scope == Array(scope.utf8) {
            table.rows[key] = (json, UUID().uuidString)
        }
    }

    private func setFailAfter(_ steps: Int?) { failAfter = steps }
    private func setReadsFail(_ fail: Bool) { readsFail = fail }

    fileprivate func step() throws {
        guard let remaining = failAfter else { return }
        if remaining == 0 {
            failAfter = nil
            throw SQLDoubleError.injected
        }
        failAfter = remaining - 1
    }

    fileprivate func checkRead() throws {
        if readsFail { throw SQLDoubleError.injected }
    }

    // MARK: - Holding a user's rows

    private func hold(_ user: String) async {
        while heldUsers.contains(user) {
            await withCheckedContinuation { waiting[user, default: []].append($0) }
        }
        heldUsers.insert(user)
    }

    private func release(_ user: String) {
        heldUsers.remove(user)
        if var queue = waiting[user], !queue.isEmpty {
            queue.removeFirst().resume()
            waiting[user] = queue
        }
    }

    /// One transaction's connection: its statements run on its copy of the table.
    final class Transaction: SQLDatabase, @unchecked Sendable {
        let database: InMemorySQLDatabase
        private let lock = NSLock()
        private var copy: Table

        init(database: InMemorySQLDatabase, table: Table) {
            self.database = database
            copy = table
        }

        var table: Table { lock.withLock { copy } }

        func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
            try await database.checkRead()
            return try lock.withLock { try copy.query(sql, bindings) }
        }

        func execute(_ sql: String, _ bindings: [String]) async throws -> Int {
            try await database.step()
            return try lock.withLock { try copy.execute(sql, bindings) }
        }

        func transaction<T: Sendable>(
            lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
        )
            async throws -> T
        {
            try await body(self)
        }
    }
}

enum SQLDoubleError: Error, Sendable {
    case unknownStatement(String)
    case duplicateKey
    case injected
}
