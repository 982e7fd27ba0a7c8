import Crypto
import Foundation
import ReadingPreferencesSQL

/// The server's users and their bearer tokens. A token is shown once, when it is made; the
/// database keeps only its SHA-256, so a copy of the database opens no account. Every request
/// looks its token up (one query by the primary key), so a token deleted from the table stops
/// working at once, on every instance.
struct Accounts: Sendable {
    let database: any ServerDatabase

    /// A new account with one token.
    ///
    /// - Parameter name: A name for people (an email, a login).
    /// - Returns: The account's id and its token.
    /// - Throws: When the database fails.
    func addUser(named name: String) async throws -> (userID: String, token: String) {
        let userID = "user-" + Self.randomHex(bytes: 8)
        let token = try await addToken(for: userID, creating: name)
        return (userID, token)
    }

    /// Whether an account has this name already.
    func isTaken(_ name: String) async throws -> Bool {
        try await !database.query("SELECT user_id FROM accounts WHERE name = ? LIMIT 1", [name]).isEmpty
    }

    /// A new token for an account (created when `name` is given).
    func addToken(for userID: String, creating name: String? = nil) async throws -> String {
        let token = "rp_" + Self.randomHex(bytes: 32)
        let now = String(Int64(Date().timeIntervalSince1970 * 1000))
        let hash = Self.hash(token)
        try await database.transaction(lockingUser: userID) { transaction in
            if let name {
                _ = try await transaction.execute(
                    "INSERT INTO accounts (user_id, name, created) VALUES (?, ?, CAST(? AS BIGINT))",
                    [userID, name, now])
            }
            _ = try await transaction.execute(
                "INSERT INTO tokens (token_hash, user_id, created) VALUES (?, ?, CAST(? AS BIGINT))",
                [hash, userID, now])
        }
        return token
    }

    /// The account a token opens, or `nil`.
    func user(forToken token: String) async throws -> String? {
        guard Self.plausible(token) else { return nil }
        let rows = try await database.query(
            "SELECT user_id FROM tokens WHERE token_hash = ?", [Self.hash(token)])
        return rows.first?["user_id"]
    }

    /// The account a token opens and the versions of its documents at `scopes` (by scope; a
    /// scope without a document is left out), in one query; `nil` when no account has the token.
    func user(forToken token: String, versionsAt scopes: [String]) async throws -> (
        userID: String, versions: [String: String]
    )? {
        guard Self.plausible(token) else { return nil }
        let rows = try await database.query(
            "SELECT t.user_id AS user_id, p.scope AS scope, p.version AS version FROM tokens t "
                + "LEFT JOIN reading_preferences p ON p.user_id = t.user_id "
                + "AND p.scope IN (\(SQLMarks.list(scopes.count))) WHERE t.token_hash = ?",
            scopes + [Self.hash(token)])
        guard let userID = rows.first?["user_id"] else { return nil }
        var versions: [String: String] = [:]
        for row in rows {
            if let scope = row["scope"], let version = row["version"] { versions[scope] = version }
        }
        return (userID, versions)
    }

    /// Whether a token could be one this server made (anything else is not looked up).
    static func plausible(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 256
    }

    static func hash(_ token: String) -> String {
        hex(SHA256.hash(data: Data(token.utf8)))
    }

    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return hex((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
