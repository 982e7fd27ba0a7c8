/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Design notes:
/// - It never recurses. Nested arrays and objects are built on explicit stacks, so input nested
///   100,000 levels deep throws `tooDeep` instead of overflowing the thread's stack.
/// - It reads an `UnsafeBufferPointer` with small `@inline(__always)` helpers, so the hot loops
///   compile to plain byte compares with no bounds checks or calls per byte.
/// - Strings without escapes or non-ASCII bytes go straight from the input slice to a `String`;
///   keys and short values (up to 15 UTF-8 bytes) become small strings, with no allocation.
/// - Numbers keep their source text and get a correctly rounded `Double` (fast exact path for
///   common numbers, `Double(String)` for the rest).
enum JSONParser {
    /// Parses a whole document whose top level must be an object (else `.notAnObject` with
    /// the offset of the value).
    ///
    /// Returns members in first-occurrence order (for a duplicate key the last value wins, kept
    /// at the first position) and the duplicated top-level keys (each once, in order of first
    /// duplication). Duplicates in nested objects follow the same rule silently.
    static func parseObjectDocument(
        _ bytes: UnsafeBufferPointer<UInt8>, options: JSONParsingOptions, strings: JSONStringTable? = nil
    ) throws(JSONDecodingError) -> (members: [JSONObject.Member], duplicateKeys: [String]) {
        var parser = try JSONParserState(bytes, options: options, strings: strings)
        let result = try parser.parseTopLevelObject()
        try parser.expectEndOfInput()
        return result
    }

    /// Parses a whole document of any JSON type.
    static func parseDocument(
        _ bytes: UnsafeBufferPointer<UInt8>, options: JSONParsingOptions
    ) throws(JSONDecodingError) -> JSONValue {
        var parser = try JSONParserState(bytes, options: options)
        let value = try parser.parseValue(parentDepth: 0)
        try parser.expectEndOfInput()
        return value
    }
}

/// ASCII bytes the parser and the writer look for, as constants the optimizer folds.
enum JSONByte {
    @inline(__always) static var quote: UInt8 { 0x22 }  // "
    @inline(__always) static var backslash: UInt8 { 0x5C }  // \
    @inline(__always) static var openBrace: UInt8 { 0x7B }  // {
    @inline(__always) static var closeBrace: UInt8 { 0x7D }  // }
    @inline(__always) static var openBracket: UInt8 { 0x5B }  // [
    @inline(__always) static var closeBracket: UInt8 { 0x5D }  // ]
    @inline(__always) static var colon: UInt8 { 0x3A }  // :
    @inline(__always) static var comma: UInt8 { 0x2C }  // ,
    @inline(__always) static var minus: UInt8 { 0x2D }  // -
    @inline(__always) static var plus: UInt8 { 0x2B }  // +
    @inline(__always) static var zero: UInt8 { 0x30 }  // 0
    @inline(__always) static var period: UInt8 { 0x2E }  // .
}

/// The parsing state: the input, a cursor and a reusable buffer for strings with escapes.
struct JSONParserState {
    let bytes: UnsafeBufferPointer<UInt8>
    let end: Int
    let maxDepth: Int
    /// Strings handed out shared instead of built (the vocabulary of the known configurables).
    let strings: JSONStringTable?
    var position: Int
    /// Reused for every string that has escapes, so unescaping allocates at most once.
    var scratch: [UInt8] = []

    /// Checks the size limit, skips a byte-order mark and leading whitespace, and rejects empty
    /// input.
    init(
        _ bytes: UnsafeBufferPointer<UInt8>, options: JSONParsingOptions, strings: JSONStringTable? = nil
    ) throws(JSONDecodingError) {
        self.bytes = bytes
        self.strings = strings
        self.end = bytes.count
        self.maxDepth = options.effectiveMaxDepth
        self.position = 0
        if bytes.count > options.maxSize {
            throw JSONDecodingError(code: .tooLarge, offset: Swift.max(options.maxSize, 0))
        }
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
        skipWhitespace()
        if position == end {
            throw JSONDecodingError(code: .emptyInput, offset: end)
        }
    }

    // MARK: Cursor helpers

    @inline(__always)
    mutating func skipWhitespace() {
        while position < end {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Throws `trailingContent` unless only whitespace follows.
    mutating func expectEndOfInput() throws(JSONDecodingError) {
        skipWhitespace()
        if position < end {
            throw JSONDecodingError(code: .trailingContent, offset: position)
        }
    }

    /// The error for a byte that cannot appear at `offset` (end of input included).
    func unexpected(at offset: Int) -> JSONDecodingError {
        guard offset < end else {
            return JSONDecodingError(code: .unexpectedEndOfInput, offset: end)
        }
        let byte = bytes[offset]
        if byte < 0x80 {
            return JSONDecodingError(
                code: .unexpectedCharacter, offset: offset, character: Unicode.Scalar(byte))
        }
        // A non-ASCII character outside a string: name it if it is valid UTF-8.
        guard let scalar = decodeScalar(at: offset) else {
            return JSONDecodingError(code: .invalidUTF8, offset: offset)
        }
        return JSONDecodingError(code: .unexpectedCharacter, offset: offset, character: scalar)
    }

    /// Requires `byte` at the cursor (after whitespace) and steps over it.
    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(JSONDecodingError) {
        skipWhitespace()
        guard position < end, bytes[position] == byte else { throw unexpected(at: position) }
        position += 1
    }

    // MARK: Values

    /// Parses the top-level object, tracking duplicate keys.
    mutating func parseTopLevelObject() throws(JSONDecodingError)
        -> (members: [JSONObject.Member], duplicateKeys: [String])
    {
        let first = bytes[position]
        guard first == JSONByte.openBrace else {
            if Self.startsValue(first) {
                throw JSONDecodingError(code: .notAnObject, offset: position)
            }
            throw unexpected(at: position)
        }
        if maxDepth < 1 { throw JSONDecodingError(code: .tooDeep, offset: position) }
        position += 1
        var builder = JSONObjectBuilder(capacity: 16)
        var duplicates: [String] = []
        var isDuplicated: [Bool] = []
        skipWhitespace()
        if position < end, bytes[position] == JSONByte.closeBrace {
            position += 1
            return (builder.members, duplicates)
        }
        while true {
            let (key, fingerprint) = try parseKey()
            skipWhitespace()
            let value = try parseValue(parentDepth: 1)
            // Each duplicated key is reported once, in order of first duplication: a flag per
            // member position keeps that linear however many times keys repeat.
            let (memberIndex, existed) = builder.insertReportingPosition(
                key: key, fingerprint: fingerprint, value: value)
            if existed {
                if isDuplicated.count <= memberIndex {
                    isDuplicated.append(
                        contentsOf: repeatElement(false, count: memberIndex + 1 - isDuplicated.count))
                }
                if !isDuplicated[memberIndex] {
                    isDuplicated[memberIndex] = true
                    duplicates.append(key)
                }
            }
            skipWhitespace()
            guard position < end else { throw unexpected(at: position) }
            let byte = bytes[position]
            position += 1
            if byte == JSONByte.comma { continue }
            if byte == JSONByte.closeBrace { return (builder.members, duplicates) }
            throw unexpected(at: position - 1)
        }
    }

    /// Parses `"key"` and the following `:`, skipping whitespace before each.
    @inline(__always)
    mutating func parseKey() throws(JSONDecodingError) -> (string: String, fingerprint: UInt64) {
        skipWhitespace()
        guard position < end, bytes[position] == JSONByte.quote else { throw unexpected(at: position) }
        let key = try parseString(fingerprinted: true)
        try expect(JSONByte.colon)
        return key
    }

    /// Whether `byte` can start a JSON value (used to tell "not an object" from garbage).
    static func startsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case JSONByte.openBrace, JSONByte.openBracket, JSONByte.quote, JSONByte.minus, 0x30...0x39,
            UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            true
        default: false
        }
    }

    /// Parses the value at the cursor (whitespace already skipped) inside a container at
    /// `parentDepth` (0 at the top level).
    @inline(__always)
    mutating func parseValue(parentDepth: Int) throws(JSONDecodingError) -> JSONValue {
        guard position < end else { throw unexpected(at: position) }
        switch bytes[position] {
        case JSONByte.quote: return .string(try parseString())
        case JSONByte.openBrace, JSONByte.openBracket: return try parseContainer(depth: parentDepth + 1)
        default: return try parseScalar()
        }
    }

    /// Parses a number or a literal at the cursor.
    mutating func parseScalar() throws(JSONDecodingError) -> JSONValue {
        guard position < end else { throw unexpected(at: position) }
        switch bytes[position] {
        case JSONByte.quote: return .string(try parseString())
        case JSONByte.minus, 0x30...0x39: return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        default: throw unexpected(at: position)
        }
    }

    /// Steps over `literal`, which must be spelled exactly at the cursor.
    mutating func parseLiteral(_ literal: StaticString) throws(JSONDecodingError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for index in 0..<count {
            guard position < end, bytes[position] == start[index] else { throw unexpected(at: position) }
            position += 1
        }
    }

    /// Parses the array or object at the cursor, whose depth is `depth`, with explicit stacks.
    ///
    /// The containers being filled live in `arrays` and `objects`; `kinds` records which one is
    /// innermost at each level. A finished value is appended to the innermost container in place
    /// (`arrays[last].append` goes through Array's in-place accessor, so nothing is copied).
    mutating func parseContainer(depth: Int) throws(JSONDecodingError) -> JSONValue {
        var arrays: [[JSONValue]] = []
        var objects: [JSONPendingObject] = []
        var kinds: [Bool] = []  // true: object
        var value: JSONValue
        while true {
            // The cursor is at the start of a value.
            guard position < end else { throw unexpected(at: position) }
            let byte = bytes[position]
            if byte == JSONByte.openBracket || byte == JSONByte.openBrace {
                if depth + kinds.count > maxDepth {
                    throw JSONDecodingError(code: .tooDeep, offset: position)
                }
                position += 1
                skipWhitespace()
                if byte == JSONByte.openBracket {
                    if position < end, bytes[position] == JSONByte.closeBracket {
                        position += 1
                        value = .array([])
                    } else {
                        arrays.append([])
                        kinds.append(false)
                        continue
                    }
                } else {
                    if position < end, bytes[position] == JSONByte.closeBrace {
                        position += 1
                        value = .object(JSONObject())
                    } else {
                        let (key, fingerprint) = try parseKey()
                        skipWhitespace()
                        objects.append(JSONPendingObject(key: key, fingerprint: fingerprint))
                        kinds.append(true)
                        continue
                    }
                }
            } else if byte == JSONByte.quote {
                value = .string(try parseString())
            } else {
                value = try parseScalar()
            }
            // Attach the finished value to its container, closing containers as they end.
            attach: while let isObject = kinds.last {
                skipWhitespace()
                guard position < end else { throw unexpected(at: position) }
                let next = bytes[position]
                position += 1
                if isObject {
                    objects[objects.count - 1].addPending(value)
                    if next == JSONByte.comma {
                        let (key, fingerprint) = try parseKey()
                        objects[objects.count - 1].key = key
                        objects[objects.count - 1].fingerprint = fingerprint
                        skipWhitespace()
                        break attach
                    }
                    guard next == JSONByte.closeBrace else { throw unexpected(at: position - 1) }
                    kinds.removeLast()
                    value = .object(JSONObject(uniqueMembers: objects.removeLast().builder.members))
                } else {
                    arrays[arrays.count - 1].append(value)
                    if next == JSONByte.comma {
                        skipWhitespace()
                        break attach
                    }
                    guard next == JSONByte.closeBracket else { throw unexpected(at: position - 1) }
                    kinds.removeLast()
                    value = .array(arrays.removeLast())
                }
            }
            if kinds.isEmpty { return value }
        }
    }
}

/// An object being parsed: its members so far and the key whose value is being parsed.
struct JSONPendingObject {
    var builder = JSONObjectBuilder(capacity: 0)
    var key: String
    var fingerprint: UInt64

    init(key: String, fingerprint: UInt64) {
        self.key = key
        self.fingerprint = fingerprint
    }

    mutating func addPending(_ value: JSONValue) {
        _ = builder.insert(key: key, fingerprint: fingerprint, value: value)
    }
}
