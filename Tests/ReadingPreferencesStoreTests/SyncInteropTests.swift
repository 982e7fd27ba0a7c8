import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// What a second implementation of the sync format, written from `Specs/Sync.md` alone, found the
/// store doing otherwise, checked through real roots and a mirror folder: every sync publishes,
/// and a value as deep as the format allows is stored, while one level more skips its file.
@Suite("Sync with other implementations, through a mirror folder")
struct SyncInteropTests {
    let folder: TemporaryFolder
    var mirror: URL { folder.url.appendingPathComponent("mirror") }

    init() throws {
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
    }

    func root(_ name: String) -> URL { folder.url.appendingPathComponent(name) }

    func store(_ name: String) -> PreferencesStore<EPUB> {
        PreferencesStore(storage: FileStorage(root: root(name)))
    }

    func sync(_ name: String) async throws -> SyncReport {
        try await store(name).sync(with: mirror, options: .init(replica: ReplicaID(name)))
    }

    /// A replica's published file, as JSON.
    func published(_ name: String) throws -> JSONValue {
        try JSONValue(
            json: Data(contentsOf: mirror.appendingPathComponent("\(name).json")),
            options: JSONParsingOptions(maxDepth: 1024))
    }

    /// Every file under a root whose name says it was set aside.
    func setAside(_ name: String) throws -> [String] {
        let files = try FileManager.default.subpathsOfDirectory(atPath: root(name).path)
        return files.filter { $0.contains(".corrupt-") }
    }

    /// A value `levels` levels deep, its own level included: arrays around an object.
    static func deep(_ levels: Int) throws -> JSONValue {
        let text =
            String(repeating: "[", count: levels - 1) + #"{"level":\#(levels)}"#
            + String(repeating: "]", count: levels - 1)
        return try JSONValue(json: text, options: JSONParsingOptions(maxDepth: 1024))
    }

    @Test("every sync publishes under a new writer, even when nothing changed (Specs/Sync.md §5.8)")
    func everySyncPublishes() async throws {
        try await store("phone").write(["fontSize": 1.5], to: .shared)
        var writers: [String] = []
        var documents: [JSONValue] = []
        for _ in 0..<3 {
            let report = try await sync("phone")
            #expect(report.changes.isEmpty)
            #expect(report.problems.isEmpty, "\(report.problems)")
            let file = try published("phone")
            writers.append(try #require(file.objectValue?["writer"]?.stringValue))
            documents.append(try #require(file.objectValue?["documents"]))
        }
        // A new writer each time, so other replicas see this one alive; the same state.
        #expect(Set(writers).count == 3, "\(writers)")
        #expect(writers.allSatisfy { !$0.isEmpty })
        #expect(documents.dropFirst().allSatisfy { $0 == documents[0] })
    }

    @Test(
        "a value 511 levels deep, its own level included, syncs to another root and is stored: nothing set aside, later syncs clean (Specs/Sync.md §1, §2)"
    )
    func deepestValueSyncs() async throws {
        let deep = try Self.deep(511)
        try await store("phone").write(["fontSize": 1.5, "myApp.deep": deep], to: .shared)
        for name in ["phone", "tablet", "phone", "tablet"] {
            let report = try await sync(name)
            #expect(report.problems.isEmpty, "\(name): \(report.problems)")
        }
        #expect(try await store("tablet").storedPreferences(in: .shared)["myApp.deep"] == deep)
        #expect(try await store("phone").storedPreferences(in: .shared)["myApp.deep"] == deep)
        // The tablet publishes it back, entry and all.
        let entry = try published("tablet").objectValue?["documents"]?.objectValue?["epub/shared"]?
            .objectValue?["myApp.deep"]
        #expect(entry?.objectValue?["value"] == deep)
        #expect(try setAside("phone") == [])
        #expect(try setAside("tablet") == [])
    }

    @Test(
        "a replica file holding a value 512 levels deep is skipped and reported; the local documents and snapshots stay, nothing is set aside (Specs/Sync.md §2)"
    )
    func tooDeepSkipsTheFile() async throws {
        try await store("phone").write(["fontSize": 1.5], to: .shared)
        _ = try await sync("phone")
        let deep = try Self.deep(512).jsonString()
        let file =
            #"{"format":"readingprefs-sync","version":1,"replica":"other","writer":"w","merged":{},"#
            + #""documents":{"epub/shared":{"theme":{"value":"dark","stamp":{"time":1764000000000,"counter":0,"replica":"other"}},"#
            + #""myApp.deep":{"value":\#(deep),"stamp":{"time":1764000000000,"counter":1,"replica":"other"}}}}}"#
        try Data(file.utf8).write(to: mirror.appendingPathComponent("other.json"))
        for _ in 0..<2 {
            let report = try await sync("phone")
            #expect(
                report.problems.map(\.description) == [
                    "skipped replica file other.json: too large (a value nested deeper than 511 levels)"
                ])
            #expect(report.changes.isEmpty)
            #expect(try await store("phone").storedPreferences(in: .shared) == ["fontSize": 1.5])
        }
        #expect(try setAside("phone") == [])
        let published = try published("phone").objectValue?["documents"]?.objectValue?["epub/shared"]
        #expect(published?.objectValue?.keys == ["fontSize"])
    }
}
