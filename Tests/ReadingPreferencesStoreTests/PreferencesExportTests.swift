import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// The export file a first sync sets a device's documents aside in (Specs/Sync.md §5.9), in the
/// format of a server's export (Specs/Server.md §5.6).
@Suite("The export file")
struct PreferencesExportTests {
    @Test("an export reads back as written, a profile's and a publication's identifiers included")
    func roundTrip() throws {
        let export = PreferencesExport(documents: [
            ExportedDocument(
                location: .layer(configurable: "epub", .shared),
                document: StoredDocument(preferences: ["fontSize": 1.2], version: StorageVersion("v1"))),
            ExportedDocument(
                location: .layer(configurable: "epub", .profile("night")),
                document: StoredDocument(preferences: ["theme": "dark"], version: StorageVersion("v2"))),
            ExportedDocument(
                location: .layer(configurable: "epub", .publication("urn:isbn:978-0/a")),
                document: StoredDocument(preferences: ["language": "ar"], version: StorageVersion("v3"))),
        ])
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("export.json")
        try export.write(to: file)
        #expect(try PreferencesExport(contentsOf: file) == export)
        // A file is never replaced.
        #expect(throws: StorageError.self) { try export.write(to: file) }
    }

    @Test(
        "what is not an export is refused, saying what is wrong",
        arguments: [
            ("[]", "no \"documents\" array"),
            (
                #"{"documents": [{"configurable": "epub", "layer": "shelf", "preferences": {}}]}"#,
                "documents[0]"
            ),
            (
                #"{"documents": [{"configurable": "epub", "layer": "profile", "preferences": {}}]}"#,
                "documents[0]"
            ),
            (#"{"documents": [{"layer": "shared", "preferences": {}}]}"#, "documents[0]"),
            ("{", "is not JSON"),
        ])
    func malformed(text: String, message: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("export.json")
        try Data(text.utf8).write(to: file)
        do throws(StorageError) {
            _ = try PreferencesExport(contentsOf: file)
            Issue.record("\(text) was read as an export")
        } catch {
            #expect(error.code == .corruptDocument)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }
}
