import Foundation

/// A JSON value that keeps everything a document says: member order, number text, exact keys.
///
/// Parse with `init(json:options:)` and write with ``jsonString(options:)``.
/// Equality is JSON equality: strings compare by Unicode scalars (not Swift's canonical
/// equivalence), numbers by numeric value (`1 == 1.0`), and objects ignore member order.
///
/// ```swift
/// let value = try JSONValue(json: #"{"theme":"dark","fontSize":1.50,"x":[1e400,null]}"#)
/// value.objectValue?["theme"]?.stringValue     // "dark"
/// value.jsonString()                           // {"theme":"dark","fontSize":1.50,"x":[1e400,null]}
///
/// let built: JSONValue = ["scroll": true, "columns": 2, "tags": ["a", "b"], "none": nil]
/// ```
public enum JSONValue: Sendable, Hashable {
    /// The JSON `null`.
    case null
    /// A JSON `true` or `false`.
    case bool(Bool)
    /// A JSON number, with its source text.
    case number(JSONNumber)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object, with its member order.
    case object(JSONObject)
}

extension JSONValue {
    /// The JSON type's name: `"null"`, `"boolean"`, `"number"`, `"string"`, `"array"` or `"object"`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The Boolean, when the value is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The string, when the value is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when the value is a number.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The elements, when the value is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, when the value is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

// MARK: - Parsing and writing

extension JSONValue {
    /// Parses a JSON document of any type from UTF-8 data.
    ///
    /// A leading byte-order mark is skipped. Invalid UTF-8, lone surrogate escapes, control
    /// characters in strings, comments, trailing commas, `NaN` and `Infinity`, and content after
    /// the value are errors, each with its byte offset.
    ///
    /// ```swift
    /// let value = try JSONValue(json: Data(#"[1, "two", null]"#.utf8))
    /// ```
    ///
    /// - Parameters:
    ///   - data: The UTF-8 encoded document.
    ///   - options: Depth and size limits.
    /// - Throws: ``JSONDecodingError`` naming the problem and its byte offset.
    public init(json data: Data, options: JSONParsingOptions = .init()) throws(JSONDecodingError) {
        let outcome: Result<JSONValue, JSONDecodingError> = data.withUnsafeBytes { raw in
            Self.capture { () throws(JSONDecodingError) in
                try JSONParser.parseDocument(raw.bindMemory(to: UInt8.self), options: options)
            }
        }
        self = try Self.unwrap(outcome)
    }

    /// Parses a JSON document of any type from a string.
    ///
    /// ```swift
    /// let value = try JSONValue(json: #"{"theme": "dark"}"#)
    /// ```
    ///
    /// - Parameters:
    ///   - string: The document.
    ///   - options: Depth and size limits (the size is the string's UTF-8 byte count).
    /// - Throws: ``JSONDecodingError`` naming the problem and its byte offset in the UTF-8 form.
    public init(json string: String, options: JSONParsingOptions = .init()) throws(JSONDecodingError) {
        var copy = string
        let outcome: Result<JSONValue, JSONDecodingError> = copy.withUTF8 { bytes in
            Self.capture { () throws(JSONDecodingError) in
                try JSONParser.parseDocument(bytes, options: options)
            }
        }
        self = try Self.unwrap(outcome)
    }

    /// Parses a JSON document of any type from UTF-8 bytes.
    ///
    /// ```swift
    /// let value = try JSONValue(json: Array("true".utf8))
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 encoded document.
    ///   - options: Depth and size limits.
    /// - Throws: ``JSONDecodingError`` naming the problem and its byte offset.
    public init(json bytes: [UInt8], options: JSONParsingOptions = .init()) throws(JSONDecodingError) {
        let outcome: Result<JSONValue, JSONDecodingError> = bytes.withUnsafeBufferPointer { buffer in
            Self.capture { () throws(JSONDecodingError) in
                try JSONParser.parseDocument(buffer, options: options)
            }
        }
        self = try Self.unwrap(outcome)
    }

    /// Writes the value as JSON text.
    ///
    /// Compact by default; numbers are written as their text, and a non-finite synthesized
    /// number as `null`.
    ///
    /// ```swift
    /// let value: JSONValue = ["b": [true, nil], "a": 1]
    /// value.jsonString()                                         // {"b":[true,null],"a":1}
    /// value.jsonString(options: .init(sortedKeys: true))         // {"a":1,"b":[true,null]}
    /// ```
    ///
    /// - Parameter options: Key sorting and pretty printing.
    /// - Returns: The JSON text.
    public func jsonString(options: JSONEncodingOptions = .init()) -> String {
        JSONWriter.write(self, options: options) { $0.string() }
    }

    /// Writes the value as UTF-8 encoded JSON.
    ///
    /// ```swift
    /// let data = JSONValue.object(["theme": "dark"]).jsonData()
    /// ```
    ///
    /// - Parameter options: Key sorting and pretty printing.
    /// - Returns: The UTF-8 bytes of the JSON text.
    public func jsonData(options: JSONEncodingOptions = .init()) -> Data {
        JSONWriter.write(self, options: options) { $0.data() }
    }

    /// Runs a typed-throwing body inside a non-throwing closure (the `withUnsafe...` APIs only
    /// rethrow untyped errors), keeping the error's type.
    private static func capture<T>(
        _ body: () throws(JSONDecodingError) -> T
    ) -> Result<T, JSONDecodingError> {
        do throws(JSONDecodingError) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }

    private static func unwrap<T>(_ outcome: Result<T, JSONDecodingError>) throws(JSONDecodingError) -> T {
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}

// MARK: - Equality and hashing

extension JSONValue {
    /// JSON equality: strings by Unicode scalars, numbers by value, objects in any order.
    ///
    /// Nested values are compared with an explicit work list, not by recursion, so comparing
    /// deeply nested values cannot overflow the stack.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = []
        var left = lhs
        var right = rhs
        while true {
            switch (left, right) {
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                for index in a.indices {
                    guard let same = shallowEquality(a[index], b[index]) else {
                        pending.append((a[index], b[index]))
                        continue
                    }
                    if !same { return false }
                }
            case (.object(let a), .object(let b)):
                guard a.count == b.count else { return false }
                let lookup = JSONObjectLookup(b)
                for member in a.members {
                    guard let position = lookup.position(of: member.key) else { return false }
                    let other = b.members[position].value
                    guard let same = shallowEquality(member.value, other) else {
                        pending.append((member.value, other))
                        continue
                    }
                    if !same { return false }
                }
            default:
                guard let same = shallowEquality(left, right), same else { return false }
            }
            guard let next = pending.popLast() else { return true }
            (left, right) = next
        }
    }

    /// Compares two values when at least one is not a container; returns nil when both are
    /// arrays or both are objects, which need a deeper look.
    @inline(__always)
    private static func shallowEquality(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool? {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a.isScalarEqual(to: b)
        case (.array, .array), (.object, .object): nil
        default: false
        }
    }

    /// Hashes the value consistently with `==`.
    ///
    /// Only the value and its direct children are hashed (a child container contributes its
    /// type and count), so hashing never recurses and cannot overflow the stack on deep values;
    /// equal values still always hash alike, and `==` settles any collision.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .array(let elements):
            hasher.combine(4 as UInt8)
            hasher.combine(elements.count)
            for element in elements { element.shallowHash(into: &hasher) }
        case .object(let object):
            hasher.combine(5 as UInt8)
            object.hashMembers(into: &hasher)
        default:
            shallowHash(into: &hasher)
        }
    }

    /// Hashes a scalar fully, and a container by its type and count only.
    func shallowHash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .number(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .string(let value):
            // String's hash is by canonical equivalence, which scalar-equal strings share.
            hasher.combine(3 as UInt8)
            hasher.combine(value)
        case .array(let value):
            hasher.combine(4 as UInt8)
            hasher.combine(value.count)
        case .object(let value):
            hasher.combine(5 as UInt8)
            hasher.combine(value.count)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of the value.
    public var description: String { jsonString() }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates an integer number.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates a number with the canonical text of the `Double`.
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates a string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object; a repeated key keeps its last value at its first position.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(members: elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}
