import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension StorageConformanceRun {
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
        try await save(
            ["snapshot": true], to: .syncSnapshot(configurable: configurable, .profile("only-a-snapshot")),
            expecting: nil)
        let others = ["conformance-other", "Conformance", "conf_rmance", "conformance/profile", "conf%"]
        for other in others {
            try await save(
                ["$name": .string(other)], to: Self.layer(.profile("of-other"), of: other), expecting: nil)
            try await save(
                ["book": true], to: Self.layer(.publication("of-" + other), of: other), expecting: nil)
        }
        let expectedProfiles = sorted(profiles + ["day-2"])
        let listedProfiles = try await storage.names(of: .profiles, configurable: configurable)
        expect(
            same(listedProfiles, expectedProfiles), "profiles of this configurable only",
            expected: "\(expectedProfiles)",
            actual: "\(listedProfiles)")
        for other in others {
            let listed = try await storage.names(of: .profiles, configurable: other)
            expect(
                same(listed, ["of-other"]), "profiles of the configurable \(other) only",
                expected: "[\"of-other\"]", actual: "\(listed)")
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

        // Device classes, apart from profiles, and this device's layer, which no listing names
        // (Specs/Store.md §1.4).
        let classes = try await storage.names(of: .classes, configurable: configurable)
        try await save(["fontSize": 1.6], to: Self.layer(.deviceClass("eink")), expecting: nil)
        try await save(
            ["snapshot": true], to: .syncSnapshot(configurable: configurable, .deviceClass("phone")),
            expecting: nil)
        try await save(["lineHeight": 1.8], to: Self.layer(.device), expecting: nil)
        try await expectStored(["lineHeight": 1.8], at: Self.layer(.device), "this device's layer kept")
        let listedClasses = try await storage.names(of: .classes, configurable: configurable)
        expect(
            same(listedClasses, sorted(classes + ["eink"])), "device classes listed by their ids",
            expected: "\(sorted(classes + ["eink"]))", actual: "\(listedClasses)")
        let classSnapshots = try await storage.names(of: .classSnapshots, configurable: configurable)
        expect(
            classSnapshots.contains("phone"), "device classes with a sync snapshot",
            expected: "phone listed", actual: "\(classSnapshots)")
        let profilesNow = try await storage.names(of: .profiles, configurable: configurable)
        expect(
            !profilesNow.contains("eink") && !listedClasses.contains("day-2"),
            "classes and profiles listed apart",
            expected: "no class among profiles, no profile among classes",
            actual: "profiles \(profilesNow), classes \(listedClasses)")
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
    func sorted(_ names: [String]) -> [String] {
        var seen = Set<[UInt8]>()
        return names.filter { seen.insert(Array($0.utf8)).inserted }.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
    }

    /// Whether two lists hold the same names in the same order, byte for byte (`==` on strings
    /// would equate canonically equivalent ones).
    func same(_ lhs: [String], _ rhs: [String]) -> Bool {
        lhs.map { Array($0.utf8) } == rhs.map { Array($0.utf8) }
    }
}
