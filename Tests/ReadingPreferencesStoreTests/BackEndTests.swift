import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// Issue 21: what a reading back end needs from the library, each item as the new user met it.
@Suite("A back end's needs: atomic conditional edits, honest ETags, validated documents")
struct BackEndTests {
    static let book = "urn:isbn:978-0-00-000000-1"

    /// A store with a shared and a publication document, as a request's store on the storage.
    static func seeded(_ storage: any PreferencesStorage) async throws -> PreferencesStore<EPUB> {
        let store = PreferencesStore<EPUB>(storage: storage)
        try await store.apply(.set(key: "fontSize", value: 1.2), publication: book)
        try await store.apply(.set(key: "readingProgression", value: "rtl"), publication: book)
        try await store.apply(
            .set(key: "theme", value: "sepia"), publication: "another book", to: .publication("another book"))
        return store
    }

    /// Every document's compact JSON, by location.
    static func contents(_ storage: any PreferencesStorage) async throws -> [String: String] {
        var result: [String: String] = [:]
        for document in try await storage.export() {
            result[document.location.description] = document.document.preferences.jsonString()
        }
        return result
    }

    // MARK: - Item 1: atomic conditional writes

    @Test(
        "8 concurrent conditional edits with the same ETag: one succeeds, 7 fail, nothing else changes",
        arguments: StorageKindUnderTest.allCases)
    func concurrentConditionalEdits(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        let setup = try await Self.seeded(storage)
        let etag = try await setup.fingerprints(for: Self.book).settingsETag
        let before = try await Self.contents(storage)

        // Each edit touches two documents: shared (fontSize) and the book's (readingProgression).
        let outcomes = await withTaskGroup(of: Result<[StoredChange], StorageError>?.self) { group in
            for request in 0..<8 {
                group.addTask {
                    // One store per request, as a server makes them.
                    let store = PreferencesStore<EPUB>(storage: storage)
                    do {
                        let changes = try await store.apply(
                            [
                                .set(key: "fontSize", value: .number(JSONNumber(1.3 + Double(request) / 10))),
                                .set(key: "readingProgression", value: "ltr"),
                            ], publication: Self.book, ifMatch: etag)
                        return .success(changes)
                    } catch let error as StorageError {
                        return .failure(error)
                    } catch {
                        return nil
                    }
                }
            }
            var all: [Result<[StoredChange], StorageError>?] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let winners = outcomes.compactMap { try? $0?.get() }
        let refused = outcomes.compactMap { outcome -> StorageError? in
            guard case .failure(let error)? = outcome else { return nil }
            return error
        }
        #expect(winners.count == 1)
        #expect(refused.count == 7)
        #expect(refused.allSatisfy { $0.code == .preconditionFailed }, "\(refused.map(\.code))")

        // Exactly the winner's changes were stored, in both documents, and nothing else.
        let winner = try #require(winners.first)
        #expect(Set(winner.map(\.key)) == ["fontSize", "readingProgression"])
        var expected = before
        for change in winner {
            let location = StorageLocation.layer(configurable: EPUB.identifier, change.layer).description
            var document = try Preferences(json: expected[location] ?? "{}")
            document[change.key] = change.newValue
            expected[location] = document.jsonString()
        }
        #expect(try await Self.contents(storage) == expected)
        _ = folder
    }

    @Test("a stale ETag is refused and a current one accepted; another book's edit does not make it stale")
    func conditionalEditRules() async throws {
        let storage = InMemoryStorage()
        let store = try await Self.seeded(storage)
        let fingerprints = try await store.fingerprints(for: Self.book)
        // Another book's document feeds nothing of this book.
        try await store.apply(
            .set(key: "theme", value: "dark"), publication: "another book", to: .publication("another book"))
        #expect(try await store.fingerprints(for: Self.book) == fingerprints)
        // The stored fingerprint works as well as the settings one, quoted or not, weak or not.
        try await store.apply(
            [.increment(key: "fontSize")], publication: Self.book, ifMatch: "W/" + fingerprints.storedETag)
        await #expect {
            try await store.apply(
                [.increment(key: "fontSize")], publication: Self.book, ifMatch: fingerprints.stored)
        } throws: { ($0 as? StorageError)?.code == .preconditionFailed }
        let current = try await store.fingerprints(for: Self.book)
        try await store.edit(publication: Self.book, ifMatch: current.settings) {
            try $0.decrement(.fontSize)
        }
        // `*` matches any state; a rejected edit under a matching ETag writes nothing.
        try await store.apply([.set(key: "theme", value: "dark")], publication: Self.book, ifMatch: "*")
        let settled = try await Self.contents(storage)
        await #expect(throws: PreferenceError.self) {
            try await store.apply(
                [.set(key: "theme", value: "sepia"), .set(key: "fontSize", value: "huge")],
                publication: Self.book,
                ifMatch: "*")
        }
        #expect(try await Self.contents(storage) == settled)
    }

    // MARK: - Item 2: an edit never half-saves

    @Test(
        "a failure at the second document of a two-document edit changes neither",
        arguments: ["files", "memory", "defaults"])
    func twoDocumentEditFailsWhole(kind: String) async throws {
        let folder = try TemporaryFolder()
        let plan: StorageFaultPlan
        let storage: any PreferencesStorage
        switch kind {
        case "files":
            plan = StorageFaultPlan()
            storage = FileStorage(root: folder.url, faults: plan)
        case "memory":
            let memory = InMemoryStorage()
            plan = memory.faults
            storage = memory
        default:
            let defaults = try #require(UserDefaults(suiteName: "BackEndTests.\(UUID().uuidString)"))
            let userDefaults = UserDefaultsStorage(defaults: defaults)
            plan = userDefaults.faults
            storage = userDefaults
        }
        let store = try await Self.seeded(storage)
        let before = try await Self.contents(storage)
        plan.arm(after: 1)
        await #expect {
            try await store.edit(publication: Self.book) { editor in
                try editor.set(.fontSize, 1.5)  // shared
                try editor.set(.readingProgression, .ltr)  // the book's document
            }
        } throws: { ($0 as? StorageError)?.code == .io }
        #expect(!plan.isArmed, "the failure struck")
        #expect(try await Self.contents(storage) == before)
        // The store's own view is what is stored.
        let fresh = PreferencesStore<EPUB>(storage: storage)
        #expect(try await store.preferences(for: Self.book) == fresh.preferences(for: Self.book))
        // And the same edit succeeds once the medium is back, both documents together.
        try await store.edit(publication: Self.book) { editor in
            try editor.set(.fontSize, 1.5)
            try editor.set(.readingProgression, .ltr)
        }
        let after = try await PreferencesStore<EPUB>(storage: storage).preferences(for: Self.book)
        #expect(after["fontSize"] == 1.5 && after["readingProgression"] == "ltr")
    }

    // MARK: - Item 3: honest fingerprints

    @Test("any change of what is stored changes both fingerprints, even one that resolves the same")
    func fingerprintsFollowStoredData() async throws {
        let storage = InMemoryStorage()
        let store = try await Self.seeded(storage)
        let first = try await store.state(for: Self.book)
        // An unknown key (a newer app's): the resolved settings do not change, the ETags do.
        try await store.write(["pageTurnAnimation": "curl"], to: .shared)
        let second = try await store.state(for: Self.book)
        #expect(second.resolved.fingerprint == first.resolved.fingerprint)
        #expect(second.fingerprints.stored != first.fingerprints.stored)
        #expect(second.fingerprints.settings != first.fingerprints.settings)
        // A number written otherwise (1.2 → 1.20).
        try await store.write(["fontSize": .number(try #require(JSONNumber(text: "1.20")))], to: .shared)
        let third = try await store.state(for: Self.book)
        #expect(third.resolved.fingerprint == first.resolved.fingerprint)
        #expect(third.fingerprints.stored != second.fingerprints.stored)
        // The same stored state read by another store (another server instance): the same tags.
        let other = PreferencesStore<EPUB>(storage: storage)
        #expect(try await other.fingerprints(for: Self.book) == third.fingerprints)
        // The settings fingerprint depends on the publication context; the stored one does not.
        let arabic = try await store.fingerprints(for: Self.book, context: arabicBook)
        #expect(arabic.stored == third.fingerprints.stored)
        #expect(arabic.settings != third.fingerprints.settings)
        // A profile switch changes what feeds the book.
        let profile = try await store.createProfile(named: "Night")
        try await store.activateProfile(profile.id)
        #expect(try await store.fingerprints(for: Self.book).stored != third.fingerprints.stored)
    }

    @Test("an ETag header matches by either fingerprint, in any of its forms")
    func etagMatching() {
        let fingerprints = PreferencesFingerprints(stored: "aaa", settings: "bbb")
        for header in ["aaa", "\"aaa\"", "W/\"bbb\"", "\"zzz\", \"bbb\"", "*", " \"aaa\" "] {
            #expect(fingerprints.matches(header), "\(header)")
        }
        for header in ["", "\"aa\"", "W/\"ccc\"", "\"aaa", "aaab"] {
            #expect(!fingerprints.matches(header), "\(header)")
        }
    }

    // MARK: - Item 5: validated whole-document writes that keep a newer client's keys

    @Test(
        "replacing a layer's document validates known keys, keeps unknown keys, and checks its precondition")
    func replaceDocument() async throws {
        let storage = InMemoryStorage()
        let store = try await Self.seeded(storage)
        let current = try #require(try await store.storedDocument(in: .shared))
        let uploaded = try Preferences(
            json: #"{"pageTurnAnimation":"curl","theme":"dark","fontSize":1.4,"future":{"a":1e400}}"#)
        let result = try await store.replaceDocument(
            uploaded, in: .shared, ifMatch: .version(current.version))
        let stored = try #require(try await storage.load(.layer(configurable: EPUB.identifier, .shared)))
        #expect(stored.preferences.jsonString() == uploaded.jsonString())
        #expect(result.document == stored)
        #expect(Set(result.changes.map(\.key)) == ["pageTurnAnimation", "theme", "fontSize", "future"])

        // A stale version, or a create over an existing document: 412, nothing written.
        await #expect {
            try await store.replaceDocument(
                ["theme": "light"], in: .shared, ifMatch: .version(current.version))
        } throws: { ($0 as? StorageError)?.code == .preconditionFailed }
        await #expect {
            try await store.replaceDocument(["theme": "light"], in: .shared, ifMatch: .absent)
        } throws: { ($0 as? StorageError)?.code == .preconditionFailed }
        // A rejected value: nothing written.
        await #expect(throws: PreferenceError.self) {
            try await store.replaceDocument(["theme": "light", "fontSize": "huge"], in: .shared)
        }
        #expect(try await storage.load(.layer(configurable: EPUB.identifier, .shared)) == stored)
        // `If-None-Match: *` creates.
        let created = try await store.replaceDocument(
            ["fontSize": 1.1], in: .publication("new book"), ifMatch: .absent)
        #expect(created.document?.preferences == ["fontSize": 1.1])
    }

    @Test("a merge patch sets, removes and keeps keys as RFC 7396 says, validating what it changes")
    func mergePatch() async throws {
        let storage = InMemoryStorage()
        let store = try await Self.seeded(storage)
        try await store.write(["future": .object(["a": 1, "b": 2]), "broken": "kept as it is"], to: .shared)
        let patch = try #require(
            try JSONValue(json: #"{"theme":"dark","fontSize":null,"future":{"b":null,"c":3},"newer":true}"#)
                .objectValue)
        let result = try await store.mergeDocument(patch, in: .shared)
        let stored = try #require(result.document).preferences
        #expect(stored["fontSize"] == nil)
        #expect(stored["theme"] == "dark")
        #expect(stored["future"] == .object(["a": 1, "c": 3]))
        #expect(stored["newer"] == true)
        #expect(stored["broken"] == "kept as it is")
        await #expect(throws: PreferenceError.self) {
            try await store.mergeDocument(["theme": "plaid"], in: .shared)
        }
        #expect(try await store.storedDocument(in: .shared) == result.document)
        // A patch of an absent document creates it; a profile keeps its name.
        let created = try await store.mergeDocument(["fontSize": 1.3], in: .publication("patched book"))
        #expect(created.document?.preferences == ["fontSize": 1.3])
        let profile = try await store.createProfile(named: "Night")
        try await store.replaceDocument(["theme": "dark"], in: .profile(profile.id))
        #expect(try await store.profiles().map(\.name) == ["Night"])
    }

    @Test("the key-based editor sets and removes a newer app's keys when asked, and only then")
    func unknownKeysInTheEditor() throws {
        var editor = EPUB.Editor(
            preferences: ["fontSize": 1.2], resolver: EPUB.Resolver(publication: PublicationContext()))
        #expect(throws: PreferenceError.self) {
            try editor.apply(.set(key: "pageTurnAnimation", value: "curl"))
        }
        try editor.apply(.set(key: "pageTurnAnimation", value: "curl"), allowingUnknownKeys: true)
        #expect(editor.preferences == ["fontSize": 1.2, "pageTurnAnimation": "curl"])
        #expect(throws: PreferenceError.self) {
            try editor.apply(.increment(key: "pageTurnAnimation"), allowingUnknownKeys: true)
        }
        #expect(throws: PreferenceError.self) {
            try editor.apply(.set(key: "fontSize", value: "huge"), allowingUnknownKeys: true)
        }
        try editor.apply(.clear(key: "pageTurnAnimation"), allowingUnknownKeys: true)
        #expect(editor.preferences == ["fontSize": 1.2])
        var erased = AnyPreferencesEditor(editor)
        try erased.apply(.set(key: "future", value: 3), allowingUnknownKeys: true)
        #expect(erased.preferences["future"] == 3)
    }

    // MARK: - Item 6: listings and errors

    @Test("errors say whether trying again may work, and carry what is underneath")
    func errorsCarryTransienceAndCause() async throws {
        #expect(StorageError(.conflict, location: nil, message: "").isTransient)
        #expect(!StorageError(.corruptDocument, location: nil, message: "").isTransient)
        let folder = try TemporaryFolder()
        let blocker = folder.url.appendingPathComponent("root")
        try Data("a file, not a folder".utf8).write(to: blocker)
        let storage = FileStorage(root: blocker)
        await #expect {
            try await storage.save(
                ["theme": "dark"], to: .layer(configurable: "epub", .shared), expecting: nil)
        } throws: { error in
            guard let error = error as? StorageError else { return false }
            return error.code == .io && !error.isTransient && error.underlying != nil
        }
    }

    @Test(
        "export lists every layer document, removeAll removes everything",
        arguments: StorageKindUnderTest.allCases)
    func exportAndRemoveAll(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        let store = try await Self.seeded(storage)
        let profile = try await store.createProfile(named: "Night")
        try await store.activateProfile(profile.id)
        let exported = try await storage.export().map(\.location.description).sorted()
        #expect(
            exported
                == [
                    "epub/profile(\(profile.id))", "epub/publication(\(Self.book))",
                    "epub/publication(another book)", "epub/shared",
                ].sorted())
        try await storage.removeAll()
        #expect(try await storage.export().isEmpty)
        #expect(try await storage.load(.device) == nil)
        #expect(try await PreferencesStore<EPUB>(storage: storage).preferences(for: Self.book).isEmpty)
        _ = folder
    }
}
