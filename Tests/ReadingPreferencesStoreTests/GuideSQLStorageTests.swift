import Foundation
import ReadingPreferences
import ReadingPreferencesConformance
import ReadingPreferencesSQL
import ReadingPreferencesStore
import Testing

/// The Server Storage guide's code, as a back end would run it: on an in-memory double of its
/// database client.
@Suite("The guide's SQL storage")
struct GuideSQLStorageTests {
    @Test("passes the storage suite, and leaves its test user with no rows")
    func conforms() async throws {
        let database = InMemorySQLDatabase()
        // The guide's storage keeps no change journal (Specs/Store.md §8.13): the suite says so.
        let failures = await conformanceFailures(database: database, faults: database.faults)
        #expect(failures == ["skipped: [journal] the storage keeps no change journal"], "\(failures)")
        #expect(
            try await database.query(
                "SELECT DISTINCT scope FROM reading_preferences WHERE user_id = ?", ["x"]
            ).isEmpty)
    }

    @Test("keeps users apart")
    func usersApart() async throws {
        let database = InMemorySQLDatabase()
        let alice = PreferencesStore<EPUB>(
            storage: SQLPreferencesStorage(database: database, userID: "alice"))
        let bob = PreferencesStore<EPUB>(storage: SQLPreferencesStorage(database: database, userID: "bob"))
        try await alice.apply(.set(key: "theme", value: "dark"))
        #expect(try await bob.preferences().isEmpty)
        try await SQLPreferencesStorage(database: database, userID: "bob").removeAll()
        #expect(
            try await PreferencesStore<EPUB>(
                storage: SQLPreferencesStorage(database: database, userID: "alice")
            )
            .preferences()["theme"] == "dark")
    }

    @Test("its edit handler: 8 concurrent requests with one ETag, one succeeds, 7 get 412")
    func conditionalRequests() async throws {
        let database = InMemorySQLDatabase()
        let (_, etag) = try await handleEdits(
            [.set(key: "fontSize", value: 1.2)], ifMatch: nil, userID: "reader", publication: "book",
            database: database)
        let statuses = await withTaskGroup(of: Int.self) { group in
            for request in 0..<8 {
                group.addTask {
                    do {
                        _ = try await handleEdits(
                            [.set(key: "fontSize", value: .number(JSONNumber(1.3 + Double(request) / 10)))],
                            ifMatch: etag, userID: "reader", publication: "book", database: database)
                        return 200
                    } catch let error as StorageError where error.code == .preconditionFailed {
                        return 412
                    } catch {
                        return 500
                    }
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.sorted() == [200] + Array(repeating: 412, count: 7))
    }
}
