import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// An app schema whose identifier is not a plain folder name.
enum OddlyNamedLabs: SettingsSchema, ResolvableSchema {
    typealias Resolver = FeatureResolver<OddlyNamedLabs>
    static var identifier: String { "My Labs/ß v2".replacingOccurrences(of: "/", with: ":") }
    static let sidebar = Feature<OddlyNamedLabs>("sidebar", title: "Sidebar")
    static let catalogue = SettingCatalogue(features: [sidebar], options: [])
}

/// Issue 19's findings that the command line cannot show: each test failed before the storage
/// layer was rebuilt.
@Suite("Sync findings, through the library")
struct SyncFindingsTests {
    static func shared() throws -> SyncScope { try scope("epub/shared") }

    /// Two or more devices in memory, syncing through an exchange.
    struct Devices {
        let exchange = MemoryExchange()
        let clock = ManualClock()
        var storages: [FaultyStorage] = []

        init(_ count: Int) {
            for _ in 0..<count { storages.append(FaultyStorage(InMemoryStorage())) }
        }

        init(_ count: Int, base: (Int) throws -> any PreferencesStorage) rethrows {
            for index in 0..<count { storages.append(FaultyStorage(try base(index))) }
        }

        func store(_ index: Int) -> PreferencesStore<EPUB> { store(index, of: EPUB.self) }

        /// A store of the device, whose edits take their stamps from the devices' clock.
        func store<Schema: ResolvableSchema>(_ index: Int, of: Schema.Type) -> PreferencesStore<Schema> {
            let clock = clock
            return PreferencesStore(storage: storages[index], options: .init(now: { clock.date() }))
        }

        func options(_ index: Int, horizon: TimeInterval = 30 * 86_400) -> SyncOptions {
            let clock = clock
            // A device's first sync merges key by key (Specs/Sync.md §5.9): the rule these check.
            return SyncOptions(
                replica: ReplicaID("d\(index)"), tombstoneHorizon: horizon, firstJoin: .merge,
                now: { clock.date() })
        }

        @discardableResult
        func sync(_ index: Int, horizon: TimeInterval = 30 * 86_400) async throws -> SyncReport {
            clock.advance(by: 10)
            return try await store(index).sync(
                with: MemoryTransport(exchange: exchange), options: options(index, horizon: horizon))
        }
    }

    // MARK: - 4. Quadratic sync

    /// A replica file of `count` keys in one document.
    static func replicaFile(keys count: Int, replica: String = "big") throws -> Data {
        var document = SyncDocument()
        for index in 0..<count {
            document["myApp.key\(index)"] = SyncEntry(
                value: .number(JSONNumber(index)), stamp: try stamp(1_764_000_000_000, UInt64(index), replica)
            )
        }
        return ReplicaState(replica: try replicaID(replica), writer: "w", documents: [try shared(): document])
            .jsonData()
    }

    /// The key comparisons one sync with a file of `count` keys makes, twice (the second sync
    /// finds everything merged already).
    static func comparisons(keys count: Int) async throws -> Int {
        let devices = Devices(1)
        let state = try ReplicaState.read(try replicaFile(keys: count)).state
        await devices.exchange.publish(state)
        let counter = KeyComparisons.Counter()
        try await KeyComparisons.$current.withValue(counter) {
            try await devices.sync(0)
            try await devices.sync(0)
        }
        #expect(try await devices.store(0).preferences().count == count)
        return counter.count
    }

    @Test("finding 4: syncing a replica file takes work linear in its keys (key comparisons counted)")
    func linearSync() async throws {
        let small = try await Self.comparisons(keys: 2_000)
        let large = try await Self.comparisons(keys: 8_000)
        #expect(large < 5 * small, "2,000 keys: \(small) comparisons; 8,000 keys: \(large)")
    }

    @Test("finding 4: a replica file's high-water marks are read and kept in linear work")
    func linearMergedMaps() async throws {
        func comparisons(_ count: Int) async throws -> Int {
            let devices = Devices(1)
            var merged: [ReplicaID: SyncStamp] = [:]
            for index in 0..<count {
                merged[try replicaID("r\(index)")] = try stamp(1_764_000_000_000, 0, "r\(index)")
            }
            var state = ReplicaState(replica: try replicaID("big"), writer: "w")
            state.merge(ReplicaState(replica: try replicaID("big"), merged: merged))
            await devices.exchange.publish(try ReplicaState.read(state.jsonData()).state)
            let counter = KeyComparisons.Counter()
            try await KeyComparisons.$current.withValue(counter) {
                try await devices.sync(0)
                try await devices.sync(0)
            }
            return counter.count
        }
        let small = try await comparisons(2_000)
        let large = try await comparisons(8_000)
        #expect(large <= 5 * max(small, 1), "2,000 marks: \(small) comparisons; 8,000 marks: \(large)")
    }

    // MARK: - 5. Edits lost during a sync

    @Test(
        "finding 5: an edit that lands while its root syncs is stamped, and wins over an earlier edit elsewhere",
        arguments: [false, true])
    func editDuringSync(files: Bool) async throws {
        let folder = try TemporaryFolder()
        let devices = Devices(2) { index in
            files
                ? FileStorage(root: folder.url.appendingPathComponent("d\(index)")) as any PreferencesStorage
                : InMemoryStorage()
        }
        try await devices.store(1).write(["fontSize": 1.2], to: .shared)
        try await devices.sync(1)
        try await devices.store(0).write(["theme": "sepia"], to: .shared)
        // While device 0 writes what it merged, another process of device 0 sets the font size.
        let other = devices.store(0)
        await devices.storages[0].beforeNextLayerSave {
            _ = try? await other.write(["fontSize": 1.8], to: .shared)
        }
        try await devices.sync(0)
        #expect(await devices.storages[0].injected == 1)
        try await devices.sync(1)
        try await devices.sync(0)
        for index in 0..<2 {
            #expect(try await devices.store(index).preferences() == ["fontSize": 1.8, "theme": "sepia"])
        }
    }

    // MARK: - 9. Compaction, the clock

    @Test(
        "finding 9: a replica whose file disappeared still holds a removal back, and its stale value never returns"
    )
    func compactionRemembersReplicas() async throws {
        let devices = Devices(3)
        let day: Int64 = 86_400_000
        try await devices.store(0).write(["theme": "dark"], to: .shared)
        for index in [0, 1, 2, 0, 1] { try await devices.sync(index, horizon: 1) }
        // Device 2, which the others have seen, goes quiet: its file vanishes from the mirror (a sync client dropped it).
        let saved = await devices.exchange.files["d2.json"]
        await devices.exchange.remove("d2.json")
        try await devices.store(0).write(["theme": nil], to: .shared)
        for _ in 0..<3 {
            devices.clock.advance(by: 2 * day)
            try await devices.sync(0, horizon: 1)
            try await devices.sync(1, horizon: 1)
        }
        // The file comes back, stale: it still holds the value.
        if let saved { await devices.exchange.publishRaw("d2.json", saved) }
        for index in [0, 1, 0, 1] { try await devices.sync(index, horizon: 1) }
        #expect(try await devices.store(0).preferences()["theme"] == nil)
        #expect(try await devices.store(1).preferences()["theme"] == nil)
        try await devices.sync(2, horizon: 1)
        #expect(try await devices.store(2).preferences()["theme"] == nil)
    }

    // MARK: - 10. Replica identity

    @Test(
        "finding 10: an app configurable whose identifier is not a plain name syncs once, then reports nothing"
    )
    func oddConfigurable() async throws {
        let folder = try TemporaryFolder()
        let devices = Devices(2) { index in FileStorage(root: folder.url.appendingPathComponent("d\(index)"))
        }
        let labs = devices.store(0, of: OddlyNamedLabs.self)
        try await labs.write(["sidebar": true], to: .shared)
        let first = try await devices.sync(0)
        #expect(first.changes.isEmpty)
        let second = try await devices.sync(0)
        #expect(second.changes.isEmpty && second.problems.isEmpty, "\(second)")
        let received = try await devices.sync(1)
        #expect(received.changes.map(\.configurable) == [OddlyNamedLabs.identifier])
        let other = devices.store(1, of: OddlyNamedLabs.self)
        #expect(try await other.preferences() == ["sidebar": true])
        #expect(try await devices.sync(1).changes.isEmpty)
    }

    @Test("finding 10: concurrent syncs of one store in one process take turns and keep one id")
    func concurrentSyncsInProcess() async throws {
        let devices = Devices(1)
        try await devices.store(0).write(["fontSize": 1.2], to: .shared)
        let storage = devices.storages[0]
        let exchange = devices.exchange
        let reports = try await withThrowingTaskGroup(of: SyncReport.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await PreferencesStore<EPUB>(storage: storage).sync(
                        with: MemoryTransport(exchange: exchange))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(reports.compactMap(\.replica)).count == 1)
        #expect(reports.allSatisfy { $0.problems.isEmpty }, "\(reports.map(\.problems))")
        #expect(await exchange.files.count == 1)
    }

    // MARK: - 11. The pure merge

    @Test("finding 11: the merged map covers every entry's stamp, and the merge keeps it so")
    func mergedCoversEntries() throws {
        var document = SyncDocument()
        let expected = try stamp(1_764_000_000_500, 2, "x")
        document["fontSize"] = SyncEntry(value: 1.4, stamp: expected)
        let state = ReplicaState(replica: try replicaID("a"), documents: [try Self.shared(): document])
        #expect(state.merged[try replicaID("x")] == expected)
        let merged = ReplicaState.merged(ReplicaState(replica: try replicaID("b")), state)
        #expect(merged.merged[try replicaID("x")] == expected)
    }

    @Test(
        "finding 11: stamps are exact integers in 0...2^53-1; others skip their entry, never through Double",
        arguments: [
            ("9007199254740993", "0"), ("9007199254740992", "0"), ("1764000000000", "9223372036854774784"),
            ("-1", "0"), ("1.5", "0"), ("\"1764000000000\"", "0"),
        ])
    func exactStamps(time: String, counter: String) throws {
        let text = """
            {"format": "readingprefs-sync", "version": 1, "replica": "a", "writer": "w", "merged": {},
             "documents": {"epub/shared": {
               "bad": {"value": 1, "stamp": {"time": \(time), "counter": \(counter), "replica": "a"}},
               "good": {"value": 2, "stamp": {"time": 9007199254740991, "counter": 9007199254740991, "replica": "a"}}}}}
            """
        let file = try ReplicaState.read(Data(text.utf8))
        let document = try #require(file.state.documents[try Self.shared()])
        #expect(document.keys == ["good"])
        #expect(
            file.skipped.count == 1 && file.skipped[0].hasPrefix("documents.epub/shared.bad:"),
            "\(file.skipped)")
        #expect(document["good"]?.stamp.time == 9_007_199_254_740_991)
    }
}
