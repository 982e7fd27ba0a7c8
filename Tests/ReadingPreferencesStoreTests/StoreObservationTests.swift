import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// Change streams report effective changes once, for every cause (Specs/Store.md §9). No test sleeps: the
/// store delivers inside the call that caused a change, and `settle()` is the barrier.
// A stream that never delivers fails the suite, never hangs it (`.timeLimit` needs macOS 13 on
// Apple systems, above the package's floor).
#if canImport(Darwin)
    @Suite("The store's change streams")
#else
    @Suite("The store's change streams", .timeLimit(.minutes(2)))
#endif
struct StoreObservationTests {
    @Test("each cause is reported once per effective change", arguments: StorageKindUnderTest.allCases)
    func causes(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        let store = PreferencesStore<EPUB>(storage: storage)
        let changes = try await store.changes(for: "book", context: arabicBook)
        var iterator = changes.makeAsyncIterator()

        try await store.edit(publication: "book") { editor in try editor.set(.fontSize, 1.5) }
        #expect(
            await iterator.next()
                == PreferenceChange(key: "fontSize", oldValue: 1.0, newValue: 1.5, cause: .edit))

        try await store.write(["fontSize": 2.0], to: .overrides)
        #expect(
            await iterator.next()
                == PreferenceChange(key: "fontSize", oldValue: 1.5, newValue: 2.0, cause: .override))

        var defaults = EPUB.Defaults()
        defaults[.pageMargins] = 1.5
        await store.setDefaults(defaults)
        #expect(
            await iterator.next()
                == PreferenceChange(key: "pageMargins", oldValue: 1.0, newValue: 1.5, cause: .defaultsChange))

        let night = try await store.createProfile(named: "Night")
        try await store.write(["lineHeight": 1.8], to: .profile(night.id))
        try await store.activateProfile(night.id)
        #expect(
            await iterator.next()
                == PreferenceChange(
                    key: "lineHeight", oldValue: 1.2, newValue: 1.8, cause: .profileSwitch,
                    profileChoice: .byHand))

        // Another process writes the file: reported after reload().
        let other = PreferencesStore<EPUB>(storage: storage)
        try await other.write(["textAlign": "justify"], to: .profile(night.id))
        try await store.reload()
        // Justified text also turns hyphenation on (Specs/Resolution.md §5): two effective changes.
        let external = [await iterator.next(), await iterator.next()]
        #expect(external.map { $0?.key } == ["hyphens", "textAlign"])
        #expect(external.allSatisfy { $0?.cause == .external })
        _ = folder
    }

    @Test("a write that changes nothing effective fires nothing", arguments: StorageKindUnderTest.allCases)
    func nothingEffective(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        let store = PreferencesStore<EPUB>(storage: storage)
        try await store.write(["theme": "dark"], to: .overrides)
        var iterator = try await store.changes(for: "book", context: arabicBook).makeAsyncIterator()
        // Overridden, not a setting, the fallback already, then a real change.
        try await store.edit(publication: "book") { editor in try editor.set(.theme, .sepia) }
        try await store.write(["myApp.unknown": true], to: .shared)
        try await store.edit(publication: "book") { editor in try editor.set(.fontSize, 1.0) }
        try await store.edit(publication: "book") { editor in try editor.set(.fontSize, 1.1) }
        await store.settle()
        // Had any of the first three fired, it would come first.
        #expect(
            await iterator.next()
                == PreferenceChange(key: "fontSize", oldValue: 1.0, newValue: 1.1, cause: .edit))
        _ = folder
    }

    @Test("two consumers each see every change")
    func twoConsumers() async throws {
        let store = PreferencesStore<EPUB>.inMemory()
        var first = try await store.changes().makeAsyncIterator()
        var second = try await store.changes().makeAsyncIterator()
        try await store.edit { editor in try editor.set(.theme, .dark) }
        try await store.edit { editor in try editor.set(.fontSize, 1.4) }
        // The dark theme changes the theme and the colors it drives; then the font size.
        var seenByFirst: [String] = []
        var seenBySecond: [String] = []
        for _ in 0..<4 {
            seenByFirst.append(await first.next()?.key ?? "?")
            seenBySecond.append(await second.next()?.key ?? "?")
        }
        #expect(seenByFirst == seenBySecond)
        #expect(seenByFirst.sorted() == ["backgroundColor", "fontSize", "textColor", "theme"])
    }

    @Test("a slow consumer gets the latest value per key, coalesced")
    func coalescing() async throws {
        let store = PreferencesStore<EPUB>.inMemory()
        var iterator = try await store.changes().makeAsyncIterator()
        for _ in 0..<10 { try await store.edit { editor in try editor.increment(.fontSize) } }
        try await store.edit { editor in try editor.set(.scroll, true) }
        try await store.edit { editor in try editor.set(.scroll, false) }  // back: dropped
        #expect(
            await iterator.next()
                == PreferenceChange(key: "fontSize", oldValue: 1.0, newValue: 2.0, cause: .edit))
        try await store.edit { editor in try editor.set(.theme, .sepia) }
        let next = await iterator.next()
        #expect(next?.key != "scroll")
    }

    @Test("the stored stream reports stored values of shared preferences")
    func storedStream() async throws {
        let store = PreferencesStore<EPUB>.inMemory()
        var iterator = try await store.storedChanges().makeAsyncIterator()
        try await store.write(["myApp.flag": true], to: .shared)
        #expect(
            await iterator.next()
                == PreferenceChange(key: "myApp.flag", oldValue: nil, newValue: true, cause: .edit))
    }

    @Test("the NotificationCenter bridge posts one notification per changed key")
    func notifications() async throws {
        let store = PreferencesStore<EPUB>.inMemory()
        let center = NotificationCenter()
        let received = ReceivedNotifications()
        let observer = center.addObserver(forName: .readingPreferencesDidChange, object: nil, queue: nil) {
            note in
            received.append(note.userInfo ?? [:])
        }
        defer { center.removeObserver(observer) }
        let token = try await store.postNotifications(for: "book", context: arabicBook, center: center)
        try await store.edit(publication: "book") { editor in try editor.set(.fontSize, 1.25) }
        await store.settle()
        let infos = received.values
        #expect(infos.count == 1)
        #expect(infos.first?[PreferencesStoreNotificationKey.key] as? String == "fontSize")
        #expect(infos.first?[PreferencesStoreNotificationKey.newValue] as? JSONValue == 1.25)
        #expect(infos.first?[PreferencesStoreNotificationKey.oldValue] as? JSONValue == 1.0)
        #expect(infos.first?[PreferencesStoreNotificationKey.cause] as? String == "edit")
        await store.stopNotifications(token)
        try await store.edit(publication: "book") { editor in try editor.set(.fontSize, 1.5) }
        #expect(received.values.count == 1)
    }
}

/// Notifications received, from the posting thread.
final class ReceivedNotifications: @unchecked Sendable {
    private let lock = NSLock()
    private var infos: [[AnyHashable: Any]] = []
    func append(_ info: [AnyHashable: Any]) { lock.withLock { infos.append(info) } }
    var values: [[AnyHashable: Any]] { lock.withLock { infos } }
}
