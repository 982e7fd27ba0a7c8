import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension SQLSyncLog {
    // MARK: - Where a user's changes stand, for those who announce them

    /// The user's change cursor now: the one a changes page or a push would answer (`c0` before
    /// the user's first change).
    ///
    /// ```swift
    /// let cursor = try await log.cursor(of: userID)   // "c42"
    /// ```
    ///
    /// - Parameter userID: The user.
    /// - Returns: The cursor.
    /// - Throws: What the database throws.
    public func cursor(of userID: String) async throws -> String {
        let rows = try await database.query(
            "SELECT CAST(next_seq AS TEXT) AS next_seq FROM sync_users WHERE user_id = ?", [userID])
        return Self.cursor((rows.first?["next_seq"].flatMap { Int64($0) } ?? 1) - 1)
    }

    /// The scopes whose entries were stored after one cursor and up to another, in order: what an
    /// announcement of the changes between them names (a poke, not the data).
    ///
    /// - Parameters:
    ///   - userID: The user.
    ///   - after: The cursor the reader had.
    ///   - through: The cursor it learns of.
    /// - Returns: The scopes, each once, in the order of their latest change.
    /// - Throws: ``CursorProblem/malformed`` for a cursor that is not one; what the database
    ///   throws.
    public func scopes(of userID: String, after: String, through: String) async throws -> [SyncScope] {
        let low = try Self.parseCursor(after)
        let high = try Self.parseCursor(through)
        guard high > low else { return [] }
        let rows = try await database.query(
            "SELECT scope, CAST(max(seq) AS TEXT) AS seq FROM sync_entries "
                + "WHERE user_id = ? AND seq > CAST(? AS BIGINT) AND seq <= CAST(? AS BIGINT) "
                + "GROUP BY scope ORDER BY max(seq) LIMIT 1000",
            [userID, String(low), String(high)])
        return rows.compactMap { $0["scope"].flatMap(SyncScope.init) }
    }

    /// The number of a cursor (`c42`: 42), or `nil` when the text is not a cursor.
    ///
    /// - Parameter cursor: A cursor the log gave.
    /// - Returns: Its number.
    public static func sequence(of cursor: String) -> Int64? {
        try? parseCursor(cursor)
    }

    /// The cursor of a number of the change sequence (42: `c42`).
    ///
    /// - Parameter sequence: A number of the user's change sequence.
    /// - Returns: The cursor.
    public static func cursor(at sequence: Int64) -> String { cursor(sequence) }
}
