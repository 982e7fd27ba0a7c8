import Foundation
import ReadingPreferencesSQL

/// The open event streams, counted per user on every instance (Specs/Server.md §9.5): each
/// stream holds a row, a lease its instance renews at each heartbeat, so a user's streams are
/// bounded however a balancer spreads them, and those of an instance that died stop counting
/// once their lease runs out.
struct EventStreams: Sendable {
    let database: any ServerDatabase
    /// This instance: a random id of the process.
    let instance: String

    /// The most streams a user holds at once, unless told otherwise.
    static let defaultPerUser = 16

    /// How long a lease lasts unless renewed: three heartbeats.
    static func leaseLength(heartbeat: Duration) -> Int64 {
        3
            * Int64(
                heartbeat.components.seconds * 1000 + heartbeat.components.attoseconds / 1_000_000_000_000_000
            )
    }

    /// Takes one of the user's stream slots, or answers `nil` when the user holds `limit`
    /// already.
    ///
    /// - Parameters:
    ///   - userID: The user.
    ///   - limit: The most streams a user may hold.
    ///   - lease: How long the slot is held unless renewed, in milliseconds.
    ///   - now: Now, in milliseconds since 1970.
    /// - Returns: The stream's id, or `nil`.
    /// - Throws: What the database throws.
    func open(for userID: String, limit: Int, lease: Int64, now: Int64 = Accounts.now()) async throws
        -> String?
    {
        let id = "st-" + Accounts.randomHex(bytes: 8)
        return try await database.transaction(lockingUser: userID) { transaction in
            _ = try await transaction.execute(
                "DELETE FROM event_streams WHERE user_id = ? AND expires <= CAST(? AS BIGINT)",
                [userID, String(now)])
            let held = try await transaction.query(
                "SELECT CAST(count(*) AS TEXT) AS n FROM event_streams WHERE user_id = ?", [userID])
            guard (held.first?["n"].flatMap { Int($0) } ?? 0) < limit else { return nil }
            _ = try await transaction.execute(
                "INSERT INTO event_streams (stream_id, user_id, instance_id, expires) "
                    + "VALUES (?, ?, ?, CAST(? AS BIGINT))",
                [id, userID, instance, String(now + lease)])
            return id
        }
    }

    /// Gives a stream's slot back.
    func close(_ streamID: String) async throws {
        _ = try await database.execute("DELETE FROM event_streams WHERE stream_id = ?", [streamID])
    }

    /// Renews the leases of streams that are open (a slot whose stream never began is left
    /// to lapse).
    func renew(_ streamIDs: [String], lease: Int64, now: Int64 = Accounts.now()) async throws {
        for start in stride(from: 0, to: streamIDs.count, by: 500) {
            let chunk = Array(streamIDs[start..<min(start + 500, streamIDs.count)])
            _ = try await database.execute(
                "UPDATE event_streams SET expires = CAST(? AS BIGINT) WHERE stream_id IN (\(SQLMarks.list(chunk.count)))",
                [String(now + lease)] + chunk)
        }
    }

    /// Gives back every slot of this instance (at shutdown, once its streams have ended).
    func closeAll() async throws {
        _ = try await database.execute("DELETE FROM event_streams WHERE instance_id = ?", [instance])
    }
}
