import Foundation
import ReadingPreferences
import ReadingPreferencesStore

extension StorageConformanceRun {
    // MARK: - Identifiers

    /// What no storage may hold is refused, never cut at U+0000 nor stored where sync will not
    /// see it; the identifiers it is mistaken for are left alone.
    func identifiers() async throws {
        let configurable = Self.configurable
        // The identifiers a storage that cuts at U+0000 would confuse with the refused ones.
        let plain = Self.layer(.publication("n"))
        let plainVersion = try await save(["kept": true], to: plain, expecting: nil)
        let shared = try await storage.load(Self.layer(.shared))

        let cut: [(String, StorageLocation)] = [
            ("a publication identifier", Self.layer(.publication("n\u{0}b"))),
            ("a publication identifier starting with it", Self.layer(.publication("\u{0}"))),
            ("a configurable", Self.layer(.shared, of: configurable + "\u{0}x")),
            (
                "a snapshot's publication identifier",
                .syncSnapshot(configurable: configurable, .publication("n\u{0}b"))
            ),
        ]
        for (what, location) in cut {
            await expectFailure(.invalidIdentifier, "saving \(what) with U+0000") {
                () async throws(StorageError) in
                try await storage.save(["cut": true], to: location, expecting: nil)
            }
            await expectFailure(.invalidIdentifier, "loading \(what) with U+0000") {
                () async throws(StorageError) in
                try await storage.load(location)
            }
            await expectFailure(.invalidIdentifier, "a batch naming \(what) with U+0000") {
                () async throws(StorageError) in
                try await storage.commit([.verify(location, expecting: nil)])
            }
        }
        await expectFailure(.invalidIdentifier, "listing a configurable with U+0000") {
            () async throws(StorageError) in
            try await storage.names(
                of: .publications, configurable: configurable + "\u{0}x", after: nil, limit: nil)
        }
        for id in [
            "Bad Id", "a/b", "\u{E9}t\u{E9}", "", "-night", String(repeating: "a", count: 65), "night\u{0}",
        ] {
            await expectFailure(.invalidIdentifier, "saving a profile with the id \(id.debugDescription)") {
                () async throws(StorageError) in
                try await storage.save(["$name": "Odd"], to: Self.layer(.profile(id)), expecting: nil)
            }
        }
        await expectFailure(.invalidKey, "saving a key with U+0000") { () async throws(StorageError) in
            try await storage.save(
                ["k\u{0}x": 1, "k\u{0}y": 2], to: Self.layer(.shared), expecting: shared?.version)
        }
        // A batch with one refused document writes nothing of the others.
        await expectFailure(.invalidKey, "a batch with a key holding U+0000") {
            () async throws(StorageError) in
            try await storage.commit([
                .save(["changed": true], to: plain, expecting: plainVersion),
                .save(["theme\u{0}x": "sepia"], to: Self.layer(.publication("other")), expecting: nil),
            ])
        }
        try await expectStored(["kept": true], at: plain, "a refused batch changes nothing")
        try await expectStored(nil, at: Self.layer(.publication("other")), "a refused batch creates nothing")
        try await expectStored(shared?.preferences, at: Self.layer(.shared), "a refused key changes nothing")
        let listed = try await storage.names(of: .publications, configurable: configurable)
        expect(
            !listed.contains(where: { StorageLocation.holdsNUL($0) }) && listed.contains("n"),
            "publications after refused identifiers", expected: "n listed, nothing with U+0000",
            actual: "\(listed.map(\.debugDescription))")
        let profiles = try await storage.names(of: .profiles, configurable: configurable)
        expect(
            profiles.allSatisfy(ReplicaID.isValid), "profiles after refused ids",
            expected: "replica-style ids only",
            actual: "\(profiles)")
        try await storage.remove(plain, expecting: plainVersion)
    }
}
