import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// The behaviour every `PreferencesStorage` must have, as a check a server runs against its own
/// implementation (as swift-configuration's providers run `ConfigurationTesting`): the package
/// runs it against its file, memory and `UserDefaults` storages and the guide's SQL storage.
///
/// ```swift
/// @Test func sqlStorageConforms() async throws {
///     let storage = SQLPreferencesStorage(database: testDatabase, userID: "conformance-\(UUID())")
///     let failures = await StorageConformance.failures(of: storage, faults: testDatabase.faults)
///     #expect(failures.isEmpty, "\(failures)")
/// }
/// ```
///
/// It needs an empty storage, and leaves it empty: everything it writes is removed at the end,
/// through `removeAll()`. The checks, each named in its failures:
///
/// - **round trip**: every kind of location loads back byte for byte what was saved (member
///   order, `1e400`, `1.50`, `-0`, long integers, `$` keys, canonically equivalent keys, an
///   empty document, a large one), and each location apart from every other.
/// - **versions**: stale saves and removals conflict and change nothing; a version is never
///   reused for other contents, even after the document is removed and created again.
/// - **listing**: identifiers themselves (never file or row names) of the configurable asked for
///   only, sorted, in pages; configurables apart, whatever their names.
/// - **batch**: a batch is applied whole or not at all: a stale version or check anywhere in it,
///   or a failure of the medium at any step, changes nothing.
/// - **corrupt data**: data that is not a JSON object is reported as `corruptDocument` with its
///   version, and set aside by `quarantine`.
/// - **io**: a failing medium is reported as `io`, never as an absent document.
/// - **concurrency**: concurrent writers of one document, directly and through stores, lose
///   nothing; of concurrent writers at the same version, exactly one wins.
/// - **export and removal**: `export()` returns the layer documents; `removeAll()` removes
///   everything, and versions never repeat afterwards.
///
/// The corrupt-data and io checks need ``StorageFaults``; without them they are reported as
/// skipped (one line each, starting with `skipped:`), so a storage that cannot provide them is
/// never silently passed.
public enum StorageConformance {
    /// Runs every check on an empty storage and returns what failed (empty when it conforms).
    ///
    /// - Parameters:
    ///   - storage: An empty storage; it is empty again afterwards.
    ///   - faults: How to damage it, for the corrupt-data and io checks; `nil` skips them.
    /// - Returns: One line per failure, `[check] what: expected …, got …`.
    public static func failures(of storage: some PreferencesStorage, faults: StorageFaults? = nil) async
        -> [String]
    {
        let run = StorageConformanceRun(storage: storage, faults: faults)
        await run.all()
        return run.failures
    }

    /// A document that loses something in any lossy store: key order, numbers' text, `$` keys,
    /// canonically equivalent keys, escapes, nesting.
    static let tricky: Preferences = {
        let text = #"""
            {"zeta":1,"alpha":2,"$meta":{"b":1,"a":[true,false,null]},"huge":1e400,"fixed":1.50,"negativeZero":-0,
            "long":123456789012345678901234567890,"tiny":5e-324,"exponent":1E+2,"caf\u00e9":"composed",
            "cafe\u0301":"decomposed","escapes":"\u0000\"\\\/\b\f\n\r\t\u2028","emoji":"\ud83d\ude00",
            "nested":[1,{"y":2,"x":1},[]],"empty":{},"null":null,"Zeta":"case","zeta ":"space"}
            """#
        return (try? Preferences(json: text)) ?? Preferences()
    }()

    /// Publication identifiers that lossy or case-folding keys merge or mangle.
    static let publications = [
        "urn:isbn:978-0/x?y", "UPPER", "upper", "caf\u{E9}", "cafe\u{301}", "book", "book ", "100%_done\\",
        "a/b/../c", String(repeating: "long-identifier-", count: 40), "\u{1F4D6} emoji",
    ]

}

/// One run of the suite: the storage, the failures so far, and every version seen.
final class StorageConformanceRun<Storage: PreferencesStorage> {
    let storage: Storage
    let faults: StorageFaults?
    private(set) var failures: [String] = []
    /// Every version a location had, with the compact JSON it held then.
    private var seen: [StorageLocation: [StorageVersion: [UInt8]]] = [:]
    /// The check running, named in its failures.
    private var check = "setup"

    init(storage: Storage, faults: StorageFaults?) {
        self.storage = storage
        self.faults = faults
    }

    // MARK: - Running

    func all() async {
        check = "setup"
        do {
            let documents = try await storage.export()
            guard documents.isEmpty, try await storage.configurables().isEmpty else {
                fail(
                    "the storage must start empty", expected: "no documents",
                    actual: "\(documents.count) documents")
                return
            }
        } catch {
            fail("export and configurables of an empty storage", expected: "no error", actual: "\(error)")
            return
        }
        await run("round trip") { try await self.roundTrip() }
        await run("versions") { try await self.versions() }
        await run("listing") { try await self.listing() }
        await run("batch") { try await self.batch() }
        await run("corrupt data") { try await self.corruptData() }
        await run("io") { try await self.io() }
        await run("concurrency") { try await self.concurrency() }
        await run("export and removal") { try await self.exportAndRemoval() }
        await cleanUp()
    }

    private func run(_ name: String, _ body: () async throws -> Void) async {
        check = name
        do {
            try await body()
        } catch {
            fail("an unexpected error", expected: "none", actual: "\(error)")
        }
        await faults?.failWrites(nil)
        await faults?.failReads(false)
    }

    private func fail(_ what: String, expected: String, actual: String) {
        failures.append("[\(check)] \(what): expected \(expected), got \(actual)")
    }

    private func skip(_ what: String) {
        failures.append("skipped: [\(check)] \(what) needs StorageFaults")
    }

    /// Records a check's outcome; `false` when it failed.
    @discardableResult
    private func expect(
        _ condition: Bool, _ what: String, expected: String, actual: @autoclosure () -> String
    )
        -> Bool
    {
        if !condition { fail(what, expected: expected, actual: actual()) }
        return condition
    }

    // MARK: - Helpers

    static var configurable: String { "conformance" }

    static func layer(_ layer: StoreLayer, of configurable: String = configurable) -> StorageLocation {
        .layer(configurable: configurable, layer)
    }

    /// Saves and records the version; fails the check when a version comes back for other
    /// contents.
    @discardableResult
    func save(_ preferences: Preferences, to location: StorageLocation, expecting version: StorageVersion?)
        async throws -> StorageVersion
    {
        let saved = try await storage.save(preferences, to: location, expecting: version)
        record(saved, preferences.jsonBytes(), at: location)
        return saved
    }

    private func record(_ version: StorageVersion, _ bytes: [UInt8], at location: StorageLocation) {
        if let earlier = seen[location]?[version], earlier != bytes {
            fail(
                "a version of \(location) reused for other contents", expected: "a new version",
                actual: "\(version) again, for \(String(decoding: bytes.prefix(80), as: UTF8.self))")
        }
        seen[location, default: [:]][version] = bytes
    }

    /// Expects an operation to fail with a code, and reports what it did instead.
    private func expectFailure<T>(
        _ code: StorageError.Code, _ what: String, _ body: () async throws(StorageError) -> T
    ) async {
        do {
            let result = try await body()
            fail(what, expected: code.rawValue, actual: "success (\(result))")
        } catch {
            expect(
                error.code == code, what, expected: code.rawValue,
                actual: error.code.rawValue + ": \(error.message)")
        }
    }

    private func text(_ preferences: Preferences?) -> String {
        preferences.map { String(decoding: $0.jsonBytes().prefix(160), as: UTF8.self) } ?? "nothing"
    }

    /// Expects a location to hold exactly `preferences` (compared byte for byte as compact JSON).
    private func expectStored(_ preferences: Preferences?, at location: StorageLocation, _ what: String)
        async throws
    {
        let loaded = try await storage.load(location)
        expect(
            loaded?.preferences.jsonBytes() == preferences?.jsonBytes(), "\(what) (\(location))",
            expected: text(preferences), actual: text(loaded?.preferences))
    }

    // MARK: - Round trip

    func roundTrip() async throws {
        let shared = Self.layer(.shared)
        expect(
            try await storage.load(shared) == nil, "an absent document", expected: "nil", actual: "a document"
        )
        let version = try await save(StorageConformance.tricky, to: shared, expecting: nil)
        let loaded = try await storage.load(shared)
        expect(
            loaded?.version == version, "the version load returns", expected: "\(version), as save returned",
            actual: loaded.map { "\($0.version)" } ?? "nothing")
        try await expectStored(StorageConformance.tricky, at: shared, "a document loads back byte for byte")

        // Every kind of location, each with its own document.
        let locations: [StorageLocation] = [
            Self.layer(.overrides), Self.layer(.profile("night")),
            Self.layer(.publication("urn:isbn:978-0/x?y")),
            .device, .syncSnapshot(configurable: Self.configurable, .shared),
            .syncSnapshot(configurable: Self.configurable, .publication("urn:isbn:978-0/x?y")),
            .syncState, .syncLease, Self.layer(.shared, of: "conformance-other"),
        ]
        var written: [StorageLocation: Preferences] = [shared: StorageConformance.tricky]
        for (index, location) in locations.enumerated() {
            let document: Preferences = [
                "which": .string(location.description), "index": .number(JSONNumber(index)),
            ]
            try await save(document, to: location, expecting: nil)
            written[location] = document
        }
        for (location, document) in written {
            try await expectStored(document, at: location, "each location keeps its own document")
        }

        // An empty document, and a large one.
        let empty = Self.layer(.publication("empty"))
        try await save(Preferences(), to: empty, expecting: nil)
        try await expectStored(Preferences(), at: empty, "an empty document is a document")
        var large = Preferences()
        for index in 0..<4000 {
            large["key-\(index)"] = .string(String(repeating: "x", count: 40) + "\(index)")
        }
        let big = Self.layer(.publication("large"))
        try await save(large, to: big, expecting: nil)
        try await expectStored(large, at: big, "a large document (250 KB)")
    }

    // MARK: - Versions

    func versions() async throws {
        let location = Self.layer(.profile("versions"))
        let first = try await save(["step": 1], to: location, expecting: nil)
        await expectFailure(.conflict, "saving as new over an existing document") { () throws(StorageError) in
            try await storage.save(["step": 0], to: location, expecting: nil)
        }
        let second = try await save(["step": 2], to: location, expecting: first)
        expect(second != first, "a save changes the version", expected: "not \(first)", actual: "\(second)")
        await expectFailure(.conflict, "saving at a stale version") { () throws(StorageError) in
            try await storage.save(["step": 0], to: location, expecting: first)
        }
        await expectFailure(.conflict, "removing at a stale version") { () throws(StorageError) in
            try await storage.remove(location, expecting: first)
        }
        await expectFailure(.conflict, "removing a document that is not there") { () throws(StorageError) in
            try await storage.remove(Self.layer(.profile("never")), expecting: second)
        }
        try await expectStored(["step": 2], at: location, "conflicts change nothing")

        // Removed and created again, with other contents: no old version comes back.
        try await storage.remove(location, expecting: second)
        expect(
            try await storage.load(location) == nil, "a removed document", expected: "nil",
            actual: "a document")
        let third = try await save(["step": 3], to: location, expecting: nil)
        let fourth = try await save(["step": 4], to: location, expecting: third)
        for old in [first, second] {
            expect(
                third != old && fourth != old, "versions after a removal and a new document",
                expected: "never \(old) again", actual: "\(third), \(fourth)")
        }
        await expectFailure(.conflict, "saving at a version from before the removal") {
            () throws(StorageError) in
            try await storage.save(["step": 0], to: location, expecting: second)
        }
        await expectFailure(.conflict, "removing at a version from before the removal") {
            () throws(StorageError) in
            try await storage.remove(location, expecting: first)
        }
        try await expectStored(["step": 4], at: location, "a stale writer after a removal changes nothing")
    }

    // MARK: - Listing

    func listing() async throws {
        let configurable = Self.configurable
        let existing = try await storage.names(of: .publications, configurable: configurable)
        for id in StorageConformance.publications {
            let location = Self.layer(.publication(id))
            try await save(
                ["id": .string(id)], to: location, expecting: try await storage.load(location)?.version)
        }
        for id in StorageConformance.publications {
            try await expectStored(
                ["id": .string(id)], at: Self.layer(.publication(id)), "publications kept apart")
        }
        let expectedPublications = sorted(StorageConformance.publications + existing)
        let publications = try await storage.names(of: .publications, configurable: configurable)
        expect(
            same(publications, expectedPublications), "publications listed by their identifiers",
            expected: "\(expectedPublications)", actual: "\(publications)")

        // Profiles, and another configurable's, and a snapshot without a document.
        let profiles = try await storage.names(of: .profiles, configurable: configurable)
        try await save(["$name": "Day"], to: Self.layer(.profile("day-2")), expecting: nil)
        try await save(["$name": "Odd"], to: Self.layer(.profile("Odd Id/1")), expecting: nil)
        try await save(
            ["snapshot": true], to: .syncSnapshot(configurable: configurable, .profile("only-a-snapshot")),
            expecting: nil)
        let others = ["conformance-other", "Conformance", "conf_rmance", "conformance/profile", "conf%"]
        for other in others {
            try await save(
                ["$name": .string(other)], to: Self.layer(.profile("of-" + other), of: other), expecting: nil)
            try await save(
                ["book": true], to: Self.layer(.publication("of-" + other), of: other), expecting: nil)
        }
        let expectedProfiles = sorted(profiles + ["day-2", "Odd Id/1"])
        let listedProfiles = try await storage.names(of: .profiles, configurable: configurable)
        expect(
            same(listedProfiles, expectedProfiles), "profiles of this configurable only",
            expected: "\(expectedProfiles)",
            actual: "\(listedProfiles)")
        for other in others {
            let listed = try await storage.names(of: .profiles, configurable: other)
            expect(
                same(listed, ["of-" + other]), "profiles of the configurable \(other) only",
                expected: "[\"of-\(other)\"]", actual: "\(listed)")
            let books = try await storage.names(of: .publications, configurable: other)
            expect(
                same(books, ["of-" + other]), "publications of the configurable \(other) only",
                expected: "[\"of-\(other)\"]", actual: "\(books)")
        }
        let snapshots = try await storage.names(of: .profileSnapshots, configurable: configurable)
        expect(
            snapshots.contains("only-a-snapshot"), "profiles with a sync snapshot",
            expected: "only-a-snapshot listed",
            actual: "\(snapshots)")
        let publicationSnapshots = try await storage.names(
            of: .publicationSnapshots, configurable: configurable)
        expect(
            !publicationSnapshots.contains("book"), "publication snapshots are not publications",
            expected: "no \"book\"", actual: "\(publicationSnapshots)")
        let configurables = try await storage.configurables()
        let expectedConfigurables = sorted([configurable] + others)
        expect(
            Set(expectedConfigurables.map { Array($0.utf8) }).isSubset(
                of: Set(configurables.map { Array($0.utf8) }))
                && same(configurables, sorted(configurables)),
            "configurables listed by their identifiers, sorted",
            expected: "\(expectedConfigurables) among them",
            actual: "\(configurables)")

        // Pages.
        var paged: [String] = []
        var after: String?
        for _ in 0..<(expectedPublications.count + 2) {
            let page = try await storage.names(
                of: .publications, configurable: configurable, after: after, limit: 3)
            expect(page.count <= 3, "a page of at most 3", expected: "≤ 3 identifiers", actual: "\(page)")
            paged += page
            guard page.count == 3, let last = page.last else { break }
            after = last
        }
        expect(
            same(paged, expectedPublications), "pages of 3 make the whole listing",
            expected: "\(expectedPublications)",
            actual: "\(paged)")
        let none = try await storage.names(
            of: .publications, configurable: configurable, after: nil, limit: 0)
        expect(none.isEmpty, "a page of 0", expected: "[]", actual: "\(none)")
        if let middle = expectedPublications.dropFirst(2).first {
            let rest = try await storage.names(
                of: .publications, configurable: configurable, after: middle, limit: nil)
            let expectedRest = Array(
                expectedPublications.drop { !middle.utf8.lexicographicallyPrecedes($0.utf8) })
            expect(
                same(rest, expectedRest), "the identifiers after \(middle)", expected: "\(expectedRest)",
                actual: "\(rest)")
        }
    }

    /// Names without repeats (scalar for scalar: `café` composed and decomposed are two
    /// names), sorted by their UTF-8 bytes.
    private func sorted(_ names: [String]) -> [String] {
        var seen = Set<[UInt8]>()
        return names.filter { seen.insert(Array($0.utf8)).inserted }.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
    }

    /// Whether two lists hold the same names in the same order, byte for byte (`==` on strings
    /// would equate canonically equivalent ones).
    private func same(_ lhs: [String], _ rhs: [String]) -> Bool {
        lhs.map { Array($0.utf8) } == rhs.map { Array($0.utf8) }
    }

    // MARK: - Batch

    func batch() async throws {
        let first = Self.layer(.publication("batch-1"))
        let second = Self.layer(.publication("batch-2"))
        let created = try await storage.commit([
            .save(["n": 1], to: first, expecting: nil), .save(["n": 2], to: second, expecting: nil),
        ])
        expect(created.count == 2, "one version per change", expected: "2", actual: "\(created.count)")
        guard created.count == 2, let one = created[0], let two = created[1] else { return }
        record(one, (["n": 1] as Preferences).jsonBytes(), at: first)
        record(two, (["n": 2] as Preferences).jsonBytes(), at: second)
        let loadedOne = try await storage.load(first)?.version
        expect(
            loadedOne == one, "the versions a batch returns", expected: "\(one)",
            actual: "\(String(describing: loadedOne))")

        await expectFailure(.conflict, "a batch with one stale version") { () throws(StorageError) in
            try await storage.commit([
                .save(["n": 10], to: first, expecting: one),
                .save(["n": 20], to: second, expecting: StorageVersion("stale")),
            ])
        }
        await expectFailure(.conflict, "a batch whose check fails") { () throws(StorageError) in
            try await storage.commit([
                .save(["n": 10], to: first, expecting: one), .verify(second, expecting: nil),
            ])
        }
        await expectFailure(.conflict, "a batch creating a document that exists") { () throws(StorageError) in
            try await storage.commit([
                .remove(first, expecting: one), .save(["n": 20], to: second, expecting: nil),
            ])
        }
        try await expectStored(["n": 1], at: first, "a failed batch changes nothing")
        try await expectStored(["n": 2], at: second, "a failed batch changes nothing")

        let mixed = try await storage.commit([
            .remove(first, expecting: one), .save(["n": 22], to: second, expecting: two),
            .verify(Self.layer(.publication("batch-3")), expecting: nil),
        ])
        expect(
            mixed.count == 3 && mixed[0] == nil && mixed[2] == nil, "a removal's and a check's versions",
            expected: "[nil, version, nil]", actual: "\(mixed)")
        try await expectStored(nil, at: first, "a batch's removal")
        try await expectStored(["n": 22], at: second, "a batch's save")
        guard let current = mixed.count == 3 ? mixed[1] : nil else { return }
        record(current, (["n": 22] as Preferences).jsonBytes(), at: second)

        // A failure of the medium at each step of a two-document batch.
        guard let faults else { return skip("a failure inside a batch") }
        var version = current
        var struck = 0
        for steps in 0..<12 {
            await faults.failWrites(steps)
            do {
                _ = try await storage.commit([
                    .save(["n": .number(JSONNumber(100 + steps))], to: first, expecting: nil),
                    .save(["n": .number(JSONNumber(200 + steps))], to: second, expecting: version),
                ])
                await faults.failWrites(nil)
                try await expectStored(
                    ["n": .number(JSONNumber(100 + steps))], at: first, "a batch that succeeded")
                try await expectStored(
                    ["n": .number(JSONNumber(200 + steps))], at: second, "a batch that succeeded")
                break
            } catch let error as StorageError {
                await faults.failWrites(nil)
                struck += 1
                expect(
                    error.code == .io, "a batch the medium failed at step \(steps + 1)", expected: "io",
                    actual: error.code.rawValue)
                try await expectStored(
                    nil, at: first, "a batch the medium failed at step \(steps + 1) changes nothing")
                try await expectStored(
                    ["n": 22], at: second,
                    "a batch the medium failed at step \(steps + 1) changes nothing")
                guard let reloaded = try await storage.load(second) else { break }
                version = reloaded.version
            }
        }
        expect(
            struck > 0, "the fault hook", expected: "a write failure at the first step", actual: "none struck"
        )
    }

    // MARK: - Corrupt data and io

    func corruptData() async throws {
        guard let faults else { return skip("corrupt data") }
        let location = Self.layer(.publication("damaged"))
        try await save(["theme": "dark"], to: location, expecting: nil)
        for (name, data) in [("not JSON", Data("{\"theme\": da".utf8)), ("an array", Data("[1, 2]".utf8))] {
            try await faults.plant(data, location)
            var version: StorageVersion?
            do {
                let loaded = try await storage.load(location)
                fail(
                    "loading \(name)", expected: "corruptDocument",
                    actual: "a document: \(text(loaded?.preferences))")
            } catch {
                expect(
                    error.code == .corruptDocument, "loading \(name)", expected: "corruptDocument",
                    actual: "\(error.code.rawValue): \(error.message)")
                expect(
                    error.version != nil, "the damaged data's version", expected: "a version", actual: "nil")
                version = error.version
            }
            guard let version else { continue }
            await expectFailure(.conflict, "setting \(name) aside at a stale version") {
                () throws(StorageError) in
                try await storage.quarantine(location, expecting: StorageVersion("stale"), replacement: nil)
            }
            let aside = try await storage.quarantine(
                location, expecting: version, replacement: ["theme": "light"])
            expect(!aside.movedTo.isEmpty, "where \(name) went", expected: "a place", actual: "\"\"")
            try await expectStored(["theme": "light"], at: location, "the replacement of \(name)")
            let loaded = try await storage.load(location)
            expect(
                loaded?.version == aside.version, "the replacement's version",
                expected: "\(String(describing: aside.version))",
                actual: "\(String(describing: loaded?.version))")
        }
    }

    func io() async throws {
        guard let faults else { return skip("io failures") }
        let location = Self.layer(.publication("io"))
        let version = try await save(["theme": "dark"], to: location, expecting: nil)
        await faults.failReads(true)
        do {
            let loaded = try await storage.load(location)
            fail("a load the medium failed", expected: "io", actual: "a result: \(text(loaded?.preferences))")
        } catch {
            expect(error.code == .io, "a load the medium failed", expected: "io", actual: error.code.rawValue)
        }
        await faults.failReads(false)
        await faults.failWrites(0)
        await expectFailure(.io, "a save the medium failed") { () throws(StorageError) in
            try await storage.save(["theme": "light"], to: location, expecting: version)
        }
        await faults.failWrites(nil)
        try await expectStored(["theme": "dark"], at: location, "a failed save changes nothing")
    }

    // MARK: - Concurrency

    func concurrency() async throws {
        let storage = storage
        let location = Self.layer(.publication("concurrent"))
        // Eight writers, each adding its own keys to one document: nothing is lost.
        let writers = 8
        let rounds = 4
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for round in 0..<rounds {
                        for _ in 0..<500 {
                            let current = try? await storage.load(location)
                            var preferences = current?.preferences ?? Preferences()
                            preferences["w\(writer)-\(round)"] = .number(JSONNumber(round))
                            do {
                                _ = try await storage.save(
                                    preferences, to: location, expecting: current?.version)
                                break
                            } catch {
                                continue
                            }
                        }
                    }
                }
            }
        }
        let merged = try await storage.load(location)?.preferences ?? Preferences()
        let missing = (0..<writers).flatMap { writer in (0..<rounds).map { "w\(writer)-\($0)" } }.filter {
            merged[$0] == nil
        }
        expect(
            missing.isEmpty, "keys of 8 concurrent writers", expected: "all \(writers * rounds)",
            actual: "\(missing.count) lost: \(missing.prefix(6))")

        // Eight writers at the same version, and eight creators of one document, released at
        // once: exactly one wins, round after round (a check and a write that are two steps
        // lose only when writers interleave, so the rounds give them every chance).
        for round in 0..<12 {
            guard let base = try await storage.load(location)?.version else { return }
            let gate = StartingGate(count: writers)
            let wins = await withTaskGroup(of: Bool.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        await gate.arrive()
                        return
                            (try? await storage.save(
                                ["winner": .number(JSONNumber(writer)), "round": .number(JSONNumber(round))],
                                to: location, expecting: base)) != nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let created = Self.layer(.publication("created-\(round)"))
            let creators = StartingGate(count: writers)
            let creations = await withTaskGroup(of: Bool.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        await creators.arrive()
                        return
                            (try? await storage.save(
                                ["creator": .number(JSONNumber(writer))], to: created, expecting: nil)) != nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let saves = expect(
                wins == 1, "8 concurrent saves at one version (round \(round + 1))", expected: "1 success",
                actual: "\(wins)")
            let creates = expect(
                creations == 1, "8 concurrent creations of one document (round \(round + 1))",
                expected: "1 success", actual: "\(creations)")
            if !saves || !creates { break }
        }

        // Eight stores, as eight server instances, editing different keys of shared.
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let store = PreferencesStore<EPUB>(storage: storage)
                    _ = try? await store.write(["store-\(writer)": .bool(true)], to: .shared)
                }
            }
        }
        let shared =
            try await storage.load(.layer(configurable: EPUB.identifier, .shared))?.preferences
            ?? Preferences()
        let lost = (0..<writers).filter { shared["store-\($0)"] == nil }
        expect(lost.isEmpty, "keys of 8 stores writing at once", expected: "all 8", actual: "lost \(lost)")
    }

    // MARK: - Export and removal

    func exportAndRemoval() async throws {
        let exported = try await storage.export()
        let layers = exported.map(\.location)
        let wanted: [StorageLocation] = [
            Self.layer(.shared), Self.layer(.overrides), Self.layer(.profile("night")),
            Self.layer(.publication("urn:isbn:978-0/x?y")), Self.layer(.shared, of: "conformance-other"),
            Self.layer(.profile("of-Conformance"), of: "Conformance"),
        ]
        for location in wanted {
            expect(layers.contains(location), "export", expected: "\(location) exported", actual: "missing")
        }
        for location in layers {
            if case .layer = location { continue }
            fail("export", expected: "layer documents only", actual: "\(location)")
        }
        if let document = exported.first(where: { $0.location == Self.layer(.shared) }) {
            expect(
                document.document.preferences.jsonBytes() == StorageConformance.tricky.jsonBytes(),
                "an exported document",
                expected: text(StorageConformance.tricky), actual: text(document.document.preferences))
        }
        try await storage.removeAll()
        let left = try await storage.export()
        expect(left.isEmpty, "export after removeAll", expected: "nothing", actual: "\(left.map(\.location))")
        let configurables = try await storage.configurables()
        expect(
            configurables.isEmpty, "configurables after removeAll", expected: "none",
            actual: "\(configurables)")
        for location in [
            StorageLocation.device, .syncState, .syncLease,
            .syncSnapshot(configurable: Self.configurable, .shared),
        ] {
            expect(
                try await storage.load(location) == nil, "\(location) after removeAll", expected: "nil",
                actual: "a document")
        }
        // Versions never repeat after a removal of everything.
        try await save(["after": "removal"], to: Self.layer(.shared), expecting: nil)
        try await save(["after": "removal"], to: Self.layer(.profile("versions")), expecting: nil)
    }

    private func cleanUp() async {
        check = "clean-up"
        do {
            try await storage.removeAll()
            let left = try await storage.export()
            expect(
                left.isEmpty, "what the suite wrote is removed", expected: "nothing",
                actual: "\(left.map(\.location))")
        } catch {
            fail("removing what the suite wrote", expected: "no error", actual: "\(error)")
        }
    }
}

/// Holds tasks until `count` of them arrived, then lets them all go at once.
actor StartingGate {
    private let count: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    func arrive() async {
        if waiting.count + 1 >= count {
            for continuation in waiting { continuation.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
