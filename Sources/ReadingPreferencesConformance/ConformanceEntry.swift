import ReadingPreferences

/// One case read from a vector file, or why it could not be read (Specs/README.md §3).
///
/// A file holds one case object or an array of cases. Each case becomes an entry labelled with
/// the file and, for an array, the index (`epub/activation.json[3]`). A file that cannot be read
/// or parsed becomes one entry labelled with the file alone.
///
/// ```swift
/// for entry in ConformanceRunner().loadCases(at: ["Specs/Conformance"]) {
///     print(entry.label, ConformanceRunner().run(entry).passed)
/// }
/// ```
public struct ConformanceEntry: Sendable, Hashable, CustomStringConvertible {
    /// The file and index the case came from, such as `epub/activation.json[3]`.
    public var label: String
    /// The case, or the problem that kept it from being read (naming the member when the case
    /// is malformed).
    public var content: Result<ConformanceCase, JSONMemberError>

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - label: The file and index the case came from.
    ///   - content: The case, or why it could not be read.
    public init(label: String, content: Result<ConformanceCase, JSONMemberError>) {
        self.label = label
        self.content = content
    }

    /// The case's name when it was read, otherwise its label.
    public var name: String {
        if case .success(let testCase) = content { return testCase.name }
        return label
    }

    /// The case's name (for test reports).
    public var description: String { name }
}
