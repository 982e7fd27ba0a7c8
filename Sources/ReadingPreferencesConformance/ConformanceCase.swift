import ReadingPreferences

/// One conformance vector (Specs/README.md §3): inputs, edits to run through the editor, and what to expect.
///
/// Cases are read from JSON with ``init(json:label:)`` (usually through
/// ``ConformanceRunner/loadCases(at:)``) and run by ``ConformanceRunner/run(_:)-(ConformanceCase)``:
///
/// ```swift
/// let json = try JSONValue(json: """
///     {"name": "font size steps", "configurable": "epub",
///      "edits": [{"op": "increment", "key": "fontSize"}],
///      "expect": {"preferences": {"fontSize": 1.1}}}
///     """)
/// let testCase = try ConformanceCase(json: json)
/// ConformanceRunner().run(testCase).line   // "PASS font size steps"
/// ```
public struct ConformanceCase: Sendable, Hashable {
    /// The case's name, printed on its `PASS`/`FAIL` line.
    public var name: String
    /// The configurable's name as written (`epub`, `pdf`, `audio`, `tts`); an unknown name fails
    /// when the case runs.
    public var configurable: String
    /// The publication, app defaults and environment.
    public var inputs: ConfigurableInputs
    /// The preferences before the edits (`{}` when the vector has none).
    public var preferences: Preferences
    /// The font registry, reading-system properties and overrides for `expect.css`.
    public var cssOptions: ReadiumCSSOptions
    /// The edits, run in order.
    public var edits: [Edit]
    /// What to check after the edits.
    public var expectation: ConformanceExpectation
    /// For a sync merge vector (`"replicas"` instead of `"configurable"`, Specs/README.md §6): the replica
    /// states and the expected merge; `nil` for an editing case.
    public var syncMerge: SyncMergeCase?
    /// For a dialect vector (`"dialect"`, Specs/README.md §7): the object converted and what the
    /// conversion must give; `nil` for an editing case.
    public var dialect: DialectCase?

    /// One edit of a case, and whether it must fail.
    public struct Edit: Sendable, Hashable {
        /// The edit.
        public var edit: PreferenceEdit
        /// The code the edit must fail with, leaving the preferences unchanged; `nil` when it
        /// must succeed.
        public var expectedError: PreferenceError.Code?

        /// Creates an edit of a case.
        ///
        /// - Parameters:
        ///   - edit: The edit.
        ///   - expectedError: The code it must fail with, or `nil` when it must succeed.
        public init(_ edit: PreferenceEdit, expectedError: PreferenceError.Code? = nil) {
            self.edit = edit
            self.expectedError = expectedError
        }
    }

    /// Creates a case.
    ///
    /// - Parameters:
    ///   - name: The name printed on the case's line.
    ///   - configurable: The configurable's name, such as `"epub"`.
    ///   - inputs: The publication, app defaults and environment.
    ///   - preferences: The preferences before the edits.
    ///   - cssOptions: The options `expect.css` is computed with.
    ///   - edits: The edits, in order.
    ///   - expectation: What to check.
    public init(
        name: String, configurable: String, inputs: ConfigurableInputs = ConfigurableInputs(),
        preferences: Preferences = Preferences(), cssOptions: ReadiumCSSOptions = ReadiumCSSOptions(),
        edits: [Edit] = [], expectation: ConformanceExpectation = ConformanceExpectation()
    ) {
        self.name = name
        self.configurable = configurable
        self.inputs = inputs
        self.preferences = preferences
        self.cssOptions = cssOptions
        self.edits = edits
        self.expectation = expectation
    }
}
