import Foundation
import ReadingPreferences
import ReadingPreferencesConformance
import Testing

/// Every vector under `Specs/Conformance` passes (Specs/README.md §1), one test argument per case so a
/// failure names the case and says what differed.
@Suite("The conformance vectors under Specs/Conformance")
struct ConformanceVectorTests {
    static let vectors = ConformanceRunner().loadCases(at: [ConformancePaths.specs]).map(Vector.init)

    @Test("the folder holds vectors")
    func folderHoldsVectors() {
        #expect(!Self.vectors.isEmpty, "no *.json vectors under \(ConformancePaths.specs)")
    }

    @Test("each vector passes", arguments: vectors)
    func vectorPasses(_ vector: Vector) {
        let result = ConformanceRunner().run(vector.entry)
        #expect(result.passed, "\(vector.entry.label): \(result.line)")
    }

    /// A case and its file, named by both in test reports.
    struct Vector: Sendable, CustomTestStringConvertible {
        let entry: ConformanceEntry

        var testDescription: String {
            entry.name == entry.label ? entry.label : "\(entry.label): \(entry.name)"
        }
    }
}

/// Folders of the package, found from this file's path.
enum ConformancePaths {
    /// The package root: Tests/ReadingPreferencesConformanceTests/<this file> → up three levels.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Specs/Conformance`.
    static let specs = root.appendingPathComponent("Specs/Conformance").path

    /// The runner's own sample vectors.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    /// One fixture file.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: fixtures).appendingPathComponent(name).path
    }
}
