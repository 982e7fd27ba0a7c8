import ReadingPreferences
import ReadingPreferencesStore

/// The behaviour every `PreferencesStorage` must have, as a check a
/// server runs against its own implementation (as swift-configuration's providers run
/// `ConfigurationTesting`): the package runs it against its file and memory storages.
///
/// ```swift
/// @Test func sqlStorageConforms() async throws {
///     let failures = await StorageConformance.failures(of: SQLPreferencesStorage(database: testDatabase))
///     #expect(failures.isEmpty, "\(failures)")
/// }
/// ```
public enum StorageConformance {
    /// Runs every check on an empty storage and returns what failed (empty when it conforms).
    /// The checks write documents of the configurable `conformance`.
    ///
    /// - Parameter storage: An empty storage.
    /// - Returns: One line per failed check.
    public static func failures(of storage: some PreferencesStorage) async -> [String] {
        var failures: [String] = []
        func check(_ condition: Bool, _ what: String) { if !condition { failures.append(what) } }
        let shared = StorageLocation.layer(configurable: "conformance", .shared)
        let book = StorageLocation.layer(configurable: "conformance", .publication("urn:isbn:978-0/x?y"))
        let profile = StorageLocation.layer(configurable: "conformance", .profile("night"))
        do {
            check(try await storage.load(shared) == nil, "an absent document loads as nil")
            let first = try await storage.save(["theme": "dark", "$meta": 1], to: shared, expecting: nil)
            let loaded = try await storage.load(shared)
            check(loaded?.version == first, "load returns the version save returned")
            check(loaded?.preferences["theme"] == "dark", "a saved document loads back")
            check(loaded?.preferences["$meta"] == 1, "reserved $ keys are kept")
            do {
                _ = try await storage.save(["theme": "light"], to: shared, expecting: nil)
                failures.append("saving as new over an existing document must conflict")
            } catch {
                check(error.code == .conflict, "saving as new over an existing document throws conflict")
            }
            let second = try await storage.save(["theme": "sepia"], to: shared, expecting: first)
            check(second != first, "a save changes the version")
            do {
                _ = try await storage.save(["theme": "light"], to: shared, expecting: first)
                failures.append("saving at a stale version must conflict")
            } catch {
                check(error.code == .conflict, "saving at a stale version throws conflict")
            }
            check(
                try await storage.load(shared)?.preferences["theme"] == "sepia", "a conflict changes nothing")
            _ = try await storage.save(["fontSize": 1.5], to: book, expecting: nil)
            _ = try await storage.save(["$name": "Night"], to: profile, expecting: nil)
            check(
                try await storage.names(of: .profiles, configurable: "conformance") == ["night"],
                "profiles are listed by id")
            check(
                try await storage.names(of: .publications, configurable: "conformance").count == 1,
                "publications are listed")
            check(try await storage.load(book)?.preferences["fontSize"] == 1.5, "documents are kept apart")
            do {
                try await storage.remove(profile, expecting: StorageVersion("stale"))
                failures.append("removing at a stale version must conflict")
            } catch {
                check(error.code == .conflict, "removing at a stale version throws conflict")
            }
            if let version = try await storage.load(profile)?.version {
                try await storage.remove(profile, expecting: version)
            }
            check(try await storage.load(profile) == nil, "a removed document loads as nil")
            check(
                try await storage.names(of: .profiles, configurable: "conformance").isEmpty,
                "a removed profile is not listed")
            let device = try await storage.save(
                ["activeProfiles": ["conformance": "night"]], to: .device, expecting: nil)
            check(try await storage.load(.device)?.version == device, "the device document is kept")
            check(
                try await storage.load(.layer(configurable: "other", .shared)) == nil,
                "configurables are kept apart")
        } catch {
            failures.append("unexpected error: \(error)")
        }
        return failures
    }
}
