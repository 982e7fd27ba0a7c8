import ReadingPreferences

/// The outcome of one conformance case: its name and what differed (Specs/README.md §3).
///
/// ```swift
/// let result = ConformanceRunner().run(testCase)
/// result.passed   // false
/// result.line     // "FAIL font size: settings.fontSize: expected 1.3, got 1.3000000000000003"
/// ```
public struct ConformanceResult: Sendable, Hashable {
    /// The case's name, or its file label (`activation.json[3]`) when it has none or could not
    /// be read.
    public var name: String
    /// What differed, one message per check; empty when the case passed.
    public var failures: [String]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - name: The case's name.
    ///   - failures: What differed; empty for a pass.
    public init(name: String, failures: [String]) {
        self.name = name
        self.failures = failures
    }

    /// Whether every check passed.
    public var passed: Bool { failures.isEmpty }

    /// The case's line: `PASS name`, or `FAIL name: what differed` (several differences joined
    /// by `"; "`).
    public var line: String {
        passed ? "PASS \(name)" : "FAIL \(name): " + failures.joined(separator: "; ")
    }
}

/// The outcome of a conformance run: one result per case, in file order, and the counts.
///
/// ```swift
/// let report = ConformanceRunner().run(paths: ["Specs/Conformance"])
/// report.results.forEach { print($0.line) }
/// print(report.summary)    // "41 passed, 0 failed"
/// exit(report.allPassed ? 0 : 1)
/// ```
public struct ConformanceReport: Sendable, Hashable {
    /// The results, in the order the cases were read.
    public var results: [ConformanceResult]

    /// Creates a report.
    ///
    /// - Parameter results: The results, in order.
    public init(results: [ConformanceResult]) {
        self.results = results
    }

    /// The number of cases that passed.
    public var passedCount: Int { results.filter(\.passed).count }

    /// The number of cases that failed or could not be read.
    public var failedCount: Int { results.count - passedCount }

    /// Whether no case failed (also true for an empty run).
    public var allPassed: Bool { failedCount == 0 }

    /// The closing line: `N passed, N failed`.
    public var summary: String { "\(passedCount) passed, \(failedCount) failed" }
}
