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
/// - **identifiers**: what no storage holds is refused, never cut or stored where sync cannot
///   see it (Specs/Sync.md §1): an identifier holding U+0000 (`invalidIdentifier`, on save, load,
///   removal and listing), a profile id that is not replica-style (`invalidIdentifier`), a key
///   holding U+0000 (`invalidKey`); nothing is stored by a refused save.
/// - **batch**: a batch is applied whole or not at all: a stale version or check anywhere in it,
///   or a failure of the medium at any step, changes nothing.
/// - **batch versions**: a removal or a check inside a larger batch is held to its own version:
///   a stale one, another document's, or an outdated one fails the whole batch.
/// - **prefixes and kinds**: removing a document leaves those whose names it begins (or that
///   begin it) and its sync snapshot; each kind of listing lists its own kind only.
/// - **pages and configurables**: a page after a name removed since (or never there) goes on
///   after it; a configurable whose last document is removed is no longer listed.
/// - **export of every configurable**: whatever its name (spaces, `%`, `/`, `:`, non-ASCII).
/// - **failed listings**: a listing, a listing of configurables or an export the medium failed
///   is `io`, never an empty answer.
/// - **set aside**: what `quarantine` sets aside is the damaged bytes, whole (with
///   ``StorageFaults/readSetAside``).
/// - every conflict is transient; the other refusals are not.
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
    ///   - keepsJournal: Whether the storage keeps a change journal (Specs/Store.md §8.13): `false`
    ///     reports the journal's checks as skipped when it records nothing, instead of failing
    ///     them.
    /// - Returns: One line per failure, `[check] what: expected …, got …`.
    public static func failures(
        of storage: some PreferencesStorage, faults: StorageFaults? = nil, keepsJournal: Bool = true
    ) async -> [String] {
        let run = StorageConformanceRun(storage: storage, faults: faults, keepsJournal: keepsJournal)
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
    /// Whether the storage is expected to keep a change journal.
    let keepsJournal: Bool
    private(set) var failures: [String] = []
    /// Every version a location had, with the compact JSON it held then.
    var seen: [StorageLocation: [StorageVersion: [UInt8]]] = [:]
    /// The check running, named in its failures.
    var check = "setup"

    init(storage: Storage, faults: StorageFaults?, keepsJournal: Bool = true) {
        self.storage = storage
        self.faults = faults
        self.keepsJournal = keepsJournal
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
        await run("identifiers") { try await self.identifiers() }
        await run("batch") { try await self.batch() }
        await run("batch versions") { try await self.batchVersions() }
        await run("prefixes and kinds") { try await self.prefixesAndKinds() }
        await run("pages and configurables") { try await self.pagesAndConfigurables() }
        await run("export of every configurable") { try await self.exportOfEveryConfigurable() }
        await run("corrupt data") { try await self.corruptData() }
        await run("io") { try await self.io() }
        await run("failed listings") { try await self.failedListings() }
        await run("set aside") { try await self.setAside() }
        await run("concurrency") { try await self.concurrency() }
        await run("export and removal") { try await self.exportAndRemoval() }
        await run("journal") { try await self.journal() }
        await cleanUp()
    }

    func run(_ name: String, _ body: () async throws -> Void) async {
        check = name
        do {
            try await body()
        } catch {
            fail("an unexpected error", expected: "none", actual: "\(error)")
        }
        await faults?.failWrites(nil)
        await faults?.failReads(false)
    }

    func fail(_ what: String, expected: String, actual: String) {
        failures.append("[\(check)] \(what): expected \(expected), got \(actual)")
    }

    func skip(_ what: String) {
        failures.append("skipped: [\(check)] \(what) needs StorageFaults")
    }

    func skipJournal() {
        failures.append("skipped: [journal] the storage keeps no change journal")
    }

    /// Records a check's outcome; `false` when it failed.
    @discardableResult
    func expect(
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

    func record(_ version: StorageVersion, _ bytes: [UInt8], at location: StorageLocation) {
        if let earlier = seen[location]?[version], earlier != bytes {
            fail(
                "a version of \(location) reused for other contents", expected: "a new version",
                actual: "\(version) again, for \(String(decoding: bytes.prefix(80), as: UTF8.self))")
        }
        seen[location, default: [:]][version] = bytes
    }

    /// Expects an operation to fail with a code, and reports what it did instead.
    func expectFailure<T>(
        _ code: StorageError.Code, _ what: String, _ body: () async throws(StorageError) -> T
    ) async {
        do {
            let result = try await body()
            fail(what, expected: code.rawValue, actual: "success (\(result))")
        } catch {
            expect(
                error.code == code, what, expected: code.rawValue,
                actual: error.code.rawValue + ": \(error.message)")
            // A conflict is worth trying again (load and retry); nothing else here is.
            if error.code == .conflict {
                expect(
                    error.isTransient, "\(what): a conflict is transient", expected: "true", actual: "false")
            } else if code != .io {
                expect(
                    !error.isTransient, "\(what): \(error.code.rawValue) is not transient", expected: "false",
                    actual: "true")
            }
        }
    }

    func text(_ preferences: Preferences?) -> String {
        preferences.map { String(decoding: $0.jsonBytes().prefix(160), as: UTF8.self) } ?? "nothing"
    }

    /// Expects a location to hold exactly `preferences` (compared byte for byte as compact JSON).
    func expectStored(_ preferences: Preferences?, at location: StorageLocation, _ what: String)
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
}
