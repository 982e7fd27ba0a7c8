import Foundation
import ReadingPreferencesSQL

/// The statements of the load benchmark's baselines (`--benchmark-baselines`): the least a
/// route could do with a user's shared document row, to measure the routes against.
struct Baselines: Sendable {
    let database: any ServerDatabase

    /// A row's text and version, or `nil`.
    func row(of userID: String, scope: String) async throws -> (json: String, version: String)? {
        let rows = try await database.query(
            "SELECT json, version FROM reading_preferences WHERE user_id = ? AND scope = ?", [userID, scope])
        guard let json = rows.first?["json"], let version = rows.first?["version"] else { return nil }
        return (json, version)
    }

    /// One select and one update of a row in a transaction holding the user's rows; the new
    /// version, or `nil` when the row is absent.
    func overwrite(_ text: String, of userID: String, scope: String) async throws -> String? {
        try await database.transaction(lockingUser: userID) { transaction in
            let rows = try await transaction.query(
                "SELECT json, version FROM reading_preferences WHERE user_id = ? AND scope = ?",
                [userID, scope])
            guard !rows.isEmpty else { return nil }
            let next = UUID().uuidString
            _ = try await transaction.execute(
                "UPDATE reading_preferences SET json = ?, version = ? WHERE user_id = ? AND scope = ?",
                [text, next, userID, scope])
            return next
        }
    }
}
