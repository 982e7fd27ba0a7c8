import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension SQLSyncLog {
    // MARK: - Changes and state

    /// A page of the entries stored after a cursor.
    public struct ChangesPage: Sendable {
        /// The entries, oldest first, each with its `scope` and `key`.
        public var entries: [JSONValue]
        /// The cursor to ask for the next page with.
        public var cursor: String
        /// Whether more entries follow.
        public var more: Bool
    }

    /// Why a cursor cannot be served.
    public enum CursorProblem: Error, Sendable {
        case malformed
        /// Older than the compaction floor: read the whole state instead (410).
        case compacted
    }

    static func cursor(_ seq: Int64) -> String { "c\(max(seq, 0))" }

    static func parseCursor(_ text: String?) throws(CursorProblem) -> Int64 {
        guard let text else { return 0 }
        guard text.hasPrefix("c"), let value = Int64(text.dropFirst()), value >= 0 else { throw .malformed }
        return value
    }

    /// The entries stored after `since`, oldest first, at most `limit`.
    ///
    /// - Parameters:
    ///   - userID: The user.
    ///   - since: The cursor of an earlier page, or `nil` for the start.
    ///   - limit: The most entries in the page (1 to 10,000).
    /// - Returns: The page.
    /// - Throws: ``CursorProblem``, or what the database throws.
    public func changes(of userID: String, since: String?, limit: Int) async throws -> ChangesPage {
        let cursor = try Self.parseCursor(since)
        let limit = min(max(limit, 1), 10_000)
        return try await database.transaction(lockingUser: userID) { transaction in
            let row = try await Self.userRow(transaction, userID)
            // No cursor reads from the start: everything after the floor (nothing older is kept).
            if since != nil, cursor < row.floor { throw CursorProblem.compacted }
            let after = max(cursor, row.floor)
            let rows = try await transaction.query(
                "SELECT scope, entry_key, entry, CAST(seq AS TEXT) AS seq FROM sync_entries "
                    + "WHERE user_id = ? AND seq > CAST(? AS BIGINT) "
                    + "ORDER BY sync_entries.seq LIMIT \(limit + 1)",
                [userID, String(after)])
            var entries: [JSONValue] = []
            var last = after
            for item in rows.prefix(limit) {
                guard let scope = item["scope"], let key = item["entry_key"], let text = item["entry"],
                    let entry = try? JSONValue(json: text).objectValue
                else { continue }
                var object: JSONObject = ["scope": .string(scope), "key": .string(key)]
                for member in entry.members { object[member.key] = member.value }
                entries.append(.object(object))
                last = Int64(item["seq"] ?? "") ?? last
            }
            let more = rows.count > limit
            return ChangesPage(
                entries: entries, cursor: Self.cursor(more ? last : max(last, row.nextSeq - 1)), more: more)
        }
    }

    /// Every entry the server holds for the user, as the server replica's file.
    ///
    /// - Parameter userID: The user.
    /// - Returns: The state as a replica file (Specs/Sync.md §2).
    /// - Throws: What the database throws.
    public func state(of userID: String) async throws -> Data {
        let server = Self.replicaID(for: userID)
        let rows = try await database.query(
            "SELECT scope, entry_key, entry FROM sync_entries WHERE user_id = ?", [userID])
        let mergedRows = try await database.query(
            "SELECT replica_id, stamp FROM sync_merged WHERE user_id = ?", [userID])
        var merged: [ReplicaID: SyncStamp] = [:]
        for item in mergedRows {
            guard let id = item["replica_id"].flatMap(ReplicaID.init), let text = item["stamp"],
                let stamp = try? SyncStamp(json: JSONValue(json: text))
            else { continue }
            merged[id] = stamp
        }
        var state = ReplicaState(replica: server, merged: merged)
        state.name = Self.replicaName
        // The devices' names, so every device names the changes it reads by their device.
        for item in try await database.query(
            "SELECT replica_id, name FROM sync_replicas WHERE user_id = ? AND name IS NOT NULL", [userID])
        {
            if let id = item["replica_id"].flatMap(ReplicaID.init), let name = item["name"] {
                state.names[id] = name
            }
        }
        for item in rows {
            guard let scope = item["scope"].flatMap(SyncScope.init), let key = item["entry_key"],
                let text = item["entry"], let entry = try? SyncEntry(json: JSONValue(json: text))
            else { continue }
            state.record(entry, forKey: key, in: scope)
        }
        return state.jsonData()
    }

    /// Forgets every entry and merged stamp of a user, in the transaction that removes the
    /// user's documents (an account's deletion): every cursor handed out so far is then older
    /// than the compaction floor (410), so no device keeps reading changes of data that is gone;
    /// the sequence itself goes on, and the clock stays where it is.
    ///
    /// - Parameters:
    ///   - userID: The user.
    ///   - transaction: The transaction that removes the user's documents.
    /// - Throws: What the database throws.
    public func reset(of userID: String, in transaction: any SQLDatabase) async throws {
        let row = try await Self.userRow(transaction, userID)
        // Every cursor handed out is at most `nextSeq - 1`, below the new floor (410); the
        // sequence skips the floor itself, so the first entry written after the deletion is
        // above it, and a reader from the start sees it.
        _ = try await transaction.execute(
            "UPDATE sync_users SET floor_seq = CAST(? AS BIGINT), next_seq = CAST(? AS BIGINT) WHERE user_id = ?",
            [String(row.nextSeq), String(row.nextSeq + 1), userID])
        _ = try await transaction.execute("DELETE FROM sync_entries WHERE user_id = ?", [userID])
        _ = try await transaction.execute("DELETE FROM sync_merged WHERE user_id = ?", [userID])
        _ = try await transaction.execute("DELETE FROM sync_replicas WHERE user_id = ?", [userID])
        _ = try await transaction.execute("DELETE FROM sync_history WHERE user_id = ?", [userID])
    }
}
