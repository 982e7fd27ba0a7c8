import Foundation
import ReadingPreferencesSQL

/// The devices a user made tokens for (Specs/Server.md §3.4): each device has a name for people,
/// an optional class (`phone`, `eink`...) and replica id, when it was made and when it was last
/// seen, and one token, kept as its SHA-256 like every token. Revoking a device deletes its row,
/// its token and its tickets in one transaction; the schema's trigger announces it to every
/// instance (``LiveNotice/revoked(deviceID:)``), whose streams of that device then end.
struct Devices: Sendable {
    let database: any ServerDatabase

    /// How often a device's "last seen" is written, at most: once a minute.
    static let seenResolution: Int64 = 60_000

    /// A device as `GET /v1/devices` lists it.
    struct Device: Sendable, Equatable {
        var id: String
        var name: String
        var deviceClass: String?
        var replica: String?
        /// Milliseconds since 1970.
        var created: Int64
        var lastSeen: Int64?
    }

    /// Makes a device and its token (shown once).
    ///
    /// - Parameters:
    ///   - userID: The user.
    ///   - name: A name for people.
    ///   - deviceClass: Its class, a replica-style id.
    ///   - replica: The replica id it syncs as, when known already.
    /// - Returns: The device's id and token.
    /// - Throws: What the database throws.
    func create(for userID: String, name: String, deviceClass: String?, replica: String?) async throws -> (
        id: String, token: String
    ) {
        let id = "dev-" + Accounts.randomHex(bytes: 8)
        let token = Accounts.newToken()
        let now = String(Accounts.now())
        try await database.transaction(lockingUser: userID) { transaction in
            // An absent class or replica is SQL NULL (bound values are text; neither may be empty).
            _ = try await transaction.execute(
                "INSERT INTO devices (device_id, user_id, name, device_class, replica_id, created) "
                    + "VALUES (?, ?, ?, NULLIF(?, ''), NULLIF(?, ''), CAST(? AS BIGINT))",
                [id, userID, name, deviceClass ?? "", replica ?? "", now])
            _ = try await transaction.execute(
                "INSERT INTO tokens (token_hash, user_id, created, device_id) VALUES (?, ?, CAST(? AS BIGINT), ?)",
                [Accounts.hash(token), userID, now, id])
        }
        return (id, token)
    }

    /// The user's devices, oldest first.
    func list(of userID: String) async throws -> [Device] {
        let rows = try await database.query(
            "SELECT device_id, name, device_class, replica_id, CAST(created AS TEXT) AS created, "
                + "CAST(last_seen AS TEXT) AS last_seen FROM devices WHERE user_id = ? ORDER BY devices.created, device_id",
            [userID])
        return rows.compactMap { row in
            guard let id = row["device_id"], let name = row["name"],
                let created = row["created"].flatMap({ Int64($0) })
            else { return nil }
            return Device(
                id: id, name: name, deviceClass: row["device_class"], replica: row["replica_id"],
                created: created, lastSeen: row["last_seen"].flatMap { Int64($0) })
        }
    }

    /// Revokes one of the user's devices: its row, its token and its tickets go in one
    /// transaction. Whether the user had it.
    func revoke(_ deviceID: String, of userID: String) async throws -> Bool {
        try await database.transaction(lockingUser: userID) { transaction in
            let removed = try await transaction.execute(
                "DELETE FROM devices WHERE user_id = ? AND device_id = ?", [userID, deviceID])
            guard removed > 0 else { return false }
            _ = try await transaction.execute("DELETE FROM tokens WHERE device_id = ?", [deviceID])
            _ = try await transaction.execute("DELETE FROM event_tickets WHERE device_id = ?", [deviceID])
            return true
        }
    }

    /// Notes that a device was seen now, when what is kept is older than a minute.
    func noteSeen(_ identity: TokenIdentity, now: Int64 = Accounts.now()) async throws {
        guard let deviceID = identity.deviceID else { return }
        if let seen = identity.lastSeen, now - seen < Self.seenResolution { return }
        _ = try await database.execute(
            "UPDATE devices SET last_seen = CAST(? AS BIGINT) WHERE device_id = ?", [String(now), deviceID])
    }

    /// Notes that the devices holding streams on this instance are there now.
    func noteSeen(_ deviceIDs: [String], now: Int64 = Accounts.now()) async throws {
        for start in stride(from: 0, to: deviceIDs.count, by: 500) {
            let chunk = Array(deviceIDs[start..<min(start + 500, deviceIDs.count)])
            _ = try await database.execute(
                "UPDATE devices SET last_seen = CAST(? AS BIGINT) WHERE device_id IN (\(SQLMarks.list(chunk.count)))",
                [String(now)] + chunk)
        }
    }

    /// Binds a device to the replica id it first pushed with (a device given one when it was
    /// made keeps it).
    func bind(_ deviceID: String, to replica: String) async throws {
        _ = try await database.execute(
            "UPDATE devices SET replica_id = ? WHERE device_id = ? AND replica_id IS NULL",
            [replica, deviceID])
    }

    /// Which of these devices still exist.
    func existing(_ deviceIDs: Set<String>) async throws -> Set<String> {
        let list = Array(deviceIDs)
        var found: Set<String> = []
        for start in stride(from: 0, to: list.count, by: 500) {
            let chunk = Array(list[start..<min(start + 500, list.count)])
            for row in try await database.query(
                "SELECT device_id FROM devices WHERE device_id IN (\(SQLMarks.list(chunk.count)))", chunk)
            {
                if let id = row["device_id"] { found.insert(id) }
            }
        }
        return found
    }
}
