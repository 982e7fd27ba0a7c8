import Foundation
import ReadingPreferences
import ReadingPreferencesConformance
import ReadingPreferencesStore
import Testing

/// The storage protocol's conformance check, run against both storages the package ships.
@Suite("Storages conform to the storage protocol")
struct StorageConformanceTests {
    @Test(
        "the file storage and the memory storage pass every check", arguments: StorageKindUnderTest.allCases)
    func conforms(kind: StorageKindUnderTest) async throws {
        let (storage, folder) = try kind.make()
        let failures = await StorageConformance.failures(of: storage)
        #expect(failures.isEmpty, "\(failures)")
        _ = folder
    }
}
