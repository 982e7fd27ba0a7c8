import Foundation
import ReadingPreferences
import ReadingPreferencesStore

// The checks where storages go wrong at the edges of what the other checks cover: versions of
// removals and checks inside larger batches, names that prefix others, kinds of listing, pages
// that meet a removal, configurables that empty, listings and exports that fail or miss, and
// damaged bytes kept whole. Each kind of mistake meets more than one check.

extension StorageConformanceRun {
    // MARK: - Removals and checks inside batches

    func batchVersions() async throws {
        let kept = Self.layer(.publication("kept"))
        let doomed = Self.layer(.publication("doomed"))
        let fresh = Self.layer(.publication("fresh"))
        let keptVersion = try await save(["n": 1], to: kept, expecting: nil)
        let doomedFirst = try await save(["n": 1], to: doomed, expecting: nil)
        let doomedVersion = try await save(["n": 2], to: doomed, expecting: doomedFirst)

        // A removal at a stale version, among other changes, fails the batch whole.
        await expectFailure(.conflict, "a batch removing at a stale version after a save") {
            () async throws(StorageError) in
            try await storage.commit([
                .save(["n": 10], to: kept, expecting: keptVersion), .remove(doomed, expecting: doomedFirst),
            ])
        }
        await expectFailure(.conflict, "a batch removing at a stale version before a creation") {
            () async throws(StorageError) in
            try await storage.commit([
                .remove(doomed, expecting: doomedFirst), .save(["n": 1], to: fresh, expecting: nil),
            ])
        }
        await expectFailure(.conflict, "a batch removing at another document's version") {
            () async throws(StorageError) in
            try await storage.commit([
                .save(["n": 11], to: kept, expecting: keptVersion), .remove(doomed, expecting: keptVersion),
            ])
        }
        try await expectStored(["n": 1], at: kept, "a batch with a stale removal saves nothing")
        try await expectStored(["n": 2], at: doomed, "a stale removal in a batch removes nothing")
        try await expectStored(nil, at: fresh, "a batch with a stale removal creates nothing")

        // A check at an outdated version is not a check at the current one.
        await expectFailure(.conflict, "a check alone at an outdated version") {
            () async throws(StorageError) in
            try await storage.commit([.verify(doomed, expecting: doomedFirst)])
        }
        await expectFailure(.conflict, "a batch whose check is at an outdated version") {
            () async throws(StorageError) in
            try await storage.commit([
                .save(["n": 1], to: fresh, expecting: nil), .verify(doomed, expecting: doomedFirst),
            ])
        }
        await expectFailure(.conflict, "a check that a present document is absent") {
            () async throws(StorageError) in
            try await storage.commit([
                .save(["n": 12], to: kept, expecting: keptVersion), .verify(doomed, expecting: nil),
            ])
        }
        try await expectStored(nil, at: fresh, "a batch whose check failed creates nothing")
        try await expectStored(["n": 1], at: kept, "a batch whose check failed saves nothing")
        let checked = try await storage.commit([
            .save(["n": 3], to: kept, expecting: keptVersion), .verify(doomed, expecting: doomedVersion),
        ])
        try await expectStored(["n": 3], at: kept, "a batch whose check holds")
        if let version = checked.first ?? nil {
            record(version, (["n": 3] as Preferences).jsonBytes(), at: kept)
        }
        try await storage.remove(doomed, expecting: doomedVersion)
        try await expectStored(nil, at: doomed, "a removal at the current version")
    }

    // MARK: - Names that prefix others, and kinds of listing

    func prefixesAndKinds() async throws {
        let configurable = Self.configurable
        let books = ["pre", "pre-fix", "prefix", "pre/x", "pre.json", "PRE"]
        var versions: [String: StorageVersion] = [:]
        for id in books {
            versions[id] = try await save(
                ["id": .string(id)], to: Self.layer(.publication(id)), expecting: nil)
        }
        let profiles = ["pre", "pre-2", "pre2"]
        var profileVersions: [String: StorageVersion] = [:]
        for id in profiles {
            profileVersions[id] = try await save(
                ["$name": .string(id)], to: Self.layer(.profile(id)), expecting: nil)
        }
        try await save(
            ["snapshot": true], to: .syncSnapshot(configurable: configurable, .publication("pre")),
            expecting: nil)
        try await save(
            ["snapshot": true], to: .syncSnapshot(configurable: configurable, .publication("snapshot-only")),
            expecting: nil)

        // Removing one document leaves every other whose name it begins, or that begins it.
        if let version = versions["pre"] {
            try await storage.remove(Self.layer(.publication("pre")), expecting: version)
        }
        for id in books.dropFirst() {
            try await expectStored(
                ["id": .string(id)], at: Self.layer(.publication(id)), "removing the book pre leaves \(id)")
        }
        if let version = profileVersions["pre"] {
            try await storage.remove(Self.layer(.profile("pre")), expecting: version)
        }
        for id in profiles.dropFirst() {
            try await expectStored(
                ["$name": .string(id)], at: Self.layer(.profile(id)), "removing the profile pre leaves \(id)")
        }
        try await expectStored(
            ["snapshot": true], at: .syncSnapshot(configurable: configurable, .publication("pre")),
            "removing a document leaves its sync snapshot")

        // Each kind of listing lists its own kind only.
        let publications = try await storage.names(of: .publications, configurable: configurable)
        expect(
            !publications.contains("pre-2") && !publications.contains("snapshot-only")
                && !publications.contains("pre"),
            "publications list neither profiles, nor snapshots, nor removed books",
            expected: "no pre-2, snapshot-only or pre", actual: "\(publications)")
        let profileNames = try await storage.names(of: .profiles, configurable: configurable)
        expect(
            !profileNames.contains("prefix") && !profileNames.contains("pre"),
            "profiles list neither publications nor removed profiles", expected: "no prefix or pre",
            actual: "\(profileNames)")
        let snapshots = try await storage.names(of: .publicationSnapshots, configurable: configurable)
        expect(
            same(
                snapshots.filter { $0.hasPrefix("pre") || $0 == "snapshot-only" }, ["pre", "snapshot-only"]),
            "publication snapshots list snapshots only", expected: "[pre, snapshot-only]",
            actual: "\(snapshots)")
        let profileSnapshots = try await storage.names(of: .profileSnapshots, configurable: configurable)
        expect(
            !profileSnapshots.contains("pre-2") && !profileSnapshots.contains("snapshot-only"),
            "profile snapshots list neither profiles nor publication snapshots", expected: "no pre-2",
            actual: "\(profileSnapshots)")
        for id in books.dropFirst() {
            if let version = try await storage.load(Self.layer(.publication(id)))?.version {
                try await storage.remove(Self.layer(.publication(id)), expecting: version)
            }
        }
    }

    // MARK: - Pages that meet a removal, configurables that empty

    func pagesAndConfigurables() async throws {
        let configurable = "conformance-pages"
        let names = ["a", "b", "c", "d", "e"]
        var versions: [String: StorageVersion] = [:]
        for id in names {
            versions[id] = try await save(
                ["id": .string(id)], to: Self.layer(.publication(id), of: configurable), expecting: nil)
        }
        expect(
            try await storage.configurables().contains(configurable), "a configurable with books",
            expected: "listed", actual: "missing")
        let first = try await storage.names(
            of: .publications, configurable: configurable, after: nil, limit: 2)
        expect(same(first, ["a", "b"]), "the first page", expected: "[a, b]", actual: "\(first)")
        // The last name of the page is removed before the next page is asked for.
        if let version = versions["b"] {
            try await storage.remove(Self.layer(.publication("b"), of: configurable), expecting: version)
        }
        let next = try await storage.names(
            of: .publications, configurable: configurable, after: "b", limit: 2)
        expect(
            same(next, ["c", "d"]), "the page after a name removed since", expected: "[c, d]",
            actual: "\(next)")
        let between = try await storage.names(
            of: .publications, configurable: configurable, after: "cc", limit: nil)
        expect(
            same(between, ["d", "e"]), "the page after a name that never existed", expected: "[d, e]",
            actual: "\(between)")

        // A configurable whose last document goes is no longer listed.
        for id in names where id != "b" {
            if let version = versions[id] {
                try await storage.remove(Self.layer(.publication(id), of: configurable), expecting: version)
            }
        }
        let afterBooks = try await storage.configurables()
        expect(
            !afterBooks.contains(configurable), "a configurable whose books were all removed",
            expected: "not listed", actual: "\(afterBooks)")
        let gone = "conformance-gone"
        let shared = try await save(["x": 1], to: Self.layer(.shared, of: gone), expecting: nil)
        let snapshot = try await save(
            ["entries": [:]], to: .syncSnapshot(configurable: gone, .shared), expecting: nil)
        expect(
            try await storage.configurables().contains(gone), "a configurable with a document",
            expected: "listed",
            actual: "missing")
        _ = try await storage.commit([
            .remove(Self.layer(.shared, of: gone), expecting: shared),
            .remove(.syncSnapshot(configurable: gone, .shared), expecting: snapshot),
        ])
        let afterShared = try await storage.configurables()
        expect(
            !afterShared.contains(gone), "a configurable whose document and snapshot were removed",
            expected: "not listed", actual: "\(afterShared)")
    }

    // MARK: - Failed listings, damaged bytes kept

    func failedListings() async throws {
        guard let faults else { return skip("failed listings") }
        try await save(["listed": true], to: Self.layer(.publication("listed")), expecting: nil)
        await faults.failReads(true)
        await expectFailure(.io, "a listing the medium failed") { () async throws(StorageError) in
            try await storage.names(
                of: .publications, configurable: Self.configurable, after: nil, limit: nil)
        }
        await expectFailure(.io, "a listing of configurables the medium failed") {
            () async throws(StorageError) in
            try await storage.configurables()
        }
        await expectFailure(.io, "an export the medium failed") { () async throws(StorageError) in
            try await storage.export().count
        }
        await faults.failReads(false)
        let listed = try await storage.names(of: .publications, configurable: Self.configurable)
        expect(
            listed.contains("listed"), "a listing once the medium is back", expected: "listed",
            actual: "\(listed)")
    }

    func setAside() async throws {
        guard let faults else { return skip("damaged bytes set aside") }
        guard let read = faults.readSetAside else { return skip("damaged bytes set aside (readSetAside)") }
        let location = Self.layer(.publication("kept-aside"))
        try await save(["theme": "dark"], to: location, expecting: nil)
        for (name, bytes) in [("not JSON", "{\"theme\": da\u{7F}"), ("an array", "[1, 2, {\"x\": \"é\"}]")] {
            let data = Data(bytes.utf8)
            try await faults.plant(data, location)
            var version: StorageVersion?
            do {
                _ = try await storage.load(location)
            } catch {
                version = error.version
            }
            guard let version else {
                fail("loading \(name)", expected: "corruptDocument with a version", actual: "none")
                continue
            }
            let aside = try await storage.quarantine(
                location, expecting: version, replacement: ["theme": "light"])
            let kept = try await read(aside.movedTo)
            expect(
                kept == data, "\(name) set aside whole", expected: bytes,
                actual: kept.map { String(decoding: $0, as: UTF8.self) } ?? "nothing at \(aside.movedTo)")
        }
    }

    // MARK: - Exports of every configurable

    func exportOfEveryConfigurable() async throws {
        let names = ["Conformance Export", "conf%ort", "conf/ort", "ÉXPORT", "export:1"]
        for name in names {
            try await save(["c": .string(name)], to: Self.layer(.shared, of: name), expecting: nil)
            try await save(
                ["c": .string(name)], to: Self.layer(.publication("b/\(name)"), of: name), expecting: nil)
        }
        let exported = try await storage.export()
        for name in names {
            for location in [Self.layer(.shared, of: name), Self.layer(.publication("b/\(name)"), of: name)] {
                let document = exported.first { $0.location == location }
                expect(document != nil, "export", expected: "\(location) exported", actual: "missing")
                expect(
                    document.map { $0.document.preferences["c"] == .string(name) } ?? true,
                    "an exported document of \(name)", expected: "its own contents",
                    actual: text(document?.document.preferences))
            }
        }
    }
}
