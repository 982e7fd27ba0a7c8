/// Reads a JSON document piece by piece, for formats whose structure is known (the store's sync
/// files): the caller walks objects key by key and reads each value into its final type, so a
/// large document never becomes a `JSONValue` tree first. Time and memory stay linear in the
/// input, and a value nested inside is parsed with the same limits as any document.
///
/// ```swift
/// try JSONPullReader.read(data, maxDepth: 520) { reader in
///     try reader.beginObject()
///     while let key = try reader.nextKey() {
///         let value = try reader.readValue()     // or reader.skipValue()
///     }
///     try reader.expectEnd()
/// }
/// ```
package struct JSONPullReader: ~Copyable {
    /// The kind of the value at the cursor.
    package enum Kind: Sendable, Equatable {
        case object, array, string, number, bool, null
    }

    private var state: JSONParserState
    /// The depth of the container the cursor is in (0 at the top level).
    package private(set) var depth = 0
    /// Whether the innermost open object has not read a key yet.
    private var atFirstMember = false

    private init(_ state: JSONParserState) { self.state = state }

    /// Runs `body` with a reader over a document's bytes.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - maxDepth: The deepest nesting accepted anywhere in the document.
    ///   - maxSize: The largest document accepted, in bytes.
    ///   - body: Reads the document.
    /// - Returns: What `body` returns.
    /// - Throws: `JSONDecodingError` for malformed input, or what `body` throws.
    package static func read<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, maxSize: Int,
        _ body: (inout JSONPullReader) throws -> Result
    ) throws -> Result {
        let state = try JSONParserState(
            bytes, options: JSONParsingOptions(maxDepth: maxDepth, maxSize: maxSize))
        var reader = JSONPullReader(state)
        return try body(&reader)
    }

    /// The byte offset of the cursor, for messages.
    package var offset: Int { state.position }

    /// The kind of the next value, after whitespace; `nil` at the end of the input or before a
    /// byte that cannot start a value.
    package mutating func peek() -> Kind? {
        state.skipWhitespace()
        guard state.position < state.end else { return nil }
        switch state.bytes[state.position] {
        case JSONByte.openBrace: return .object
        case JSONByte.openBracket: return .array
        case JSONByte.quote: return .string
        case JSONByte.minus, 0x30...0x39: return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: return nil
        }
    }

    /// The number of members of the object at the cursor, counted by a scan that builds
    /// nothing and leaves the cursor where it is, so a caller can reserve room for them: linear
    /// in the object's size. `nil` when the cursor is not on an object or it is not closed.
    package mutating func countMembers() -> Int? {
        state.skipWhitespace()
        let bytes = state.bytes
        var index = state.position
        guard index < state.end, bytes[index] == JSONByte.openBrace else { return nil }
        index += 1
        var depth = 0
        var members = 0
        var empty = true
        while index < state.end {
            let byte = bytes[index]
            index += 1
            switch byte {
            case JSONByte.quote:
                empty = false
                // Skip the string: a backslash escapes the next byte.
                while index < state.end, bytes[index] != JSONByte.quote {
                    index += bytes[index] == JSONByte.backslash ? 2 : 1
                }
                index += 1
            case JSONByte.openBrace, JSONByte.openBracket:
                empty = false
                depth += 1
            case JSONByte.closeBrace, JSONByte.closeBracket:
                if depth == 0 { return empty ? 0 : members + 1 }
                depth -= 1
            case JSONByte.comma:
                if depth == 0 { members += 1 }
            case 0x20, 0x0A, 0x0D, 0x09:
                break
            default:
                empty = false
            }
        }
        return nil
    }

    /// Steps into the object at the cursor; read its members with ``nextKey()``.
    package mutating func beginObject() throws(JSONDecodingError) {
        try enter(JSONByte.openBrace)
        atFirstMember = true
    }

    /// Steps into the container that `open` starts, at the cursor.
    private mutating func enter(_ open: UInt8) throws(JSONDecodingError) {
        state.skipWhitespace()
        guard state.position < state.end, state.bytes[state.position] == open else {
            throw state.unexpected(at: state.position)
        }
        guard depth + 1 <= state.maxDepth else {
            throw JSONDecodingError(code: .tooDeep, offset: state.position)
        }
        state.position += 1
        depth += 1
    }

    /// The next member's key, with the cursor on its value; `nil` when the object ends (the
    /// cursor is then after its `}`).
    package mutating func nextKey() throws(JSONDecodingError) -> String? {
        state.skipWhitespace()
        guard state.position < state.end else { throw state.unexpected(at: state.position) }
        let byte = state.bytes[state.position]
        if byte == JSONByte.closeBrace {
            state.position += 1
            depth -= 1
            atFirstMember = false
            return nil
        }
        if atFirstMember {
            atFirstMember = false
        } else {
            guard byte == JSONByte.comma else { throw state.unexpected(at: state.position) }
            state.position += 1
        }
        let key = try state.parseKey().string
        state.skipWhitespace()
        return key
    }

    /// Steps into the array at the cursor; step through its elements with
    /// ``nextElement(isFirst:)``.
    ///
    /// - Throws: `JSONDecodingError` when the cursor is not on an array, or it is too deep.
    package mutating func beginArray() throws(JSONDecodingError) {
        try enter(JSONByte.openBracket)
    }

    /// Moves the cursor onto the array's next element and returns `true`, or past its `]` and
    /// returns `false` when the array ends.
    ///
    /// - Parameter isFirst: Whether no element of this array was stepped onto yet.
    /// - Returns: Whether the cursor is on an element.
    /// - Throws: `JSONDecodingError` for malformed input.
    package mutating func nextElement(isFirst: Bool) throws(JSONDecodingError) -> Bool {
        state.skipWhitespace()
        guard state.position < state.end else { throw state.unexpected(at: state.position) }
        if state.bytes[state.position] == JSONByte.closeBracket {
            state.position += 1
            depth -= 1
            return false
        }
        if !isFirst {
            guard state.bytes[state.position] == JSONByte.comma else {
                throw state.unexpected(at: state.position)
            }
            state.position += 1
        }
        state.skipWhitespace()
        return true
    }

    /// Reads the value at the cursor whole.
    package mutating func readValue() throws(JSONDecodingError) -> JSONValue {
        state.skipWhitespace()
        return try state.parseValue(parentDepth: depth)
    }

    /// Steps over the value at the cursor.
    package mutating func skipValue() throws(JSONDecodingError) {
        _ = try readValue()
    }

    /// Requires that nothing but whitespace follows.
    package mutating func expectEnd() throws(JSONDecodingError) {
        try state.expectEndOfInput()
    }
}
