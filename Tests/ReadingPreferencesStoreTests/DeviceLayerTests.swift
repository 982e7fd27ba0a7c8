import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// The device class and this device as layers: resolution, attribution, the save rule and its
/// scope policy, edits to a named layer and moves (Specs/Store.md §3, §1.4), on files and in
/// memory alike.
@Suite("Device classes, this device, scope policies and moves")
struct DeviceLayerTests {
    /// A store on a fresh storage, of class `eink` under the given policy.
    func einkStore(_ kind: StorageKindUnderTest, policy: ScopePolicy.Name = .formFactor) async throws -> (
        PreferencesStore<EPUB>, TemporaryFolder?
    ) {
        let (storage, folder) = try kind.make()
        let store = PreferencesStore<EPUB>(storage: storage)
        try await store.device.setClass("eink")
        try await store.device.setScopePolicy(policy)
        return (store, folder)
    }

    @Test(
        "layers merge base, class, device, publication; a device resolves only its own class",
        arguments: StorageKindUnderTest.allCases)
    func resolution(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        let store = PreferencesStore<EPUB>(storage: storage)
        try await store.write(
            ["fontSize": 1.0, "lineHeight": 1.2, "theme": "dark", "fontWeight": 1.1], to: .shared)
        try await store.write(
            ["fontSize": 1.6, "lineHeight": 1.5, "theme": "sepia"], to: .deviceClass("eink"))
        try await store.write(["fontSize": 2.0, "lineHeight": 1.8], to: .device)
        try await store.write(["lineHeight": 1.4], to: .publication("book"))
        try await store.write(["fontSize": 3.0], to: .deviceClass("phone"))
        // No class: no class layer.
        #expect(try await store.preferences(for: "book")["theme"] == "dark")
        try await store.device.setClass("eink")
        #expect(try await store.device.deviceClass() == "eink")
        let merged = try await store.preferences(for: "book")
        #expect(merged == ["fontSize": 2.0, "lineHeight": 1.4, "theme": "sepia", "fontWeight": 1.1])
        let settings = try await store.attributedSettings(for: "book")
        #expect(settings["fontSize"]?.source == .device)
        #expect(settings["theme"]?.source == .deviceClass("eink"))
        #expect(settings["lineHeight"]?.source == .publication)
        #expect(settings["fontWeight"]?.source == .shared)
        #expect(SettingSource.deviceClass("eink").description == "deviceClass(eink)")
        try await store.device.setClass("phone")
        #expect(try await store.resolvedSettings()[.fontSize] == 2.0)  // the device beats its class
        try await store.write(["fontSize": nil], to: .device)
        #expect(try await store.resolvedSettings()[.fontSize] == 3.0)
        _ = folder
    }

    @Test("a class id that is not replica-style is refused, and nothing changes")
    func invalidClass() async throws {
        let store = PreferencesStore<EPUB>.inMemory()
        for id in ["E-Ink", "", "-eink", "e ink"] {
            await #expect(throws: StorageError.self) { try await store.device.setClass(id) }
        }
        #expect(try await store.device.deviceClass() == nil)
    }

    @Test(
        "the default policy keeps today's rule: screen keys go to the base, publication keys to the book",
        arguments: StorageKindUnderTest.allCases)
    func defaultPolicy(kind: StorageKindUnderTest) async throws {
        let (store, folder) = try await einkStore(kind, policy: .default)
        try await store.edit(publication: "book") { editor in
            try editor.set(.fontSize, 1.6)
            try editor.set(.readingProgression, .rtl)
        }
        #expect(try await store.storedPreferences(in: .shared)["fontSize"] == 1.6)
        #expect(try await store.storedPreferences(in: .publication("book"))["readingProgression"] == "rtl")
        #expect(try await store.storedPreferences(in: .deviceClass("eink")).isEmpty)
        _ = folder
    }

    @Test(
        "formFactor sends new screen keys to the class, the others by the default rule",
        arguments: StorageKindUnderTest.allCases)
    func formFactor(kind: StorageKindUnderTest) async throws {
        let (store, folder) = try await einkStore(kind)
        try await store.edit(publication: "book") { editor in
            try editor.set(.fontSize, 1.6)
            try editor.set(.lineHeight, 1.5)
            try editor.set(.theme, .sepia)
            try editor.set(.readingProgression, .rtl)
        }
        #expect(
            try await store.storedPreferences(in: .deviceClass("eink")) == [
                "fontSize": 1.6, "lineHeight": 1.5,
            ])
        // Activation's key (line height turns publisher styles off) is no screen key: the base.
        #expect(
            try await store.storedPreferences(in: .shared) == ["theme": "sepia", "publisherStyles": false])
        #expect(try await store.storedPreferences(in: .publication("book")) == ["readingProgression": "rtl"])
        _ = folder
    }

    @Test(
        "formFactor on a device with no class follows the default rule: screen keys to the base, publication keys to the book"
    )
    func formFactorWithoutClass() async throws {
        let store = PreferencesStore<EPUB>.inMemory()
        try await store.device.setScopePolicy(.formFactor)
        #expect(try await store.device.scopePolicy() == .formFactor)
        try await store.edit { try $0.set(.fontSize, 1.6) }
        #expect(try await store.storedPreferences(in: .shared) == ["fontSize": 1.6])
        // A screen key that is also a publication key follows the default rule: the book.
        try await store.edit(publication: "book") { try $0.set(.spread, .never) }
        #expect(try await store.storedPreferences(in: .publication("book"))["spread"] == "never")
        #expect(try await store.storedPreferences(in: .shared)["spread"] == nil)
    }

    @Test(
        "a key already held goes back to the highest of base, class, device and book that holds it",
        arguments: StorageKindUnderTest.allCases)
    func heldKeysGoBack(kind: StorageKindUnderTest) async throws {
        let (store, folder) = try await einkStore(kind)
        try await store.write(["theme": "dark", "fontSize": 1.0], to: .shared)
        try await store.write(["theme": "night", "lineHeight": 1.3], to: .device)
        try await store.write(["lineHeight": 1.2], to: .deviceClass("eink"))
        try await store.write(["fontSize": 1.1], to: .publication("book"))
        try await store.edit(publication: "book") { editor in
            try editor.set(.theme, .sepia)  // held by the device (and shared)
            try editor.set(.lineHeight, 1.6)  // held by the device and the class
            try editor.set(.fontSize, 1.4)  // held by the book and shared
        }
        #expect(try await store.storedPreferences(in: .device) == ["theme": "sepia", "lineHeight": 1.6])
        #expect(try await store.storedPreferences(in: .deviceClass("eink")) == ["lineHeight": 1.2])
        #expect(
            try await store.storedPreferences(in: .shared) == [
                "theme": "dark", "fontSize": 1.0, "publisherStyles": false,
            ])
        #expect(try await store.storedPreferences(in: .publication("book")) == ["fontSize": 1.4])
        // A key held by the base alone stays in the base, whatever the policy says.
        try await store.write(["fontWeight": 1.2], to: .shared)
        try await store.edit { try $0.set(.fontWeight, 1.4) }
        #expect(try await store.storedPreferences(in: .shared)["fontWeight"] == 1.4)
        _ = folder
    }

    @Test("an app's own policy places keys per key, over the device's")
    func appPolicy() async throws {
        let policy = ScopePolicy(placements: ["theme": .device, "fontSize": .deviceClass])
        let store = PreferencesStore<EPUB>(storage: InMemoryStorage(), options: .init(scopePolicy: policy))
        try await store.device.setClass("phone")
        try await store.edit { editor in
            try editor.set(.theme, .sepia)
            try editor.set(.fontSize, 1.2)
            try editor.set(.lineHeight, 1.4)  // formFactor's, but the app's policy does not list it
        }
        #expect(try await store.storedPreferences(in: .device) == ["theme": "sepia"])
        #expect(try await store.storedPreferences(in: .deviceClass("phone")) == ["fontSize": 1.2])
        #expect(
            try await store.storedPreferences(in: .shared) == ["lineHeight": 1.4, "publisherStyles": false])
        #expect(ScopePolicy.formFactor(EPUB.catalogue).placements.count == 8)
        #expect(ScopePolicy.formFactor(Audio.catalogue).placements.isEmpty)
    }

    @Test(
        "an edit names its layer: base, class, device or book",
        arguments: [
            (EditTarget.base, StoreLayer.shared), (.deviceClass, .deviceClass("eink")), (.device, .device),
            (.book, .publication("book")),
        ])
    func explicitLayer(target: EditTarget, layer: StoreLayer) async throws {
        let (store, folder) = try await einkStore(.memory)
        let named = try await store.layer(for: target, publication: "book")
        #expect(named == layer)
        try await store.apply(.set(key: "lineHeight", value: 1.7), publication: "book", to: named)
        #expect(try await store.storedPreferences(in: layer)["lineHeight"] == 1.7)
        try await store.apply(.clear(key: "lineHeight"), publication: "book", to: named)
        #expect(try await store.storedPreferences(in: layer)["lineHeight"] == nil)
        _ = folder
    }

    @Test("a target that names no layer here is refused")
    func unavailableTarget() async throws {
        let store = PreferencesStore<EPUB>.inMemory()
        await #expect(throws: EditTargetError(target: .deviceClass)) {
            try await store.layer(for: .deviceClass, publication: "book")
        }
        await #expect(throws: EditTargetError(target: .book)) { try await store.layer(for: .book) }
        await #expect(throws: EditTargetError(target: .deviceClass)) {
            try await store.move("fontSize", to: .deviceClass)
        }
    }

    @Test(
        "a move keeps the value that resolves, sets it in the target and removes it from the layers below, in one change",
        arguments: StorageKindUnderTest.allCases)
    func move(kind: StorageKindUnderTest) async throws {
        let (store, folder) = try await einkStore(kind)
        try await store.write(["fontSize": 1.0], to: .shared)
        try await store.write(["fontSize": 1.6], to: .deviceClass("eink"))
        try await store.write(["fontSize": 1.8], to: .device)
        let stream = try await store.changes(for: "book")
        var changes = stream.makeAsyncIterator()
        try await store.write(["fontSize": 2.2], to: .publication("book"))
        #expect(await changes.next()?.newValue == 2.2)
        // "Only on this device" for a book's value: the device takes the book's 2.2, the class and
        // the base (below the device) lose theirs, and the book (above it) keeps its own.
        let written = try await store.move("fontSize", to: .device, publication: "book")
        #expect(Set(written.map(\.layer)) == [.shared, .deviceClass("eink"), .device])
        #expect(try await store.storedPreferences(in: .device) == ["fontSize": 2.2])
        #expect(try await store.storedPreferences(in: .shared).isEmpty)
        #expect(try await store.storedPreferences(in: .deviceClass("eink")).isEmpty)
        #expect(try await store.storedPreferences(in: .publication("book")) == ["fontSize": 2.2])
        #expect(try await store.resolvedSettings(for: "book")[.fontSize] == 2.2)
        // "Use on all devices": the base gets the value; nothing is below it, so this device keeps
        // its own, and the value that resolves here stays.
        #expect(try await store.move("fontSize", to: .base).map(\.layer) == [.shared])
        #expect(try await store.storedPreferences(in: .shared) == ["fontSize": 2.2])
        #expect(try await store.storedPreferences(in: .device) == ["fontSize": 2.2])
        // The effective value never changed, so the stream saw nothing of either move; the next
        // change it sees is the next edit.
        try await store.write(["fontWeight": 1.3], to: .shared)
        let next = await changes.next()
        #expect(next?.key == "fontWeight")
        #expect(next?.newValue == 1.3)
        // Nothing to move: a key no layer holds, or one the target holds with nothing below.
        #expect(try await store.move("lineHeight", to: .deviceClass).isEmpty)
        #expect(try await store.move("fontSize", to: .base).isEmpty)
        _ = folder
    }

    @Test("a move is one write of the storage: its removal and its set share one recording")
    func moveIsOneBatch() async throws {
        let storage = InMemoryStorage()
        let store = PreferencesStore<EPUB>(storage: storage)
        try await store.device.setClass("eink")
        try await store.device.keepHistory()
        try await store.write(["fontSize": 1.6], to: .shared)
        let before = try await store.history.entries(in: .shared, key: "fontSize").count
        try await store.move("fontSize", to: .deviceClass)
        #expect(try await store.history.entries(in: .shared, key: "fontSize").count == before + 1)
        let removed = try #require(try await store.history.entries(in: .shared, key: "fontSize").last)
        let moved = try #require(
            try await store.history.entries(in: .deviceClass("eink"), key: "fontSize").last)
        #expect(removed.newValue == nil)
        #expect(moved.newValue == 1.6)
        #expect(moved.provenance.time == removed.provenance.time)
        #expect(moved.provenance.origin == .move)
        #expect(removed.provenance.origin == .move)
    }

    @Test("why names the class and the device as layers")
    func explanation() async throws {
        let (store, folder) = try await einkStore(.memory)
        try await store.write(["fontSize": 1.6], to: .deviceClass("eink"))
        try await store.write(["fontSize": 1.0], to: .shared)
        let why = try #require(try await store.explanation(of: "fontSize"))
        #expect(why.holders.map(\.name) == ["devices like this (eink)", "all books"])
        #expect(why.holders.first?.wins == true)
        #expect(why.description.contains("— devices like this (eink)"))
        try await store.write(["fontSize": 2.0], to: .device)
        #expect(try await store.explanation(of: "fontSize")?.holders.first?.name == "this device")
        _ = folder
    }

    @Test("layer names: classes/<class> in a scope, device never syncs")
    func names() throws {
        #expect(StoreLayer.deviceClass("eink").scopePath == "classes/eink")
        #expect(StoreLayer(scopePath: "classes/eink") == .deviceClass("eink"))
        #expect(StoreLayer(scopePath: "deviceClass/eink") == nil)
        #expect(StoreLayer(scopePath: "device") == .device)
        #expect(SyncScope("epub/classes/eink")?.layer == .deviceClass("eink"))
        #expect(SyncScope(configurable: "epub", layer: .device) == nil)
        #expect(SyncScope(configurable: "epub", layer: .deviceClass("E-Ink")) == nil)
    }
}
