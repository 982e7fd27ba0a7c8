import Foundation

// The JSON form of a settings form (Specs/Resolution.md §9.4), as `readingprefs inspect --json` prints it and a
// web front end or a test reads it back.
extension SettingsForm {
    /// Encodes the form as JSON with sorted keys, so the output is stable across runs.
    ///
    /// A stored number that JSON through `Codable` cannot carry exactly (`1e400`) is written as
    /// its text in a string: the form is for display (``JSONValue/inexactNumbersAsText``).
    ///
    /// ```swift
    /// let data = try editor.form().jsonData()
    /// let form = try SettingsForm(jsonData: data)   // equal to editor.form()
    /// ```
    ///
    /// - Parameter prettyPrinted: Whether to indent the output (the default).
    /// - Returns: UTF-8 JSON.
    /// - Throws: `EncodingError` if a value cannot be encoded (a form built by an editor always can).
    public func jsonData(prettyPrinted: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        encoder.userInfo[JSONValue.inexactNumbersAsText] = true
        return try encoder.encode(self)
    }

    /// Decodes a form from the JSON of ``jsonData(prettyPrinted:)``.
    ///
    /// - Parameter data: UTF-8 JSON.
    /// - Throws: `DecodingError` when the JSON does not describe a form.
    public init(jsonData data: Data) throws {
        self = try JSONDecoder().decode(SettingsForm.self, from: data)
    }
}
