import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// How a file store keeps an edit's pending sync stamps (Specs/Sync.md §5.4): appended beside the
/// document's sync sidecar (`<document>.json.sync.pending`), folded into the sidecar when many
/// accumulate, and dropped by the sync that uses them.
@Suite("Pending stamps in files")
struct PendingStampFileTests {
    let folder: TemporaryFolder
    var root: URL { folder.url.appendingPathComponent("device") }
    var mirror: URL { folder.url.appendingPathComponent("mirror") }
    var sidecar: URL { root.appendingPathComponent("epub/shared.json.sync") }
    var appendix: URL { root.appendingPathComponent("epub/shared.json.sync.pending") }

    init() throws { folder = try TemporaryFolder() }

    /// A store whose wall clock reads `time` milliseconds.
    func store(at time: @escaping @Sendable () -> UInt64) -> PreferencesStore<EPUB> {
        PreferencesStore(
            storage: FileStorage(root: root),
            options: .init(now: { Date(timeIntervalSince1970: Double(time()) / 1000) }))
    }

    /// The appendix's records: one JSON object per line.
    func records() throws -> [Preferences] {
        let text = try String(contentsOf: appendix, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        return try text.split(separator: "\n").map { try Preferences(json: Data($0.utf8)) }
    }

    @Test("each edit appends one record of its keys' stamps and leaves the sidecar alone")
    func appends() async throws {
        let store = store(at: { 1_764_000_000_000 })
        try await store.edit { try $0.set(.fontSize, 1.5) }
        try await store.edit { editor in
            try editor.set(.fontSize, 1.75)
            try editor.set(.theme, .sepia)
        }
        #expect(!FileManager.default.fileExists(atPath: sidecar.path))
        let records = try records()
        #expect(records.count == 2)
        #expect(records.map { $0.keys.sorted() } == [["fontSize"], ["fontSize", "theme"]])
        #expect(records[1]["theme"]?.objectValue?["value"] == "sepia")
        // One clock: a later record's stamps are later, even in the same millisecond.
        let counters = records.compactMap { $0["fontSize"]?.objectValue?["stamp"]?.objectValue?["counter"] }
        #expect(counters == [0, 1])
    }

    @Test("a record appended after a line a crash tore starts a line of its own")
    func afterTornLine() async throws {
        let store = store(at: { 1_764_000_000_000 })
        try await store.edit { try $0.set(.fontSize, 1.5) }
        let handle = try FileHandle(forWritingTo: appendix)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"theme": {"value": "dark", "st"#.utf8))
        try handle.close()
        // Another store (a new process) has no mark: it reads the appendix and ends the torn line.
        let other = self.store(at: { 1_764_000_000_000 })
        try await other.edit { try $0.set(.fontSize, 1.75) }
        let lines = try String(contentsOf: appendix, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        let last = try Preferences(json: Data(lines[2].utf8))
        #expect(last["fontSize"]?.objectValue?["value"] == 1.75)
    }

    @Test("two stores on one folder take ordered stamps: each reads what the other appended")
    func twoStores() async throws {
        let first = store(at: { 1_764_000_000_000 })
        let second = store(at: { 1_764_000_000_000 })
        try await first.edit { try $0.set(.fontSize, 1.5) }
        try await second.edit { try $0.set(.theme, .dark) }
        try await first.edit { try $0.set(.fontSize, 1.75) }
        let stamps = try records().compactMap { record in
            record.members.first?.value.objectValue?["stamp"]?.objectValue?["counter"]
        }
        // All in one millisecond: the counters order them, the third above the second's.
        #expect(stamps == [0, 1, 2])
    }

    @Test("an edit through a store holding an outdated document keeps what another store wrote")
    func outdatedHeldDocument() async throws {
        let first = store(at: { 1_764_000_000_000 })
        let second = store(at: { 1_764_000_000_000 })
        try await first.edit { try $0.set(.theme, .dark) }
        try await second.edit { try $0.set(.fontSize, 1.25) }
        // The first store still holds the document before the second store's edit.
        try await first.edit { try $0.set(.theme, .sepia) }
        let stored = try Preferences(json: Data(contentsOf: root.appendingPathComponent("epub/shared.json")))
        #expect(stored == ["theme": "sepia", "fontSize": 1.25])
    }

    @Test("a full appendix is folded into the sidecar, keeping every key's latest stamp")
    func folds() async throws {
        let clock = ManualMillis(1_764_000_000_000)
        let store = store(at: { clock.now })
        for step in 0..<64 {
            clock.advance(by: 10)
            try await store.edit { try $0.set(.fontSize, Double(100 + step) / 100) }
        }
        #expect(try records().count == 64)
        clock.advance(by: 10)
        try await store.edit { try $0.set(.theme, .dark) }
        #expect(!FileManager.default.fileExists(atPath: appendix.path))
        let folded = try Preferences(json: Data(contentsOf: sidecar))
        let pending = try #require(folded["pending"]?.objectValue)
        #expect(pending.keys.sorted() == ["fontSize", "theme"])
        #expect(pending["fontSize"]?.objectValue?["value"] == 1.63)
        #expect(pending["fontSize"]?.objectValue?["stamp"]?.objectValue?["time"] == 1_764_000_000_640)
        #expect(pending["theme"]?.objectValue?["stamp"]?.objectValue?["time"] == 1_764_000_000_650)
        // The next edit appends again.
        try await store.edit { try $0.set(.fontSize, 2) }
        #expect(try records().count == 1)
    }

    @Test("sync takes the appended stamps, drops the appendix, and skips a torn record")
    func syncUsesAndDrops() async throws {
        let clock = ManualMillis(1_764_000_000_000)
        let store = store(at: { clock.now })
        try await store.edit { try $0.set(.fontSize, 1.5) }
        // A crash tore a later append: the line is skipped, the earlier record kept.
        let handle = try FileHandle(forWritingTo: appendix)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"theme": {"value": "dark", "st"#.utf8))
        try handle.close()
        clock.advance(by: 60_000)
        let report = try await store.sync(with: mirror, options: .init(replica: ReplicaID("phone")))
        #expect(report.changes.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: appendix.path))
        let published = try Preferences(json: Data(contentsOf: mirror.appendingPathComponent("phone.json")))
        let entry = published["documents"]?.objectValue?["epub/shared"]?.objectValue?["fontSize"]
        // Stamped when edited, not when synced a minute later.
        #expect(entry?.objectValue?["stamp"]?.objectValue?["time"] == 1_764_000_000_000)
    }
}

/// A wall clock in milliseconds that tests move by hand.
final class ManualMillis: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64

    init(_ start: UInt64) { value = start }

    var now: UInt64 { lock.withLock { value } }

    func advance(by milliseconds: UInt64) { lock.withLock { value += milliseconds } }
}
