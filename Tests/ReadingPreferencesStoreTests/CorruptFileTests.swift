import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// A corrupt file is moved aside and reported, never silently replaced; the rest still loads.
@Suite("Corrupt files")
struct CorruptFileTests {
    @Test(
        "truncated, not JSON, binary and non-object files are moved aside and reported",
        arguments: [
            Data(#"{"fontSize": 1.4, "the"#.utf8), Data("fontSize = 1.4".utf8),
            Data([0xFF, 0xFE, 0x00, 0x81, 0x02]),
            Data(#"[1, 2, 3]"#.utf8), Data(),
        ])
    func corrupt(content: Data) async throws {
        let folder = try TemporaryFolder()
        let storage = FileStorage(root: folder.url)
        let setup = PreferencesStore<EPUB>(storage: storage)
        try await setup.write(["theme": "dark"], to: .publication("book"))
        try await setup.write(["fontSize": 1.2], to: .shared)
        let shared = storage.path(of: .layer(configurable: "epub", .shared))
        try content.write(to: URL(fileURLWithPath: shared))

        let store = PreferencesStore<EPUB>(storage: storage)
        // The other files still load; the corrupt one reads as empty.
        #expect(try await store.preferences(for: "book") == ["theme": "dark"])
        let problems = await store.problems
        #expect(problems.count == 1)
        #expect(problems.first?.code == .corruptDocument)
        let aside = try #require(problems.first?.movedTo)
        #expect(aside.hasPrefix(shared + ".corrupt-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == content)
        #expect(!FileManager.default.fileExists(atPath: shared))
        // A new edit writes a fresh file; the corrupt data stays aside.
        try await store.edit { editor in try editor.set(.fontSize, 1.3) }
        #expect(try Preferences(json: Data(contentsOf: URL(fileURLWithPath: shared))) == ["fontSize": 1.3])
        #expect(FileManager.default.fileExists(atPath: aside))
    }

    @Test("the CLI reports a corrupt file in one line naming where it went, and succeeds")
    func command() throws {
        let folder = try TemporaryFolder()
        let root = folder.url.path
        #expect(try CommandLineTool.run(["store", "--root", root, "set", "fontSize", "1.5"]).status == 0)
        try Data("not json".utf8).write(to: folder.url.appendingPathComponent("epub/shared.json"))
        let outcome = try CommandLineTool.run(["store", "--root", root, "show"])
        #expect(outcome.status == 0)
        let lines = outcome.error.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("shared.json.corrupt-") == true, "\(outcome.error)")
    }
}
