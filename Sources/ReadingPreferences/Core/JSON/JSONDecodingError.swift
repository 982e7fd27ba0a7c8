/// An error thrown when JSON input cannot be parsed, with the byte offset of the problem.
///
/// ```swift
/// do {
///     _ = try JSONValue(json: #"{"a": 1,}"#)
/// } catch {
///     print(error)          // unexpected character '}' at byte 8
///     print(error.code)     // unexpectedCharacter
/// }
/// ```
///
/// Equality and hashing use ``code`` and ``offset`` only.
public struct JSONDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The input is empty, or holds only whitespace (and possibly a byte-order mark).
        case emptyInput
        /// The input holds bytes that are not well-formed UTF-8.
        case invalidUTF8
        /// A character that cannot appear here, such as a comment, a trailing comma or `NaN`.
        case unexpectedCharacter
        /// The input ends inside a value.
        case unexpectedEndOfInput
        /// A malformed number, such as `01`, `1.`, `-` or `1e`.
        case invalidNumber
        /// A backslash escape that JSON does not define, or a `\u` escape without four hex digits.
        case invalidEscape
        /// A `\u` escape of a UTF-16 surrogate that is not part of a high-low pair.
        case loneSurrogate
        /// A raw control character (U+0000 to U+001F) inside a string; it must be escaped.
        case controlCharacterInString
        /// Non-whitespace content after the top-level value.
        case trailingContent
        /// The top-level value is valid JSON but not an object.
        case notAnObject
        /// Arrays and objects are nested deeper than the configured limit.
        case tooDeep
        /// The input is larger than the configured size limit.
        case tooLarge
    }

    /// What went wrong.
    public var code: Code

    /// The byte offset into the input (counting a byte-order mark, if any) where the problem is.
    public var offset: Int?

    /// The character found at ``offset`` for `unexpectedCharacter`, used by ``description`` only.
    var character: Unicode.Scalar?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - offset: The byte offset of the problem in the input, if known.
    public init(code: Code, offset: Int?) {
        self.code = code
        self.offset = offset
        self.character = nil
    }

    init(code: Code, offset: Int, character: Unicode.Scalar?) {
        self.code = code
        self.offset = offset
        self.character = character
    }

    /// A one-line English description, such as `unexpected character '/' at byte 12`.
    public var description: String {
        let what: String
        switch code {
        case .emptyInput: what = "empty input"
        case .invalidUTF8: what = "invalid UTF-8"
        case .unexpectedCharacter:
            if let character {
                if character.value < 0x20 || character.value == 0x7F {
                    let hex = String(character.value, radix: 16, uppercase: true)
                    what = "unexpected character U+" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    what = "unexpected character '\(character)'"
                }
            } else {
                what = "unexpected character"
            }
        case .unexpectedEndOfInput: what = "unexpected end of input"
        case .invalidNumber: what = "invalid number"
        case .invalidEscape: what = "invalid escape sequence"
        case .loneSurrogate: what = "lone UTF-16 surrogate escape"
        case .controlCharacterInString: what = "unescaped control character in string"
        case .trailingContent: what = "unexpected content after the JSON value"
        case .notAnObject: what = "top-level value is not an object"
        case .tooDeep: what = "nesting exceeds the depth limit"
        case .tooLarge: what = "input exceeds the size limit"
        }
        if let offset { return "\(what) at byte \(offset)" }
        return what
    }

    /// Two errors are equal when their codes and offsets are.
    public static func == (lhs: JSONDecodingError, rhs: JSONDecodingError) -> Bool {
        lhs.code == rhs.code && lhs.offset == rhs.offset
    }

    /// Hashes the code and the offset.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(offset)
    }
}
