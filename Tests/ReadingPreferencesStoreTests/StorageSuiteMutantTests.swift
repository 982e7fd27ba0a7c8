import Foundation
import ReadingPreferences
import ReadingPreferencesConformance
import ReadingPreferencesStore
import Testing

/// The storage suite is only as good as the bugs it catches: each planted bug must be reported.
@Suite("The storage suite reports every planted bug")
struct StorageSuiteMutantTests {
    /// The bugs of the second round of the suite's checks.
    static let later: Set<PlantedBug> = [
        .batchRemovalSkipsVersion, .verifyOutdatedAsCurrent, .removalByPrefix, .listingMixesKinds,
        .pageRestartsAfterRemovedName, .configurablesKeepEmptied, .quarantineKeepsNothing,
        .failedListingAsEmpty,
        .exportMissesEncodedConfigurables, .conflictNotTransient,
    ]

    @Test("the table storage without a bug passes, so every report below is the bug's")
    func control() async {
        let storage = MutantStorage(bug: nil)
        let failures = await StorageConformance.failures(of: storage, faults: storage.faults)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("a planted bug is reported", arguments: PlantedBug.allCases)
    func reported(bug: PlantedBug) async {
        let storage = MutantStorage(bug: bug)
        let failures = await StorageConformance.failures(of: storage, faults: storage.faults)
        let reported = failures.filter { !$0.hasPrefix("skipped:") }
        #expect(!reported.isEmpty, "\(bug) was not reported")
        // The kinds of mistake found past the first checks meet more than one check each, so a
        // storage that slips past one is still caught.
        if Self.later.contains(bug) {
            #expect(reported.count >= 2, "\(bug) met only \(reported)")
        }
        // Every report says what was expected and what happened.
        #expect(reported.allSatisfy { $0.contains("expected") && $0.contains("got") }, "\(reported)")
    }
}
