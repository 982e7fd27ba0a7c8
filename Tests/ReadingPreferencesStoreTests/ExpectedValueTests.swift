import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import Testing

@Suite(
    "An edit may say the value each key held: only a change of those keys is a conflict (Specs/Store.md §12.5)"
)
struct ExpectedValueTests {
    static let book = "urn:isbn:111"

    static func store() async throws -> PreferencesStore<EPUB> {
        let store = PreferencesStore<EPUB>(storage: InMemoryStorage())
        try await store.apply([.set(key: "fontSize", value: 1.2), .set(key: "lineHeight", value: 1.4)])
        return store
    }

    @Test("another key changed since the client read is no conflict: the edit applies")
    func otherKey() async throws {
        let store = try await Self.store()
        try await store.apply(.set(key: "lineHeight", value: 1.8))
        try await store.apply(
            [.increment(key: "fontSize")], publication: Self.book,
            expecting: [ExpectedValue(key: "fontSize", value: 1.2)])
        let stored = try await store.preferences(for: Self.book)
        #expect(stored["fontSize"] == 1.3 && stored["lineHeight"] == 1.8)
    }

    @Test("the same key changed since is 412, names the key with both values, and writes nothing")
    func sameKey() async throws {
        let store = try await Self.store()
        try await store.apply(.set(key: "fontSize", value: 1.6))
        await #expect {
            try await store.apply(
                [.increment(key: "fontSize"), .set(key: "theme", value: "dark")], publication: Self.book,
                expecting: [ExpectedValue(key: "fontSize", value: 1.2)])
        } throws: { error in
            guard let error = error as? StorageError, error.code == .preconditionFailed else { return false }
            return error.staleValues == [StaleValue(key: "fontSize", expected: 1.2, stored: 1.6)]
        }
        let stored = try await store.preferences(for: Self.book)
        #expect(stored["fontSize"] == 1.6 && stored["theme"] == nil)
    }

    @Test("expecting none holds while no value is stored, and not once one is; numbers compare by value")
    func noneAndNumbers() async throws {
        let store = try await Self.store()
        try await store.apply(
            [.set(key: "theme", value: "sepia")], publication: Self.book,
            expecting: [
                ExpectedValue(key: "theme", value: nil), ExpectedValue(key: "lineHeight", value: 1.40),
            ])
        await #expect(throws: StorageError.self) {
            try await store.apply(
                [.set(key: "theme", value: "dark")], publication: Self.book,
                expecting: [ExpectedValue(key: "theme", value: nil)])
        }
    }
}
