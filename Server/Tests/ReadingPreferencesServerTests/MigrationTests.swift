import Foundation
import Testing

@testable import ReadingPreferencesServer

/// The hand-written migrations upgrade a database an older server made, keeping its rows.
@Suite("Migrations")
struct MigrationTests {
    @Test("a database at migration 1 is upgraded to replica ids per user, every replica row kept")
    func upgradesFromOne() async throws {
        // What the first server left: migration 1 and its record, and a device that pushed.
        let (path, old) = try await Self.database(at: 1)
        _ = try await old.execute(
            "INSERT INTO sync_replicas (replica_id, user_id) VALUES (?, ?)", ["phone", "user-a"])
        try await old.close()

        let server = try await ReadingServer.open(.sqlite(path: path))
        let rows = try await server.database.query("SELECT user_id, replica_id FROM sync_replicas", [])
        #expect(rows == [["user_id": "user-a", "replica_id": "phone"]])
        // Now a second user may use the same name.
        _ = try await server.database.execute(
            "INSERT INTO sync_replicas (user_id, replica_id) VALUES (?, ?)", ["user-b", "phone"])
        let versions = try await server.database.query(
            "SELECT CAST(max(version) AS TEXT) AS v FROM schema_migrations", [])
        #expect(versions.first?["v"] == String(Schema.migrations(.sqlite).count))
        await server.close()
        // Opening again applies nothing twice.
        let again = try await ReadingServer.open(.sqlite(path: path))
        #expect(try await again.database.query("SELECT user_id FROM sync_replicas", []).count == 2)
        await again.close()
    }

    @Test(
        "a database at migration 2 gains devices, tickets and stream leases; its tokens still open their accounts"
    )
    func upgradesFromTwo() async throws {
        let (path, old) = try await Self.database(at: 2)
        _ = try await old.execute(
            "INSERT INTO tokens (token_hash, user_id, created) VALUES (?, ?, 0)",
            [Accounts.hash("rp_old"), "user-a"])
        try await old.close()

        let server = try await ReadingServer.open(.sqlite(path: path))
        #expect(try await server.accounts.identity(forToken: "rp_old") == TokenIdentity(userID: "user-a"))
        let device = try await server.live.devices.create(
            for: "user-a", name: "phone", deviceClass: nil, replica: nil)
        #expect(try await server.accounts.identity(forToken: device.token)?.deviceID == device.id)
        #expect(try await server.live.devices.list(of: "user-a").map(\.name) == ["phone"])
        await server.close()
    }

    /// A new SQLite file at a migration an older server left (with its record), open.
    static func database(at version: Int) async throws -> (path: String, database: SQLiteDatabase) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("db.sqlite").path
        let database = try await SQLiteDatabase.open(path: path)
        try await database.runScript(
            ["CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT NOT NULL)"]
                + Schema.migrations(.sqlite).prefix(version).flatMap { $0 }
                + ["INSERT INTO schema_migrations (version) VALUES (\(version))"])
        return (path, database)
    }
}
