extension SettingDescriptor {
    /// What the setting accepts, in words, for a message about a rejected value: `one of
    /// "light", "dark", "sepia"`, `a number from 0.1 to 5`, `true or false`... The command line
    /// and the back end's 422 say the same (Specs/Settings.md §8).
    ///
    /// ```swift
    /// EPUB.theme.descriptor.expectedValues      // one of "light", "dark", "sepia"
    /// EPUB.fontSize.descriptor.expectedValues   // a number from 0.1 to 5
    /// ```
    public var expectedValues: String {
        if let values = allowedValues {
            // JSON forms, so `"2"` shows that the column count is a string.
            return "one of \(values.map { $0.jsonString() }.joined(separator: ", "))"
        }
        if let range {
            return "a number from \(JSONNumber(range.lowerBound)) to \(JSONNumber(range.upperBound))"
        }
        switch coder {
        case .bool: return "true or false"
        case .color: return "a color such as \"#FF8800\" or \"teal\""
        case .double: return "a number"
        case .integer: return "a whole number"
        case .enumeration: return "a string"
        case .language: return "a BCP 47 language tag such as \"en\", \"ar-EG\" or \"zh-Hant\""
        case .string: return "a string"
        case .stringMap: return "an object whose values are strings, such as {\"en\": \"Alex\"}"
        case .json: return "a JSON value"
        }
    }

    /// The values the setting accepts when they are a closed list, as JSON (its supported values,
    /// or an enumeration's cases); `nil` for an open setting (a range, any color, any string).
    public var allowedValues: [JSONValue]? {
        if let values = supportedValues { return values.map { coder.encode($0) } }
        if case .enumeration(let cases) = coder { return cases.map(JSONValue.string) }
        return nil
    }
}
