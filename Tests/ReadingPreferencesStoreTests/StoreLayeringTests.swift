import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// Layers, the save rule, attribution and profiles (Specs/Store.md §1 to §4), on files and in memory alike.
@Suite("The store's layers, saving and attribution")
struct StoreLayeringTests {
    @Test(
        "layers merge in order: shared, publication, overrides; defaults are never merged",
        arguments: StorageKindUnderTest.allCases)
    func merging(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        var defaults = EPUB.Defaults()
        defaults[.readingProgression] = .ltr
        let store = PreferencesStore<EPUB>(storage: storage, defaults: defaults)
        try await store.write(["fontSize": 1.2, "theme": "dark"], to: .shared)
        try await store.write(["fontSize": 1.4], to: .publication("book"))
        try await store.write(["theme": "sepia"], to: .overrides)
        #expect(try await store.preferences(for: "book") == ["fontSize": 1.4, "theme": "dark"])
        let settings = try await store.resolvedSettings(for: "book", context: arabicBook)
        #expect(settings[.fontSize] == 1.4)
        #expect(settings[.theme] == .sepia)
        // A default reading progression never beats the publication's language.
        #expect(settings[.readingProgression] == .rtl)
        _ = folder
    }

    @Test("attribution names every source kind", arguments: StorageKindUnderTest.allCases)
    func attribution(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        var defaults = EPUB.Defaults()
        defaults[.pageMargins] = 1.5
        let store = PreferencesStore<EPUB>(storage: storage, defaults: defaults)
        try await store.write(["fontSize": 1.2, "lineHeight": 1.5], to: .shared)
        try await store.write(["wordSpacing": 0.3], to: .publication("book"))
        try await store.write(["theme": "dark"], to: .overrides)
        var settings = try await store.attributedSettings(for: "book", context: arabicBook)
        #expect(settings["fontSize"]?.source == .shared)
        #expect(settings["wordSpacing"]?.source == .publication)
        #expect(settings["theme"]?.source == .override)
        #expect(settings["pageMargins"]?.source == .default)
        #expect(settings["language"]?.source == .publicationMetadata)
        #expect(settings["readingProgression"]?.source == .derived(from: ["language"]))
        #expect(settings["backgroundColor"]?.source == .derived(from: ["theme"]))
        #expect(settings["columnCount"]?.source == .fallback)
        #expect(settings["language"]?.value == "ar")
        let vertical = try await store.attributedSettings(for: "book", context: japaneseBook)
        #expect(vertical["scroll"]?.source == .forced(by: "verticalText"))
        let night = try await store.createProfile(named: "Night")
        try await store.write(["fontSize": 2.0], to: .profile(night.id))
        try await store.activateProfile(night.id)
        settings = try await store.attributedSettings(for: "book", context: arabicBook)
        #expect(settings["fontSize"]?.source == .profile(name: "Night"))
        #expect(settings["lineHeight"]?.source == .fallback)  // the profile replaces shared
        _ = folder
    }

    @Test(
        "an edit of an overridden key is stored, and its handle reports overridden",
        arguments: StorageKindUnderTest.allCases)
    func overridden(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        let store = PreferencesStore<EPUB>(storage: storage)
        try await store.write(["fontSize": 3.0], to: .overrides)
        let editor = try await store.edit { editor in
            try editor.set(.fontSize, 1.3)
            return editor
        }
        #expect(try await store.storedPreferences(in: .shared)["fontSize"] == 1.3)
        #expect(try await store.storedPreferences(in: .overrides)["fontSize"] == 3.0)
        #expect(editor[.fontSize].reasons.first == .overridden)
        #expect(!editor[.fontSize].isEffective)
        #expect(editor.settings[.fontSize] == 3.0)
        _ = folder
    }

    @Test(
        "an edit puts each key back where it came from, and new keys by their scope",
        arguments: StorageKindUnderTest.allCases)
    func saveRule(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        let store = PreferencesStore<EPUB>(storage: storage)
        // A person wrote a shared-scope key and an unknown key in the book's file by hand.
        try await store.write(["fontSize": 1.1, "myApp.bookmark": 12], to: .publication("book"))
        try await store.write(["theme": "dark"], to: .shared)
        try await store.edit(publication: "book") { editor in
            try editor.increment(.fontSize)  // held by the book: stays per book
            try editor.set(.theme, .sepia)  // held by shared: stays shared
            try editor.set(.spread, .never)  // new, publication-specific: to the book
            try editor.set(.lineHeight, 1.5)  // new, shared-scope: to shared
        }
        // A new unknown key (a newer app's) goes to shared.
        let original = try await store.preferences(for: "book")
        var edited = original
        edited["myApp.newKey"] = true
        try await store.save(edited, original: original, publication: "book")
        #expect(
            try await store.storedPreferences(in: .publication("book")).withoutID == [
                "fontSize": 1.2, "myApp.bookmark": 12, "spread": "never",
            ])
        let shared = try await store.storedPreferences(in: .shared)
        // lineHeight activates by turning publisher styles off (Specs/Settings.md §4), also a shared key.
        #expect(
            shared == ["theme": "sepia", "lineHeight": 1.5, "publisherStyles": false, "myApp.newKey": true],
            "\(shared)")
        // Clearing a per-book key removes it from the book; the shared value shows again.
        try await store.write(["fontSize": 1.0], to: .shared)
        try await store.edit(publication: "book") { editor in editor.clear(.fontSize) }
        #expect(try await store.storedPreferences(in: .publication("book"))["fontSize"] == nil)
        #expect(try await store.preferences(for: "book")["fontSize"] == 1.0)
        _ = folder
    }

    @Test("a key added by hand to a publication file stays there after an edit of another key")
    func handAddedKey() async throws {
        let folder = try TemporaryFolder()
        let storage = FileStorage(root: folder.url)
        let store = PreferencesStore<EPUB>(storage: storage)
        try await store.write(["theme": "dark"], to: .publication("book"))
        let path = storage.path(of: .layer(configurable: "epub", .publication("book")))
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "\"theme\"", with: "\"myApp.note\": \"hand written\",\n  \"theme\"")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let fresh = PreferencesStore<EPUB>(storage: storage)
        try await fresh.edit(publication: "book") { editor in try editor.set(.fontSize, 1.3) }
        let stored = try Preferences(json: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(stored["myApp.note"] == "hand written")
        #expect(stored["theme"] == "dark")
        #expect(
            try Preferences(json: Data(contentsOf: folder.url.appendingPathComponent("epub/shared.json")))[
                "fontSize"] == 1.3)
    }

    @Test(
        "profiles: create, list, rename, duplicate, activate, delete",
        arguments: StorageKindUnderTest.allCases)
    func profiles(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        let store = PreferencesStore<EPUB>(storage: storage)
        try await store.write(["fontSize": 1.2], to: .shared)
        let night = try await store.createProfile(named: "Night")
        try await store.activateProfile(night.id)
        try await store.edit { editor in try editor.set(.theme, .dark) }
        #expect(try await store.storedPreferences(in: .profile(night.id))["theme"] == "dark")
        #expect(try await store.storedPreferences(in: .shared)["theme"] == nil)
        #expect(try await store.preferences()["fontSize"] == nil)  // the profile replaces shared
        try await store.renameProfile(night.id, to: "Evening")
        let copy = try await store.duplicateProfile(night.id, named: "Copy")
        #expect(try await store.profiles().map(\.name) == ["Copy", "Evening"])
        #expect(try await store.storedPreferences(in: .profile(copy.id))["theme"] == "dark")
        #expect(try await store.activeProfile()?.id == night.id)
        // The choice is this device's: another store on the same storage sees it, the profile
        // id is stable across the rename.
        let again = PreferencesStore<EPUB>(storage: storage)
        #expect(try await again.activeProfile() == Profile(id: night.id, name: "Evening"))
        try await store.deleteProfile(night.id)
        #expect(try await store.activeProfile() == nil)
        #expect(try await store.preferences()["fontSize"] == 1.2)
        await #expect(throws: ProfileError.unknownProfile("nope")) { try await store.activateProfile("nope") }
        _ = folder
    }

    @Test("the files are plain, pretty-printed JSON in the documented layout")
    func layout() async throws {
        let folder = try TemporaryFolder()
        let store = PreferencesStore<EPUB>(storage: FileStorage(root: folder.url))
        try await store.edit(publication: "urn:isbn:978-0/x?y") { editor in
            try editor.set(.readingProgression, .rtl)
            try editor.set(.fontSize, 1.5)
        }
        let night = try await store.createProfile(named: "Night")
        try await store.activateProfile(night.id)
        try await store.write(["fontSize": 2], to: .overrides)
        let all = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path).sorted()
        let book = SafeName.fileName(for: "urn:isbn:978-0/x?y")
        // The folder a person reads holds the documents; the store's own files (this device's
        // state, the locks) are in the hidden folder, at the same relative paths (Specs/Store.md
        // §5.1). A root that never synced and keeps no history has no journal and no replica id.
        #expect(
            all.filter { !$0.hasPrefix(".readingprefs") } == [
                "epub", "epub/overrides.json", "epub/profiles", "epub/profiles/\(night.id).json",
                "epub/publications", "epub/publications/\(book)", "epub/shared.json",
            ])
        let hidden = all.filter { $0.hasPrefix(".readingprefs/") && !$0.hasSuffix(".lock") }
        #expect(
            hidden.filter { $0.hasSuffix(".json") || $0.hasSuffix(".journal") || $0.hasSuffix(".sync") } == [
                ".readingprefs/device.json"
            ])
        #expect(all.allSatisfy { !$0.hasSuffix(".lock") || $0.hasPrefix(".readingprefs/") })
        let shared = try String(
            contentsOf: folder.url.appendingPathComponent("epub/shared.json"), encoding: .utf8)
        #expect(shared == "{\n  \"fontSize\": 1.5\n}\n")
    }
}

extension Preferences {
    /// Without the `$id` a file storage writes.
    var withoutID: Preferences {
        var copy = self
        copy["$id"] = nil
        return copy
    }
}
