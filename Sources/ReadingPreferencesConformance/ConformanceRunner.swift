import ReadingPreferences

/// Runs conformance vectors (Specs/README.md §1) against the library, for the `readingprefs conformance`
/// command and the test suite alike.
///
/// Each case builds an editor for its configurable from its inputs, runs its edits in order
/// (an edit with `expectError` must fail with that code and change nothing; any other edit must
/// succeed), then compares every listed expectation, reporting each difference:
///
/// ```swift
/// let runner = ConformanceRunner()
/// let report = runner.run(paths: ["Specs/Conformance"])
/// for result in report.results { print(result.line) }   // PASS name / FAIL name: what differed
/// print(report.summary)                                 // N passed, N failed
/// ```
///
/// The configurable is looked up by name through `ConfigurableKind` (`epub`, `pdf`, `audio`,
/// `tts`); an unknown name fails its case with a message listing the known ones. `css` and
/// `layout` expectations apply to EPUB cases only and are ignored for the others.
public struct ConformanceRunner: Sendable {
    /// Creates a runner.
    public init() {}

    /// Runs one case.
    ///
    /// ```swift
    /// let result = ConformanceRunner().run(testCase)
    /// print(result.line)
    /// ```
    ///
    /// - Parameter testCase: The case.
    /// - Returns: The case's name and every difference found (none when it passed).
    public func run(_ testCase: ConformanceCase) -> ConformanceResult {
        ConformanceResult(name: testCase.name, failures: failures(of: testCase))
    }

    /// Runs one loaded entry: a case that could not be read is a failed result with its message.
    ///
    /// - Parameter entry: A case read from a file, or the reason it could not be read.
    /// - Returns: The result of the case, or a failure naming the file and the member.
    public func run(_ entry: ConformanceEntry) -> ConformanceResult {
        switch entry.content {
        case .success(let testCase): return run(testCase)
        case .failure(let error): return ConformanceResult(name: entry.label, failures: [error.description])
        }
    }

    /// Reads and runs every case under the given files and folders (folders recursively, `*.json`
    /// files only, in sorted order).
    ///
    /// - Parameter paths: Files and folders.
    /// - Returns: One result per case, in order; a file that cannot be read or parsed and a
    ///   malformed case each count as one failed result.
    public func run(paths: [String]) -> ConformanceReport {
        ConformanceReport(results: loadCases(at: paths).map { run($0) })
    }

    private func failures(of testCase: ConformanceCase) -> [String] {
        if let syncMerge = testCase.syncMerge { return syncMerge.failures() }
        guard let kind = ConfigurableKind(rawValue: testCase.configurable) else {
            return [
                "configurable: unknown configurable \(JSONMemberReader.quoted(testCase.configurable)) "
                    + "(expected \(JSONMemberReader.alternatives(ConfigurableKind.allNames)))"
            ]
        }
        if let dialect = testCase.dialect { return dialect.failures(kind.schema) }
        var editor = kind.makeEditor(preferences: testCase.preferences, inputs: testCase.inputs)
        var failures: [String] = []
        for (index, edit) in testCase.edits.enumerated() {
            if let failure = Self.apply(edit, to: &editor) {
                failures.append("edits[\(index)] (\(edit.edit)): \(failure)")
            }
        }
        failures += ExpectationCheck(
            expectation: testCase.expectation, editor: editor, inputPreferences: testCase.preferences,
            cssOptions: testCase.cssOptions
        ).failures()
        return failures
    }

    /// Runs one edit; returns what went wrong, or `nil` when it behaved as expected.
    static func apply(_ edit: ConformanceCase.Edit, to editor: inout AnyPreferencesEditor) -> String? {
        let before = editor.preferences
        do throws(PreferenceError) {
            try editor.apply(edit.edit)
        } catch {
            guard let expected = edit.expectedError else {
                return "unexpected error \(error.code.rawValue) (\(error))"
            }
            guard error.code == expected else {
                return "expected error \(expected.rawValue), got \(error.code.rawValue) (\(error))"
            }
            // Specs/Settings.md §8: a failing edit leaves the preferences exactly as they were, order and
            // number text included.
            let after = editor.preferences
            guard before.jsonString() == after.jsonString() else {
                return "failed with \(expected.rawValue) as expected but changed the preferences from "
                    + "\(before.jsonString()) to \(after.jsonString())"
            }
            return nil
        }
        if let expected = edit.expectedError {
            return "expected error \(expected.rawValue), but the edit succeeded"
        }
        return nil
    }
}
