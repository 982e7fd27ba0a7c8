import Foundation

/// Tickets that open one event stream each (Specs/Server.md §9.2): a browser's `EventSource`
/// cannot send `Authorization`, so a page asks for a ticket with its token and opens the stream
/// with `?ticket=`. A ticket is 256 random bits, kept as its SHA-256 like a token, valid for 60
/// seconds and for one stream; it belongs to the token's user and device, and a revoked device's
/// tickets go with it. Tickets live in the database, so a ticket made through one instance
/// opens a stream on any other.
struct EventTickets: Sendable {
    let database: any ServerDatabase

    /// How long a ticket stays valid: 60 seconds.
    static let lifetime: Int64 = 60_000
    /// The most tickets a user holds at once that have not expired.
    static let perUser = 64

    /// Why a ticket is not made.
    enum Refusal: Error { case tooMany }

    /// Makes a ticket for a token's identity.
    ///
    /// - Parameters:
    ///   - identity: Who asks (the stream will be theirs).
    ///   - now: Now, in milliseconds since 1970.
    /// - Returns: The ticket.
    /// - Throws: ``Refusal/tooMany`` when the user holds ``perUser`` live tickets; what the
    ///   database throws.
    func issue(for identity: TokenIdentity, now: Int64 = Accounts.now()) async throws -> String {
        let ticket = "tk_" + Accounts.randomHex(bytes: 32)
        try await database.transaction(lockingUser: identity.userID) { transaction in
            // Expired tickets of anyone go first: the table holds at most a minute of them.
            _ = try await transaction.execute(
                "DELETE FROM event_tickets WHERE expires <= CAST(? AS BIGINT)", [String(now)])
            let held = try await transaction.query(
                "SELECT CAST(count(*) AS TEXT) AS n FROM event_tickets WHERE user_id = ?", [identity.userID])
            guard (held.first?["n"].flatMap { Int($0) } ?? 0) < Self.perUser else { throw Refusal.tooMany }
            _ = try await transaction.execute(
                "INSERT INTO event_tickets (ticket_hash, user_id, device_id, expires) "
                    + "VALUES (?, ?, NULLIF(?, ''), CAST(? AS BIGINT))",
                [
                    Accounts.hash(ticket), identity.userID, identity.deviceID ?? "",
                    String(now + Self.lifetime),
                ])
        }
        return ticket
    }

    /// The identity a ticket would open, without taking it (`HEAD`), or `nil`.
    func peek(_ ticket: String, now: Int64 = Accounts.now()) async throws -> TokenIdentity? {
        guard Accounts.plausible(ticket) else { return nil }
        let rows = try await database.query(
            "SELECT user_id, device_id FROM event_tickets WHERE ticket_hash = ? AND expires > CAST(? AS BIGINT)",
            [Accounts.hash(ticket), String(now)])
        return rows.first.flatMap(TokenIdentity.init(row:))
    }

    /// Takes a ticket: the identity it opens, once, or `nil` when it is unknown, used or expired.
    func redeem(_ ticket: String, now: Int64 = Accounts.now()) async throws -> TokenIdentity? {
        guard Accounts.plausible(ticket) else { return nil }
        let hash = Accounts.hash(ticket)
        let rows = try await database.query(
            "SELECT user_id, device_id, CAST(expires AS TEXT) AS expires FROM event_tickets WHERE ticket_hash = ?",
            [hash])
        guard let row = rows.first, let userID = row["user_id"],
            let expires = row["expires"].flatMap({ Int64($0) })
        else { return nil }
        // Whoever deletes the row has the ticket: once, on every instance.
        guard try await database.execute("DELETE FROM event_tickets WHERE ticket_hash = ?", [hash]) == 1,
            now < expires
        else { return nil }
        return TokenIdentity(userID: userID, deviceID: row["device_id"])
    }
}
