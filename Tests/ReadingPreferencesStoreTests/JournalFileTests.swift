import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// How a file store records changes (Specs/Store.md §15): one change journal per document,
/// `<document>.journal` in the hidden folder, written by the step that writes the document and by
/// nothing else, stamped by one replica clock; read by sync for its pending stamps; bounded; kept
/// only by a root that is a replica.
@Suite("The change journal in files")
struct JournalFileTests {
    let folder: TemporaryFolder
    var root: URL { folder.url.appendingPathComponent("device") }
    var mirror: URL { folder.url.appendingPathComponent("mirror") }
    var journal: URL { root.appendingPathComponent(".readingprefs/epub/shared.json.journal") }

    init() throws { folder = try TemporaryFolder() }

    /// A store whose wall clock reads `time` milliseconds.
    func store(at time: @escaping @Sendable () -> UInt64, root: URL? = nil) -> PreferencesStore<EPUB> {
        PreferencesStore(
            storage: FileStorage(root: root ?? self.root),
            options: .init(now: { Date(timeIntervalSince1970: Double(time()) / 1000) }))
    }

    /// The journal's entries: one JSON object per line.
    func entries(_ url: URL? = nil) throws -> [JournalEntry] {
        let text = try String(contentsOf: url ?? journal, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        // Every line holds an entry: an append starts no empty line.
        #expect(!text.hasPrefix("\n") && !text.contains("\n\n"))
        return try text.split(separator: "\n").map { try JournalEntry(json: JSONValue(json: Data($0.utf8))) }
    }

    /// Every file under a folder, relative to it.
    func files(_ url: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: url.path).filter { path in
            var folder: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: url.appendingPathComponent(path).path, isDirectory: &folder)
                && !folder.boolValue
        }.sorted()
    }

    @Test(
        "a root that never synced and keeps no history records nothing: an edit leaves its document and its lock"
    )
    func nothingRecorded() async throws {
        let store = store(at: { 1_764_000_000_000 })
        try await store.write(["fontSize": 1.5], to: .shared)
        #expect(try files(root) == [".readingprefs/epub/shared.json.lock", "epub/shared.json"])
        // Removing its last key removes the document and the store's own file with it.
        try await store.write(["fontSize": nil], to: .shared)
        #expect(try files(root) == [])
    }

    @Test("a named device keeps a journal: each change, stamped, with its value before and after")
    func records() async throws {
        let store = store(at: { 1_764_000_000_000 })
        try await store.device.setName("Kobo Clara")
        try await store.edit { try $0.set(.fontSize, 1.5) }
        try await store.edit { editor in
            try editor.set(.fontSize, 1.75)
            try editor.set(.theme, .sepia)
        }
        let entries = try entries()
        #expect(entries.map(\.key) == ["fontSize", "fontSize", "theme"])
        #expect(entries.map(\.oldValue) == [nil, 1.5, nil])
        #expect(entries.map(\.newValue) == [1.5, 1.75, "sepia"])
        #expect(entries.allSatisfy { $0.origin == .edit && $0.stamp?.time == 1_764_000_000_000 })
        // One clock: a later change's stamp is later, even in the same millisecond.
        #expect(entries.compactMap(\.stamp?.counter) == [0, 1, 2])
        #expect(try files(root).filter { !$0.hasPrefix(".readingprefs/") } == ["epub/shared.json"])
    }

    @Test("why tells a change's age, and a time ahead of this device's clock as ahead, never as just now")
    func ages() async throws {
        let made: UInt64 = 1_764_000_000_000
        let store = store(at: { made })
        try await store.device.setName("Kobo Clara")
        try await store.edit { try $0.set(.fontSize, 1.5) }
        let why = try #require(try await store.explanation(of: "fontSize"))
        let minute: UInt64 = 60_000
        let told = { (now: UInt64) in
            why.description(now: now).split(separator: "\n").first.map(String.init) ?? ""
        }
        #expect(told(made + 30_000).contains("set on Kobo Clara, just now ("))
        #expect(told(made + 3 * 1_440 * minute).contains("set on Kobo Clara, 3 days ago ("))
        #expect(told(made - 30_000).contains("set on Kobo Clara, just now ("))
        #expect(
            told(made - 59 * minute).contains("set on Kobo Clara, 59 minutes ahead of this device's clock ("))
        #expect(told(made - 61 * minute).contains("1 hour ahead of this device's clock"))
        #expect(told(made - 45 * 1_440 * minute).contains("45 days ahead of this device's clock"))
    }

    @Test("stamps rise across documents and stores: edits of two documents never share a stamp")
    func oneClock() async throws {
        let first = store(at: { 1_764_000_000_000 })
        let second = store(at: { 1_764_000_000_000 })
        try await first.device.keepHistory()
        try await first.edit(publication: "a") { try $0.set(.readingProgression, .rtl) }
        try await second.write(["fontSize": 1.25], to: .shared)
        try await first.edit(publication: "b") { try $0.set(.readingProgression, .ltr) }
        var stamps: [SyncStamp] = []
        for location in [
            StorageLocation.layer(configurable: "epub", .publication("a")),
            .layer(configurable: "epub", .shared), .layer(configurable: "epub", .publication("b")),
        ] {
            stamps += try await first.storage.journal(of: location, after: nil).entries.compactMap(\.stamp)
        }
        #expect(stamps.map(\.counter) == [0, 1, 2])
        #expect(Set(stamps).count == 3)
    }

    @Test("a line a crash tore is left out, and the next change starts a line of its own")
    func tornLine() async throws {
        let store = store(at: { 1_764_000_000_000 })
        try await store.device.keepHistory()
        try await store.edit { try $0.set(.fontSize, 1.5) }
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"key": "theme", "new": "dark", "st"#.utf8))
        try handle.close()
        try await self.store(at: { 1_764_000_000_000 }).edit { try $0.set(.fontSize, 1.75) }
        let read = try await store.storage.journal(of: .layer(configurable: "epub", .shared), after: nil)
        #expect(read.entries.map(\.newValue) == [1.5, 1.75])
        let lines = try String(contentsOf: journal, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines.last == "")
    }

    @Test("a sync sends an edit with the stamp it took when made, not the sync's time")
    func syncUsesJournal() async throws {
        let clock = ManualMillis(1_764_000_000_000)
        let store = store(at: { clock.now })
        try await store.device.setName("Phone")
        try await store.edit { try $0.set(.fontSize, 1.5) }
        clock.advance(by: 60_000)
        let report = try await store.sync(
            with: mirror,
            options: .init(
                replica: ReplicaID("phone"), now: { Date(timeIntervalSince1970: Double(clock.now) / 1000) }))
        #expect(report.changes.isEmpty)
        let published = try Preferences(json: Data(contentsOf: mirror.appendingPathComponent("phone.json")))
        #expect(published["name"] == "Phone")
        let entry = published["documents"]?.objectValue?["epub/shared"]?.objectValue?["fontSize"]
        #expect(entry?.objectValue?["stamp"]?.objectValue?["time"] == 1_764_000_000_000)
    }

    @Test(
        "a key set and removed between two syncs sends its removal, which wins over an older value elsewhere")
    func removalBeforeSync() async throws {
        let clock = ManualMillis(1_764_000_000_000)
        let now: @Sendable () -> Date = { Date(timeIntervalSince1970: Double(clock.now) / 1000) }
        let a = store(at: { clock.now }, root: folder.url.appendingPathComponent("a"))
        let b = store(at: { clock.now }, root: folder.url.appendingPathComponent("b"))
        _ = try await a.sync(with: mirror, options: .init(replica: ReplicaID("a"), now: now))
        _ = try await b.sync(with: mirror, options: .init(replica: ReplicaID("b"), now: now))
        clock.advance(by: 1000)
        try await b.write(["theme": "dark"], to: .shared)
        clock.advance(by: 1000)
        try await a.write(["theme": "sepia"], to: .shared)
        try await a.write(["theme": nil], to: .shared)
        clock.advance(by: 1000)
        _ = try await b.sync(with: mirror, options: .init(replica: ReplicaID("b"), now: now))
        _ = try await a.sync(with: mirror, options: .init(replica: ReplicaID("a"), now: now))
        _ = try await b.sync(with: mirror, options: .init(replica: ReplicaID("b"), now: now))
        // A's removal came after B's value: it wins on both, whichever synced last.
        #expect(try await a.storedPreferences(in: .shared)["theme"] == nil)
        #expect(try await b.storedPreferences(in: .shared)["theme"] == nil)
    }

    @Test("a profile's rename takes its stamp when made: a later rename wins over an earlier one synced last")
    func renameStamped() async throws {
        let clock = ManualMillis(1_764_000_000_000)
        let now: @Sendable () -> Date = { Date(timeIntervalSince1970: Double(clock.now) / 1000) }
        let a = store(at: { clock.now }, root: folder.url.appendingPathComponent("a"))
        let b = store(at: { clock.now }, root: folder.url.appendingPathComponent("b"))
        let night = try await a.createProfile(named: "Night")
        _ = try await a.sync(with: mirror, options: .init(replica: ReplicaID("a"), now: now))
        _ = try await b.sync(with: mirror, options: .init(replica: ReplicaID("b"), now: now))
        clock.advance(by: 1000)
        try await a.renameProfile(night.id, to: "Evening")
        clock.advance(by: 1000)
        try await b.renameProfile(night.id, to: "Dusk")
        clock.advance(by: 1000)
        _ = try await b.sync(with: mirror, options: .init(replica: ReplicaID("b"), now: now))
        _ = try await a.sync(with: mirror, options: .init(replica: ReplicaID("a"), now: now))
        _ = try await b.sync(with: mirror, options: .init(replica: ReplicaID("b"), now: now))
        #expect(try await a.profiles().map(\.name) == ["Dusk"])
        #expect(try await b.profiles().map(\.name) == ["Dusk"])
    }

    @Test("a journal past its byte bound is compacted to what the bounds keep")
    func compacted() async throws {
        let clock = ManualMillis(1_764_000_000_000)
        let store = store(at: { clock.now })
        try await store.device.keepHistory()
        let large = String(repeating: "x", count: 20_000)
        for step in 0..<60 {
            clock.advance(by: 10)
            try await store.write(["note": .string(large + String(step))], to: .shared)
        }
        let size = try FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int ?? 0
        #expect(size <= JournalBounds.standard.maximumBytes + 60_000)
        let kept = try entries()
        #expect(!kept.isEmpty && kept.count < 60)
        #expect(kept.last?.newValue == .string(large + "59"))
    }

    @Test("the bounds keep 20 changes per key and every change of the last 30 days, within the byte bound")
    func bounds() {
        let day: UInt64 = 86_400_000
        let now: UInt64 = 100 * day
        var entries: [(entry: JournalEntry, bytes: Int)] = []
        // 30 old changes of `a`, then 5 recent changes of `b`.
        for index in 0..<30 {
            entries.append(
                (
                    JournalEntry(
                        key: "a", oldValue: nil, newValue: .number(JSONNumber(index)), origin: .edit,
                        time: UInt64(index)), 10
                ))
        }
        for index in 0..<5 {
            entries.append(
                (
                    JournalEntry(
                        key: "b", oldValue: nil, newValue: .number(JSONNumber(index)), origin: .edit,
                        time: now - day), 10
                ))
        }
        let kept = JournalBounds.standard.kept(entries, now: now)
        #expect(kept == Array(10..<35))
        let tight = JournalBounds(entriesPerKey: 20, days: 30, maximumBytes: 100)
        // Past the bound, a compaction leaves three quarters of it: the next is a quarter away.
        #expect(tight.kept(entries, now: now) == Array(28..<35))
    }

    @Test("a root of the layout before the hidden folder moves there when first opened, pending stamps kept")
    func migration() async throws {
        let fs = FileManager.default
        try fs.createDirectory(at: root.appendingPathComponent("epub"), withIntermediateDirectories: true)
        try Data("{\n  \"fontSize\": 1.5\n}\n".utf8).write(
            to: root.appendingPathComponent("epub/shared.json"))
        try Data().write(to: root.appendingPathComponent("epub/shared.json.lock"))
        let stamp = #"{"time": 1764000000000, "counter": 0, "replica": "old"}"#
        try Data(#"{"format":"readingprefs-sync-snapshot","version":1,"entries":{}}"#.utf8 + [0x0A])
            .write(to: root.appendingPathComponent("epub/shared.json.sync"))
        try Data((#"{"fontSize": {"value": 1.5, "stamp": "# + stamp + "}}\n").utf8)
            .write(to: root.appendingPathComponent("epub/shared.json.sync.pending"))
        try Data(#"{"format":"readingprefs-sync-state","version":1,"replica":"old","writers":["w"]}"#.utf8)
            .write(to: root.appendingPathComponent("replica.json"))
        try Data(#"{"activeProfiles":{}}"#.utf8).write(to: root.appendingPathComponent("device.json"))
        let store = store(at: { 1_764_000_000_500 })
        #expect(try await store.preferences()["fontSize"] == 1.5)
        #expect(
            try files(root) == [
                ".readingprefs/clock.json", ".readingprefs/device.json",
                ".readingprefs/epub/shared.json.sync",
                ".readingprefs/replica.json", "epub/shared.json",
            ])
        let sidecar = try Preferences(
            json: Data(contentsOf: root.appendingPathComponent(".readingprefs/epub/shared.json.sync")))
        #expect(sidecar["pending"]?.objectValue?["fontSize"]?.objectValue?["value"] == 1.5)
        #expect(try await store.device.identity()?.id.rawValue == "old")
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
