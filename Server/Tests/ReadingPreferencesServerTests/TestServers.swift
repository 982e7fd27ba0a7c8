import Foundation
import Hummingbird
import ReadingPreferencesConformance
import ReadingPreferencesSQL
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

/// The databases the tests run on: an embedded SQLite file always, and PostgreSQL when
/// `READINGPREFS_TEST_DATABASE_URL` names one (`.ci/run` always sets it).
enum TestDatabase: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    var description: String { rawValue }

    /// PostgreSQL's address, or `nil` (with a notice, once) when the tests run without one.
    static let postgresURL: String? = {
        let url = ProcessInfo.processInfo.environment["READINGPREFS_TEST_DATABASE_URL"]
        if url?.isEmpty ?? true {
            print("notice: READINGPREFS_TEST_DATABASE_URL is not set: the PostgreSQL tests are skipped")
            return nil
        }
        return url
    }()

    /// The databases available here.
    static var available: [TestDatabase] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// The configuration of a server on a fresh database (a new SQLite file; the shared
    /// PostgreSQL test database, whose users are new for each test), on any free port.
    func configuration() throws -> ServerConfiguration {
        var configuration: ServerConfiguration
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "rps-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            configuration = ServerConfiguration(
                database: .sqlite(path: folder.appendingPathComponent("db.sqlite").path))
        case .postgres:
            guard let url = Self.postgresURL else { throw TestSkip.noPostgres }
            configuration = ServerConfiguration(database: .postgres(url: url))
        }
        configuration.port = 0
        return configuration
    }

    /// A server on a fresh database, for the tests that drive its storage without HTTP.
    func open() async throws -> ReadingServer {
        try await ReadingServer.open(try configuration().database)
    }

    /// The product's application on a fresh database, as `readingprefs-server serve` builds it.
    func application(
        authenticator: (any Authenticator)? = nil, _ change: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> (application: some ApplicationProtocol, server: ReadingServer) {
        var configuration = try configuration()
        change(&configuration)
        return try await buildApplication(configuration, authenticator: authenticator)
    }
}

enum TestSkip: Error { case noPostgres }

/// A database that fails on demand: the storage suite's faults for the server's storages.
final class FaultyDatabase: ServerDatabase, @unchecked Sendable {
    let base: any ServerDatabase
    private let lock = NSLock()
    private var failAfter: Int?
    private var readsFail = false

    init(_ base: any ServerDatabase) { self.base = base }

    var dialect: SQLDialect { base.dialect }

    func runScript(_ statements: [String]) async throws { try await base.runScript(statements) }

    func withSchemaLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await base.withSchemaLock(body)
    }

    func announce(to sink: @escaping @Sendable ([LiveNotice]) -> Void) { base.announce(to: sink) }

    func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
        try checkRead()
        return try await base.query(sql, bindings)
    }

    func execute(_ sql: String, _ bindings: [String]) async throws -> Int {
        try step()
        return try await base.execute(sql, bindings)
    }

    func transaction<T: Sendable>(
        lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
    )
        async throws -> T
    {
        try await base.transaction(lockingUser: userID) { transaction in
            try await body(Wrapped(database: self, transaction: transaction))
        }
    }

    fileprivate func step() throws {
        try lock.withLock {
            guard let remaining = failAfter else { return }
            if remaining == 0 {
                failAfter = nil
                throw InjectedFailure()
            }
            failAfter = remaining - 1
        }
    }

    fileprivate func checkRead() throws {
        if lock.withLock({ readsFail }) { throw InjectedFailure() }
    }

    func faults(userID: String) -> StorageFaults {
        StorageFaults(
            plant: { data, location in
                _ = try await self.base.execute(
                    "UPDATE reading_preferences SET json = ?, version = ? WHERE user_id = ? AND scope = ?",
                    [
                        String(decoding: data, as: UTF8.self), UUID().uuidString, userID,
                        SQLPreferencesStorage.scope(of: location),
                    ])
            },
            failWrites: { steps in self.lock.withLock { self.failAfter = steps } },
            failReads: { fail in self.lock.withLock { self.readsFail = fail } },
            readSetAside: { scope in
                let rows = try await self.base.query(
                    "SELECT json, version FROM reading_preferences WHERE user_id = ? AND scope = ?",
                    [userID, scope])
                return rows.first?["json"].map { Data($0.utf8) }
            })
    }

    struct InjectedFailure: Error {}

    private struct Wrapped: SQLDatabase {
        let database: FaultyDatabase
        let transaction: any SQLDatabase

        func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]] {
            try database.checkRead()
            return try await transaction.query(sql, bindings)
        }

        func execute(_ sql: String, _ bindings: [String]) async throws -> Int {
            try database.step()
            return try await transaction.execute(sql, bindings)
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
