import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// A device's first sync with a mirror folder that already holds documents, while the device
/// holds different ones (Specs/Sync.md §5.9).
@Suite("The first join through a mirror folder")
struct FirstJoinTests {
    /// A phone that synced first, a tablet that joins, and their mirror.
    struct Devices {
        let folder: TemporaryFolder
        var phone: URL { folder.url.appendingPathComponent("phone") }
        var tablet: URL { folder.url.appendingPathComponent("tablet") }
        var mirror: URL { folder.url.appendingPathComponent("mirror") }

        init() throws { folder = try TemporaryFolder() }

        func store(_ root: URL) -> PreferencesStore<EPUB> {
            PreferencesStore(storage: FileStorage(root: root))
        }

        @discardableResult
        func sync(_ root: URL, _ choice: FirstJoinChoice? = nil) async throws -> SyncReport {
            try await store(root).sync(
                with: mirror,
                options: SyncOptions(replica: ReplicaID(root.lastPathComponent), firstJoin: choice))
        }

        func shared(_ root: URL) async throws -> Preferences {
            try await store(root).storedPreferences(in: .shared)
        }

        func book(_ root: URL) async throws -> Preferences {
            try await store(root).storedPreferences(in: .publication("urn:isbn:1"))
        }

        /// The phone's documents, synced; then the tablet's own, which differ in the shared
        /// document and not in the publication's.
        static func joining() async throws -> Devices {
            let devices = try Devices()
            let phone = devices.store(devices.phone)
            try await phone.write(["fontSize": 1.4, "theme": "sepia"], to: .shared)
            try await phone.write(["fontSize": 1.2], to: .publication("urn:isbn:1"))
            try await devices.sync(devices.phone)
            let tablet = devices.store(devices.tablet)
            try await tablet.write(["fontSize": 1.8, "lineHeight": 1.5], to: .shared)
            try await tablet.write(["fontSize": 1.2], to: .publication("urn:isbn:1"))
            return devices
        }
    }

    /// Every file under a folder with its bytes.
    static func contents(of folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if let data = FileManager.default.contents(atPath: url.path) {
                result[url.lastPathComponent] = data
            }
        }
        return result
    }

    @Test("without a choice, nothing is written on either side and the differing keys are named")
    func noChoice() async throws {
        let devices = try await Devices.joining()
        let mirrorBefore = try Self.contents(of: devices.mirror)
        do {
            try await devices.sync(devices.tablet)
            Issue.record("a first join with differences synced without a choice")
        } catch let error as FirstJoinError {
            let shared = try #require(SyncScope("epub/shared"))
            #expect(
                error.differences == [
                    FirstJoinDifference(scope: shared, keys: ["fontSize", "lineHeight", "theme"])
                ])
            #expect("\(error)".contains("keepMine") && "\(error)".contains("takeTheirs"), "\(error)")
        }
        #expect(try await devices.shared(devices.tablet) == ["fontSize": 1.8, "lineHeight": 1.5])
        #expect(try Self.contents(of: devices.mirror) == mirrorBefore)
        // No snapshot was kept: the next attempt is a first join still, and asks again.
        await #expect(throws: FirstJoinError.self) { try await devices.sync(devices.tablet) }
    }

    @Test("keepMine: this device's documents win on both sides")
    func keepMine() async throws {
        let devices = try await Devices.joining()
        let report = try await devices.sync(devices.tablet, .keepMine)
        #expect(report.firstJoin?.choice == .keepMine)
        #expect(report.firstJoin?.export == nil)
        #expect(report.changes.isEmpty, "\(report.changes)")
        try await devices.sync(devices.phone)
        #expect(try await devices.shared(devices.tablet) == ["fontSize": 1.8, "lineHeight": 1.5])
        #expect(try await devices.shared(devices.phone) == ["fontSize": 1.8, "lineHeight": 1.5])
        #expect(try await devices.book(devices.phone) == ["fontSize": 1.2])
        // The choice is in the tablet's history.
        let history = try await devices.store(devices.tablet).history.entries(in: .shared, key: "lineHeight")
        #expect(history.last?.provenance.origin == .firstJoin, "\(history)")
    }

    @Test("takeTheirs: the synced documents win, and the export restores this device's own")
    func takeTheirs() async throws {
        let devices = try await Devices.joining()
        let report = try await devices.sync(devices.tablet, .takeTheirs)
        let file = try #require(report.firstJoin?.export)
        #expect(file.deletingLastPathComponent().standardizedFileURL == devices.tablet.standardizedFileURL)
        #expect(try await devices.shared(devices.tablet) == ["fontSize": 1.4, "theme": "sepia"])
        try await devices.sync(devices.phone)
        #expect(try await devices.shared(devices.phone) == ["fontSize": 1.4, "theme": "sepia"])

        let export = try PreferencesExport(contentsOf: file)
        #expect(export.documents.map(\.location) == [.layer(configurable: "epub", .shared)])
        #expect(export.documents.first?.document.preferences == ["fontSize": 1.8, "lineHeight": 1.5])
        try await devices.store(devices.tablet).restore(export)
        #expect(try await devices.shared(devices.tablet) == ["fontSize": 1.8, "lineHeight": 1.5])
        // Restored values are this device's edits: the next syncs carry them to the phone.
        try await devices.sync(devices.tablet)
        try await devices.sync(devices.phone)
        #expect(try await devices.shared(devices.phone) == ["fontSize": 1.8, "lineHeight": 1.5])
    }

    @Test("merge: the per-key rule, the later change winning")
    func merge() async throws {
        let devices = try await Devices.joining()
        let report = try await devices.sync(devices.tablet, .merge)
        #expect(report.firstJoin?.choice == .merge)
        let merged: Preferences = ["fontSize": 1.8, "lineHeight": 1.5, "theme": "sepia"]
        #expect(try await devices.shared(devices.tablet) == merged)
        try await devices.sync(devices.phone)
        #expect(try await devices.shared(devices.phone) == merged)
    }

    @Test("a later sync never asks, and ignores the choice", arguments: FirstJoinChoice.allCases)
    func laterSync(choice: FirstJoinChoice) async throws {
        let devices = try await Devices.joining()
        try await devices.sync(devices.tablet, choice)
        try await devices.store(devices.phone).write(["theme": "night"], to: .shared)
        try await devices.sync(devices.phone)
        try await devices.store(devices.tablet).write(["wordSpacing": 0.2], to: .shared)
        let report = try await devices.sync(devices.tablet)
        #expect(report.firstJoin == nil)
        #expect(try await devices.shared(devices.tablet)["theme"] == "night")
        let again = try await devices.sync(devices.tablet, .takeTheirs)
        #expect(again.firstJoin == nil)
    }

    @Test("an empty side, or equal documents, never ask")
    func nothingToAsk() async throws {
        // An empty mirror.
        let devices = try await Devices.joining()
        let alone = try Devices()
        try await alone.store(alone.tablet).write(["fontSize": 1.8], to: .shared)
        #expect(try await alone.sync(alone.tablet).firstJoin == nil)
        // A device with no documents.
        let empty = try await devices.sync(devices.folder.url.appendingPathComponent("reader"))
        #expect(empty.firstJoin == nil)
        #expect(empty.changes.count == 3, "\(empty.changes)")
        // A device whose documents are the synced ones.
        let twin = devices.folder.url.appendingPathComponent("twin")
        try await devices.store(twin).write(["theme": "sepia", "fontSize": 1.4], to: .shared)
        #expect(try await devices.sync(twin).firstJoin == nil)
    }
}
