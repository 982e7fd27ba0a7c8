import Foundation
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

/// The changes feed and the history read their rows in the order of their sequence numbers, as
/// numbers: a query that names its text cast of `seq` as `seq` would order by the text ("10"
/// before "9") and hand out pages that skip changes.
@Suite("Sequence numbers order as numbers")
struct ChangesFeedOrderTests {
    @Test(
        "twelve changes read in pages of five come in the order they were made",
        arguments: TestDatabase.available)
    func pages(database: TestDatabase) async throws {
        let server = try await database.open()
        defer { Task { await server.close() } }
        let userID = "feed-\(UUID().uuidString)"
        let data = UserData(database: server.database, replica: SQLSyncLog(database: server.database))
        let store = UserData.store(EPUB.self, on: data.storage(for: userID))
        let keys = (1...12).map { "key\($0)" }
        for key in keys { _ = try await store.write([key: .bool(true)], to: .shared) }

        var read: [String] = []
        var cursor: String?
        for _ in 0..<10 {
            let page = try await data.replica.changes(of: userID, since: cursor, limit: 5)
            read += page.entries.compactMap { $0.objectValue?["key"]?.stringValue }
            cursor = page.cursor
            if !page.more { break }
        }
        #expect(read == keys)

        let history = try await store.history.entries(in: .shared)
        #expect(history.map(\.key) == keys)
    }
}
