import ReadingPreferences

/// What a conformance case checks after its edits (Specs/README.md §3, the `expect` member).
///
/// Every member is optional: `nil` is not checked. Except for ``preferences`` and
/// ``diagnostics``, which are compared whole, only the keys listed are checked.
///
/// ```swift
/// var expectation = ConformanceExpectation()
/// expectation.settings = ["fontSize": 1.3]
/// expectation.formatted = [.init(key: "fontSize", value: "130%")]
/// ```
public struct ConformanceExpectation: Sendable, Hashable {
    /// The whole stored preferences after the edits, in any order; numbers compare as `Double`s,
    /// strings by Unicode scalars. A `null` member means the key must not be stored.
    public var preferences: JSONObject?
    /// The stored keys, in stored order.
    public var keyOrder: [String]?
    /// Resolved values (`AnyPreferencesEditor/resolvedSettingsJSON`); `null` means the setting
    /// resolved to none. Colors compare in canonical form.
    public var settings: JSONObject?
    /// Whether each listed setting is effective.
    public var effective: [Entry<Bool>]?
    /// Each listed setting's effective value in its canonical JSON; `null` means none. Colors
    /// compare in canonical form.
    public var effectiveValues: JSONObject?
    /// Each listed setting's formatted effective value, such as `"120%"`.
    public var formatted: [Entry<String>]?
    /// The EPUB page layout; ignored for other configurables.
    public var layout: Layout?
    /// Readium CSS properties by name; a `nil` value means the property must be absent. EPUB
    /// only; ignored for other configurables.
    public var css: [Entry<String?>]?
    /// The exact multiset of diagnostics of the input preferences, as key and code.
    public var diagnostics: [Diagnostic]?

    /// One expected value of a setting or property, by key.
    public struct Entry<Value: Sendable & Hashable>: Sendable, Hashable {
        /// The setting key or CSS property name.
        public var key: String
        /// The expected value.
        public var value: Value

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - key: The setting key or CSS property name.
        ///   - value: The expected value.
        public init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// The expected EPUB page layout (`EPUB/PageLayout`); `nil` members are not checked.
    public struct Layout: Sendable, Hashable {
        /// The stylesheet variant.
        public var stylesheets: EPUB.StylesheetVariant?
        /// The HTML `dir` attribute; checked only when ``checksHTMLDirection`` is set, where `nil`
        /// means no `dir` attribute.
        public var htmlDirection: EPUB.HTMLDirection?
        /// Whether ``htmlDirection`` is checked.
        public var checksHTMLDirection: Bool
        /// The resolved language tag; checked only when ``checksLanguage`` is set, where `nil`
        /// means none.
        public var language: String?
        /// Whether ``language`` is checked.
        public var checksLanguage: Bool

        /// Creates a layout expectation that checks nothing; set the members to check.
        public init() {
            stylesheets = nil
            htmlDirection = nil
            checksHTMLDirection = false
            language = nil
            checksLanguage = false
        }
    }

    /// One expected diagnostic: a key and a code.
    public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
        /// The key concerned.
        public var key: String
        /// The diagnostic's code.
        public var code: PreferenceDiagnostic.Code

        /// Creates an expected diagnostic.
        ///
        /// - Parameters:
        ///   - key: The key concerned.
        ///   - code: The diagnostic's code.
        public init(key: String, code: PreferenceDiagnostic.Code) {
            self.key = key
            self.code = code
        }

        /// `{key, code}`, as written in failure messages.
        public var description: String { "{\(key), \(code.rawValue)}" }
    }

    /// Creates an expectation that checks nothing; set the members to check.
    public init() {}
}
