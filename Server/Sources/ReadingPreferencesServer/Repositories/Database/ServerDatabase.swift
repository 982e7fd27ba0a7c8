import ReadingPreferencesSQL

/// The two SQL dialects the server speaks. The statements are the same where they agree; the
/// schema differs only in how a text column compares (`COLLATE "C"` on PostgreSQL, so that
/// scopes and keys compare byte for byte, as SQLite's do).
enum SQLDialect: String, Sendable {
    case sqlite
    case postgres
}

/// A database the server keeps its tables in: the storage's three calls, and a script runner
/// for migrations.
protocol ServerDatabase: SQLDatabase {
    var dialect: SQLDialect { get }
    /// Runs statements one after another in one transaction of their own (a migration: applied
    /// whole or not at all).
    func runScript(_ statements: [String]) async throws
    /// Runs `body` while no other server instance changes the schema.
    func withSchemaLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
    /// Hands `sink` what the schema's triggers announce at each commit, when the database
    /// delivers them in process (SQLite); PostgreSQL's go to every instance's listener instead
    /// (``LiveNotice``), so it does nothing there.
    func announce(to sink: @escaping @Sendable ([LiveNotice]) -> Void)
}

/// What a statement of the package does, judged from its text (the repositories' statements
/// only: they start with their verb, in capitals).
enum SQLStatementKind {
    /// Whether a statement only reads (`SELECT ...`); anything else may change a row.
    static func isPlainRead(_ sql: String) -> Bool { sql.utf8.starts(with: "SELECT ".utf8) }
}
