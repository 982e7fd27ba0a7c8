import Observation
import ReadingPreferences
import ReadingPreferencesObservation
import ReadingPreferencesStore
import Testing

/// The `@Observable` model (Specs/Store.md §10.1): reading a handle tracks it, editing saves through the store,
/// and changes made elsewhere reach it.
/// Each test returns at once where Observation is not available (before iOS 17 / macOS 14).
@Suite("The observable preferences model")
struct ObservablePreferencesTests {
    @Test("reading a handle tracks it; an edit notifies, shows at once and is saved")
    @MainActor
    func editTracksAndSaves() async throws {
        guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) else { return }
        let store = PreferencesStore<EPUB>.inMemory()
        let model = try await ObservablePreferences(store: store, publication: "book")
        let notified = Flag()
        withObservationTracking {
            _ = model[.fontSize].effectiveValue
        } onChange: {
            notified.set()
        }
        model.edit { try $0.increment(.fontSize) }
        #expect(notified.isSet)
        #expect(model[.fontSize].effectiveValue == 1.1)
        await model.waitUntilSaved()
        #expect(try await store.preferences(for: "book")["fontSize"] == 1.1)
    }

    @Test("a failing edit changes nothing and is reported")
    @MainActor func failingEdit() async throws {
        guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) else { return }
        let model = try await ObservablePreferences(store: PreferencesStore<EPUB>.inMemory())
        model.edit { try $0.set(key: "theme", json: "purple") }
        #expect(model.lastError is PreferenceError)
        #expect(model.editor.preferences.isEmpty)
    }

    @Test("a change made elsewhere reaches the model and its observers")
    @MainActor func externalChange() async throws {
        guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) else { return }
        let store = PreferencesStore<EPUB>.inMemory()
        let model = try await ObservablePreferences(store: store)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = model.editor
            } onChange: {
                continuation.resume()
            }
            Task { try await store.edit { editor in try editor.set(.theme, .dark) } }
        }
        // onChange fires before the new value is stored; read it on the next turn.
        await Task.yield()
        #expect(model[.theme].value == .dark)
    }
}

/// A flag set from an observation callback.
final class Flag: @unchecked Sendable {
    private(set) var isSet = false
    func set() { isSet = true }
}
