import Foundation
import ReadingPreferences
import ReadingPreferencesConformance
import ReadingPreferencesStore
import TestSupport
import Testing

/// The storage suite, run against every storage the package ships, with their fault hooks.
@Suite("Storages pass the storage suite")
struct StorageConformanceTests {
    @Test("the memory storage passes every check")
    func memory() async throws {
        let storage = InMemoryStorage()
        let failures = await StorageConformance.failures(of: storage, faults: .memory(storage))
        #expect(failures.isEmpty, "\(failures)")
        #expect(try await storage.export().isEmpty)
    }

    @Test("the file storage passes every check, and leaves no file behind")
    func files() async throws {
        let folder = try TemporaryFolder()
        let storage = FileStorage(root: folder.url, faults: StorageFaultPlan())
        let failures = await StorageConformance.failures(of: storage, faults: .files(storage))
        #expect(failures.isEmpty, "\(failures)")
        let left = FileManager.default.enumerator(atPath: folder.url.path)?.allObjects as? [String] ?? []
        #expect(left.isEmpty, "\(left)")
    }

    @Test("the UserDefaults storage passes every check, and leaves no key behind")
    func userDefaults() async throws {
        let suite = "ReadingPreferencesTests.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let storage = UserDefaultsStorage(defaults: defaults)
        let failures = await StorageConformance.failures(of: storage, faults: .defaults(storage))
        #expect(failures.isEmpty, "\(failures)")
        let left = defaults.dictionaryRepresentation().keys.filter { $0.hasPrefix("ReadingPreferences") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("without faults, the checks that need them are reported as skipped")
    func skipped() async {
        let failures = await StorageConformance.failures(of: InMemoryStorage())
        #expect(failures.count == 5, "\(failures)")
        #expect(failures.allSatisfy { $0.hasPrefix("skipped: ") }, "\(failures)")
    }
}
