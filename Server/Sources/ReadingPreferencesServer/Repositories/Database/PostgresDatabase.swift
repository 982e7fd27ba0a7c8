import Foundation
import Logging
import NIOSSL
import PostgresNIO
import ReadingPreferencesSQL

/// PostgreSQL through a PostgresNIO client (a pool of connections, run as a service of the
/// application). Statements come with `?` placeholders and are numbered `$1`, `$2`...; every
/// value is bound as text and every column read back as text. A transaction takes an advisory
/// lock on its user first, so one user's batches run one at a time on every server instance,
/// and other users' never wait.
final class PostgresDatabase: ServerDatabase, @unchecked Sendable {
    let client: PostgresClient
    let dialect = SQLDialect.postgres
    let logger: Logger

    init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    // MARK: - SQLDatabase

    func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
        try await Self.rows(try await client.query(Self.statement(sql, bindings), logger: logger))
    }

    func execute(_ sql: String, _ bindings: [String]) async throws -> Int {
        try await Self.count(try await client.query(Self.counting(sql, bindings), logger: logger))
    }

    func transaction<T: Sendable>(
        lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                let lock = Self.statement("SELECT pg_advisory_xact_lock(hashtext(?))", [userID])
                _ = try await Self.rows(try await connection.query(lock, logger: logger))
                return try await body(Connection(connection: connection, logger: logger))
            }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error
        }
    }

    /// A session advisory lock, held on one connection of the pool while `body` runs.
    func withSchemaLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            _ = try await Self.rows(
                try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT pg_advisory_lock(5311)"), logger: logger))
            do {
                let result = try await body()
                _ = try? await Self.rows(
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(5311)"), logger: logger))
                return result
            } catch {
                _ = try? await Self.rows(
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(5311)"), logger: logger))
                throw error
            }
        }
    }

    /// Nothing: PostgreSQL's notices go through `NOTIFY` to every instance's listener.
    func announce(to sink: @escaping @Sendable ([LiveNotice]) -> Void) {}

    func runScript(_ statements: [String]) async throws {
        // One transaction: PostgreSQL's schema changes are transactional, so a migration is
        // applied whole or not at all.
        try await client.withTransaction(logger: logger) { connection in
            for statement in statements {
                _ = try await Self.rows(
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger))
            }
        }
    }

    // MARK: - Statements

    /// The statement with `?` numbered as `$n` (the package's statements have no `?` in
    /// literals), and its values bound as text.
    static func statement(_ sql: String, _ bindings: [String]) -> PostgresQuery {
        // Byte by byte: `?` is ASCII, and the statement's other bytes are copied as they are.
        var text: [UInt8] = []
        text.reserveCapacity(sql.utf8.count + 3 * bindings.count)
        var number = 0
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "?") {
                number += 1
                text.append(UInt8(ascii: "$"))
                text.append(contentsOf: String(number).utf8)
            } else {
                text.append(byte)
            }
        }
        var binds = PostgresBindings(capacity: bindings.count)
        for value in bindings { binds.append(value) }
        return PostgresQuery(unsafeSQL: String(decoding: text, as: UTF8.self), binds: binds)
    }

    /// An `INSERT`, `UPDATE` or `DELETE` made to answer how many rows it changed.
    static func counting(_ sql: String, _ bindings: [String]) -> PostgresQuery {
        statement("WITH changed AS (\(sql) RETURNING 1) SELECT count(*)::text AS n FROM changed", bindings)
    }

    static func rows(_ sequence: PostgresRowSequence) async throws -> [[String: String]] {
        var result: [[String: String]] = []
        for try await row in sequence {
            var columns: [String: String] = [:]
            for cell in row {
                guard cell.bytes != nil else { continue }
                // By the column's type: a binary integer also "decodes" as a string of its bytes.
                switch cell.dataType {
                case .int8, .int4, .int2:
                    if let number = try? cell.decode(Int64.self) { columns[cell.columnName] = String(number) }
                case .bool:
                    if let flag = try? cell.decode(Bool.self) {
                        columns[cell.columnName] = flag ? "true" : "false"
                    }
                default:
                    if let text = try? cell.decode(String.self) { columns[cell.columnName] = text }
                }
            }
            result.append(columns)
        }
        return result
    }

    static func count(_ sequence: PostgresRowSequence) async throws -> Int {
        Int(try await rows(sequence).first?["n"] ?? "0") ?? 0
    }

    /// The statements of one transaction, on its connection.
    private struct Connection: SQLDatabase {
        let connection: PostgresConnection
        let logger: Logger

        func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
            try await PostgresDatabase.rows(
                try await connection.query(PostgresDatabase.statement(sql, bindings), logger: logger))
        }

        func execute(_ sql: String, _ bindings: [String]) async throws -> Int {
            try await PostgresDatabase.count(
                try await connection.query(PostgresDatabase.counting(sql, bindings), logger: logger))
        }

        func transaction<T: Sendable>(
            lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
        ) async throws -> T {
            try await body(self)
        }
    }
}

/// A `postgres://user:password@host:port/database` address.
struct PostgresAddress: Sendable, Equatable {
    var host: String
    var port: Int
    var username: String
    var password: String?
    var database: String?
    /// How the connection is encrypted, from the address's `sslmode` as libpq reads it:
    /// `disable`; `prefer` (the default: TLS when the server offers it) and `require` (TLS or
    /// nothing), neither checking the certificate; `verify-ca` (the certificate's chain, not its
    /// name) and `verify-full` (chain and host name). Roots are the system's.
    var sslMode = "prefer"

    /// The `sslmode` values read.
    static let sslModes: Set<String> = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    /// Reads an address; `nil` when it is not one (an unknown `sslmode` included).
    init?(_ text: String) {
        guard let components = URLComponents(string: text),
            components.scheme == "postgres" || components.scheme == "postgresql",
            let host = components.host, !host.isEmpty
        else { return nil }
        self.host = host
        port = components.port ?? 5432
        username = components.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        password = components.password.flatMap { $0.removingPercentEncoding }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? nil : path
        if let mode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value {
            guard Self.sslModes.contains(mode) else { return nil }
            sslMode = mode
        }
    }

    var configuration: PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS
        switch (sslMode, tlsConfiguration) {
        case (_, nil): mode = .disable
        case ("prefer", let tls?), ("allow", let tls?): mode = .prefer(tls)
        case (_, let tls?): mode = .require(tls)
        }
        return PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode)
    }

    /// The same address for a connection of its own, outside the pool (the listener's).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let mode: PostgresConnection.Configuration.TLS
        switch (sslMode, tlsConfiguration) {
        case (_, nil): mode = .disable
        case ("prefer", let tls?), ("allow", let tls?): mode = .prefer(try NIOSSLContext(configuration: tls))
        case (_, let tls?): mode = .require(try NIOSSLContext(configuration: tls))
        }
        return PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode)
    }

    /// The TLS settings of the `sslmode`, or `nil` for `disable`.
    private var tlsConfiguration: TLSConfiguration? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case "disable":
            return nil
        case "verify-ca", "verify-full":
            tls.certificateVerification = sslMode == "verify-ca" ? .noHostnameVerification : .fullVerification
        default:
            tls.certificateVerification = .none
        }
        return tls
    }
}
