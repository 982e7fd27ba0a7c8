import Foundation

/// The database client your server already has, reduced to three calls: what
/// ``SQLPreferencesStorage`` needs of it. Bindings replace the `?` placeholders in order;
/// `query` returns each row as column name to text, and `execute` returns how many rows the
/// statement changed.
///
/// The statements are those of SQLite and PostgreSQL (with `?` placeholders, which a
/// PostgreSQL client numbers `$1`, `$2`...), on the table:
///
/// ```sql
/// CREATE TABLE reading_preferences (
///     user_id  TEXT NOT NULL,
///     scope    TEXT NOT NULL,    -- COLLATE "C" on PostgreSQL
///     json     TEXT NOT NULL,
///     version  TEXT NOT NULL,
///     PRIMARY KEY (user_id, scope)
/// );
/// ```
public protocol SQLDatabase: Sendable {
    func query(_ sql: String, _ bindings: [String]) async throws -> [[String: String]]
    func execute(_ sql: String, _ bindings: [String]) async throws -> Int
    /// Runs `body` in one transaction that holds the user's rows against every other
    /// transaction until it ends (PostgreSQL: `SELECT pg_advisory_xact_lock(hashtext($1))` first;
    /// SQLite: `BEGIN IMMEDIATE`): committed when `body` returns, rolled back when it throws.
    func transaction<T: Sendable>(
        lockingUser userID: String, _ body: @Sendable (any SQLDatabase) async throws -> T
    )
        async throws -> T
}
