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
        let token = Self.newToken()
        let now = String(Self.now())
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
        try await identity(forToken: token)?.userID
    }

    /// Who a token is (the account, and the device when it is a device's token), or `nil`.
    ///
    /// - Parameters:
    ///   - token: The bearer token.
    ///   - devicesOnly: Whether only a device's token is looked for (beside a pluggable
    ///     authenticator, which knows the accounts but not the devices made here).
    /// - Returns: Who the token is, or `nil` when no account or device has it.
    /// - Throws: What the database throws.
    func identity(forToken token: String, devicesOnly: Bool = false) async throws -> TokenIdentity? {
        guard Self.plausible(token) else { return nil }
        let rows = try await database.query(
            "SELECT t.user_id AS user_id, t.device_id AS device_id, CAST(d.last_seen AS TEXT) AS last_seen, "
                + "d.replica_id AS replica_id FROM tokens t LEFT JOIN devices d ON d.device_id = t.device_id "
                + "WHERE t.token_hash = ?" + (devicesOnly ? " AND t.device_id IS NOT NULL" : ""),
            [Self.hash(token)])
        return rows.first.flatMap(TokenIdentity.init(row:))
    }

    /// Who a token is and the versions of the account's documents at `scopes` (by scope; a
    /// scope without a document is left out), in one query; `nil` when no account has the token.
    func identity(forToken token: String, versionsAt scopes: [String]) async throws -> (
        identity: TokenIdentity, versions: [String: String]
    )? {
        guard Self.plausible(token) else { return nil }
        let rows = try await database.query(
            "SELECT t.user_id AS user_id, t.device_id AS device_id, CAST(d.last_seen AS TEXT) AS last_seen, "
                + "d.replica_id AS replica_id, p.scope AS scope, p.version AS version FROM tokens t "
                + "LEFT JOIN devices d ON d.device_id = t.device_id "
                + "LEFT JOIN reading_preferences p ON p.user_id = t.user_id "
                + "AND p.scope IN (\(SQLMarks.list(scopes.count))) WHERE t.token_hash = ?",
            scopes + [Self.hash(token)])
        guard let identity = rows.first.flatMap(TokenIdentity.init(row:)) else { return nil }
        var versions: [String: String] = [:]
        for row in rows {
            if let scope = row["scope"], let version = row["version"] { versions[scope] = version }
        }
        return (identity, versions)
    }

    /// A new bearer token: `rp_` and 64 hex digits (256 random bits).
    static func newToken() -> String { "rp_" + randomHex(bytes: 32) }

    /// Now, in milliseconds since 1970.
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

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

/// Who a bearer token is: its account, and, for a device's token, the device (its id, when it
/// was last seen, and the replica id it syncs as once known).
struct TokenIdentity: Sendable, Equatable {
    var userID: String
    var deviceID: String?
    /// When the device was last seen, in milliseconds since 1970 (`nil`: never, or no device).
    var lastSeen: Int64?
    /// The replica id the device syncs as, once given or pushed with.
    var replica: String?

    init(userID: String, deviceID: String? = nil, lastSeen: Int64? = nil, replica: String? = nil) {
        self.userID = userID
        self.deviceID = deviceID
        self.lastSeen = lastSeen
        self.replica = replica
    }

    /// The identity of a row with `user_id`, `device_id`, `last_seen` and `replica_id`.
    init?(row: [String: String]) {
        guard let userID = row["user_id"] else { return nil }
        self.init(
            userID: userID, deviceID: row["device_id"], lastSeen: row["last_seen"].flatMap { Int64($0) },
            replica: row["replica_id"])
    }
}
