/// What the database announces when a transaction commits (Specs/Server.md §9.3): a user's
/// change cursor moved, or a device was revoked. Each instance fans the notices out to its own
/// event streams (``EventPublisher``).
///
/// The database itself makes them, from triggers on the rows that change, so every writer is
/// covered, whichever code path or instance made the write, and nothing is announced for a
/// transaction that rolls back:
///
/// - PostgreSQL: `NOTIFY` on the channel `readingprefs_cursor` with `user:sequence` when
///   `sync_users.next_seq` moves (delivered at commit, to every instance that `LISTEN`s), and on
///   `readingprefs_revoked` with the device's id when a row of `devices` is deleted.
/// - SQLite (one instance): the same triggers, temporary on the writing connection, call the
///   connection's `readingprefs_notify(channel, payload)`, which the client delivers in process
///   once the transaction has committed.
enum LiveNotice: Sendable, Equatable {
    /// The user's change sequence reached `sequence` (the cursor `c<sequence>`).
    case advanced(userID: String, sequence: Int64)
    /// Something changed that cannot be said in a notice (a user id too long for one): every
    /// stream reads its cursor again.
    case everyone
    /// The device was revoked: its streams end.
    case revoked(deviceID: String)

    /// The channel of cursor notices.
    static let cursorChannel = "readingprefs_cursor"
    /// The channel of revocations.
    static let revokedChannel = "readingprefs_revoked"

    /// A notice read from its channel and payload, or `nil` for one this server never sends.
    init?(channel: String, payload: String) {
        switch channel {
        case Self.cursorChannel:
            if payload == "*" {
                self = .everyone
                return
            }
            // The user's id may hold `:`; the sequence is after the last one.
            guard let colon = payload.utf8.lastIndex(of: UInt8(ascii: ":")),
                let sequence = Int64(payload[payload.index(after: colon)...]), sequence >= 0
            else { return nil }
            self = .advanced(userID: String(payload[..<colon]), sequence: sequence)
        case Self.revokedChannel:
            guard !payload.isEmpty else { return nil }
            self = .revoked(deviceID: payload)
        default:
            return nil
        }
    }

    /// PostgreSQL's triggers (migration 3). A payload must stay under 8,000 bytes: a user id
    /// that long (only a pluggable authenticator could make one) announces `*` instead.
    static let postgresTriggers = [
        """
        CREATE FUNCTION readingprefs_cursor_advanced() RETURNS trigger LANGUAGE plpgsql AS $body$
        BEGIN
            IF octet_length(NEW.user_id) < 7900 THEN
                PERFORM pg_notify('\(cursorChannel)', NEW.user_id || ':' || CAST(NEW.next_seq - 1 AS TEXT));
            ELSE
                PERFORM pg_notify('\(cursorChannel)', '*');
            END IF;
            RETURN NULL;
        END
        $body$
        """,
        """
        CREATE TRIGGER sync_users_cursor_advanced AFTER UPDATE OF next_seq ON sync_users
        FOR EACH ROW WHEN (NEW.next_seq <> OLD.next_seq) EXECUTE FUNCTION readingprefs_cursor_advanced()
        """,
        """
        CREATE FUNCTION readingprefs_device_revoked() RETURNS trigger LANGUAGE plpgsql AS $body$
        BEGIN
            PERFORM pg_notify('\(revokedChannel)', OLD.device_id);
            RETURN NULL;
        END
        $body$
        """,
        """
        CREATE TRIGGER devices_revoked AFTER DELETE ON devices
        FOR EACH ROW EXECUTE FUNCTION readingprefs_device_revoked()
        """,
    ]

    /// The name of the function the SQLite client gives its writing connection.
    static let sqliteFunction = "readingprefs_notify"

    /// SQLite's triggers: temporary, so they live on the connection that made them (the
    /// server's writing connection, which has the function) and no other program that opens the
    /// file meets a function it lacks.
    static let sqliteTriggers = [
        """
        CREATE TEMP TRIGGER IF NOT EXISTS sync_users_cursor_advanced AFTER UPDATE OF next_seq ON sync_users
        FOR EACH ROW WHEN NEW.next_seq <> OLD.next_seq
        BEGIN SELECT \(sqliteFunction)('\(cursorChannel)', NEW.user_id || ':' || CAST(NEW.next_seq - 1 AS TEXT)); END
        """,
        """
        CREATE TEMP TRIGGER IF NOT EXISTS devices_revoked AFTER DELETE ON devices
        FOR EACH ROW BEGIN SELECT \(sqliteFunction)('\(revokedChannel)', OLD.device_id); END
        """,
    ]
}
