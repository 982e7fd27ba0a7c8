import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// An app schema with sixteen counters, one per concurrent task.
enum Counters: SettingsSchema, ResolvableSchema {
    typealias Resolver = FeatureResolver<Counters>
    static let counters = (0..<16).map { index in
        Setting<Counters, Int>.range("counter\(index)", title: "Counter \(index)", range: 0...100_000) {
            $0.fallback = .integer(0)
        }
    }
    static let catalogue = SettingCatalogue(counters.map(\.descriptor))
}

/// No update is lost, from tasks or from processes (Specs/Store.md §6.4, §6.5).
@Suite("The store under concurrent writers", .serialized)
struct StoreConcurrencyTests {
    @Test("16 tasks × 500 edits of different keys through one store lose nothing", arguments: [false, true])
    func tasks(coalescing: Bool) async throws {
        let folder = try TemporaryFolder()
        let store = PreferencesStore<Counters>(
            storage: FileStorage(root: folder.url),
            options: .init(coalescesWrites: coalescing, writeDelay: 5_000_000))
        let edits = coalescing ? 500 : 50  // every uncoalesced edit is a flushed file write
        try await withThrowingTaskGroup(of: Void.self) { group in
            for counter in Counters.counters {
                group.addTask {
                    for _ in 0..<edits { try await store.edit { editor in try editor.increment(counter) } }
                }
            }
            try await group.waitForAll()
        }
        try await store.flush()
        let fresh = PreferencesStore<Counters>(storage: FileStorage(root: folder.url))
        let stored = try await fresh.preferences()
        for counter in Counters.counters {
            #expect(stored[counter.key] == .number(JSONNumber(edits)), "\(counter.key)")
        }
    }

    @Test(
        "many tasks writing one document through one store take turns: no conflict, nothing lost",
        arguments: StorageKindUnderTest.allCases)
    func writersTakeTurns(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        let store = PreferencesStore<EPUB>(storage: storage)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<32 {
                group.addTask {
                    for round in 0..<20 {
                        try await store.write(["task\(task)": .number(JSONNumber(round))], to: .shared)
                    }
                }
            }
            try await group.waitForAll()
        }
        let shared = try await PreferencesStore<EPUB>(storage: storage).storedPreferences(in: .shared)
        #expect(shared.count == 32)
        #expect((0..<32).allSatisfy { shared["task\($0)"] == 19 })
        _ = folder
    }

    @Test("two processes editing different keys of the same file lose nothing")
    func processes() async throws {
        let folder = try TemporaryFolder()
        let root = folder.url.path
        let rounds = 15
        try await withThrowingTaskGroup(of: Void.self) { group in
            for key in ["pageSpacing", "scroll"] {
                group.addTask {
                    for round in 1...rounds {
                        let value = key == "scroll" ? (round % 2 == 0 ? "true" : "false") : String(round * 4)
                        let outcome = try CommandLineTool.run(
                            ["store", "--root", root, "--configurable", "pdf", "set", key, value])
                        #expect(outcome.status == 0, "\(outcome.error)")
                    }
                }
            }
            try await group.waitForAll()
        }
        let shared = try Preferences(
            json: Data(contentsOf: folder.url.appendingPathComponent("pdf/shared.json")))
        #expect(shared["pageSpacing"] == .number(JSONNumber(rounds * 4)))
        #expect(shared["scroll"] == .bool(rounds % 2 == 0))
    }

    @Test("10,000 coalesced edits make far fewer writes, and flush() loses nothing")
    func coalescedSlider() async throws {
        let folder = try TemporaryFolder()
        let storage = FaultyStorage(FileStorage(root: folder.url))
        let store = PreferencesStore<EPUB>(
            storage: storage, options: .init(coalescesWrites: true, writeDelay: 50_000_000))
        for index in 0..<10_000 {
            try await store.edit { editor in try editor.set(.fontSize, 0.5 + Double(index % 400) / 100) }
        }
        try await store.flush()
        #expect(await storage.saves < 100)
        let stored = try await PreferencesStore<EPUB>(storage: FileStorage(root: folder.url)).preferences()
        #expect(stored["fontSize"] == .number(JSONNumber(0.5 + Double(9_999 % 400) / 100)))
    }
}
