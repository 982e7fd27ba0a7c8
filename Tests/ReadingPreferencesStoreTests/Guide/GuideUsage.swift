import Foundation
import ReadingPreferences
import ReadingPreferencesConformance
import ReadingPreferencesSQL
import ReadingPreferencesStore

// The usage code of the "Storing Preferences on a Server" guide, compiled and tested here
// against an in-memory double of `SQLDatabase`; `.ci/check-guide-code.sh` checks that the
// guide's block is this file, line for line, after this comment.

/// Checks the storage against the contract every storage must keep. Run it in your test suite
/// against a test database: a user with no rows is an empty storage, and is empty again after.
func conformanceFailures(database: any SQLDatabase, faults: StorageFaults?) async -> [String] {
    let storage = SQLPreferencesStorage(database: database, userID: "conformance-\(UUID().uuidString)")
    // This storage keeps no change journal of its own (no `journal`): the suite says so rather
    // than failing its journal checks.
    return await StorageConformance.failures(of: storage, faults: faults, keepsJournal: false)
}

/// Handles a client's edits of one book's preferences, such as
/// `POST /v1/epub/publications/<id>/edits` with `[{"op": "increment", "key": "fontSize"}]` and
/// `If-Match`: applies them all or none, only if the book's preferences are still as the client
/// read them, and returns every setting with its source and the new ETag.
func handleEdits(
    _ edits: [PreferenceEdit], ifMatch: String?, userID: String, publication: String,
    database: any SQLDatabase
) async throws -> (settings: [AttributedSetting], etag: String) {
    let store = PreferencesStore<EPUB>(storage: SQLPreferencesStorage(database: database, userID: userID))
    let book = PublicationContext(layout: .reflowable, languages: ["en"])  // from your catalog
    try await store.apply(edits, publication: publication, context: book, ifMatch: ifMatch)
    let state = try await store.state(for: publication, context: book)
    return (state.settings, state.fingerprints.settingsETag)
}
