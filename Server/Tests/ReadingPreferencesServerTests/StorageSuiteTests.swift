import Foundation
import ReadingPreferencesConformance
import ReadingPreferencesSQL
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

/// The server's storage (the SQL storage on its databases, with the sync stamping hook) passes
/// the library's storage suite, faults included.
@Suite("The server's storages pass the storage suite")
struct StorageSuiteTests {
    @Test("the SQL storage passes every check", arguments: TestDatabase.available)
    func conforms(database: TestDatabase) async throws {
        let server = try await database.open()
        defer { Task { await server.close() } }
        let faulty = FaultyDatabase(server.database)
        let userID = "suite-\(UUID().uuidString)"
        let data = UserData(database: faulty, replica: SQLSyncLog(database: faulty))
        let failures = await StorageConformance.failures(
            of: data.storage(for: userID), faults: faulty.faults(userID: userID))
        #expect(failures.isEmpty, "\(failures)")
        let left = try await server.database.query(
            "SELECT scope FROM reading_preferences WHERE user_id = ?", [userID])
        #expect(left.isEmpty, "\(left)")
    }
}
