import Foundation

// SPEC 7: nested configuration (`{"reader": {"sidebar": {"width": 300}}}`) as dotted keys
// (`reader.sidebar.width`), array elements as `.0`, `.1`, a dot inside a key escaped as `\.`
// (and a backslash as `\\`) so that the round trip is lossless.
extension Preferences {
    /// Flattens nested objects and arrays into dotted keys.
    ///
    /// ```swift
    /// let flat = try Preferences(json: #"{"reader": {"sidebar": {"width": 300}}, "a.b": 1}"#).flattened()
    /// flat.keys   // ["reader.sidebar.width", "a\\.b"]
    /// ```
    ///
    /// Empty objects and arrays stay as values, so nothing is lost.
    public func flattened() -> Preferences {
        var result = Preferences()
        for member in members {
            Self.flatten(member.value, path: Self.escape(member.key), into: &result)
        }
        return result
    }

    /// Nests dotted keys back into objects (and arrays, where every child key is an index
    /// 0, 1, 2...): the inverse of ``flattened()``.
    public func nested() -> Preferences {
        var root = JSONObject()
        for member in members {
            let path = Self.split(member.key)
            guard let first = path.first else { continue }
            root[first] = Self.insert(member.value, at: path.dropFirst(), into: root[first])
        }
        return Preferences(
            JSONObject(members: root.members.map { .init(key: $0.key, value: Self.arrays($0.value)) }))
    }

    /// Decodes a JSON document and flattens it (see ``flattened()``).
    public init(flatteningJSON data: Data, options: JSONParsingOptions = .init()) throws(JSONDecodingError) {
        self = try Preferences(json: data, options: options).flattened()
    }

    /// Encodes the preferences with dotted keys nested back into objects.
    public func nestedJSONData(options: JSONEncodingOptions = .init()) -> Data {
        nested().jsonData(options: options)
    }

    private static func flatten(_ value: JSONValue, path: String, into result: inout Preferences) {
        switch value {
        case .object(let object) where !object.isEmpty:
            for member in object.members {
                flatten(member.value, path: path + "." + escape(member.key), into: &result)
            }
        case .array(let elements) where !elements.isEmpty:
            for (index, element) in elements.enumerated() {
                flatten(element, path: path + "." + String(index), into: &result)
            }
        default:
            result[path] = value
        }
    }

    static func escape(_ key: String) -> String {
        guard key.contains(where: { $0 == "." || $0 == "\\" }) else { return key }
        var escaped = ""
        for character in key {
            if character == "." || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    static func split(_ key: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in key {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "." {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { current.append("\\") }
        parts.append(current)
        return parts
    }

    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into existing: JSONValue?)
        -> JSONValue
    {
        guard let first = path.first else { return value }
        var object: JSONObject
        if case .object(let current)? = existing { object = current } else { object = JSONObject() }
        object[first] = insert(value, at: path.dropFirst(), into: object[first])
        return .object(object)
    }

    /// Turns objects whose keys are exactly "0", "1", ... into arrays, recursively.
    private static func arrays(_ value: JSONValue) -> JSONValue {
        guard case .object(let object) = value else { return value }
        let converted = object.members.map { JSONObject.Member(key: $0.key, value: arrays($0.value)) }
        let isArray =
            !converted.isEmpty && converted.enumerated().allSatisfy { $0.element.key == String($0.offset) }
        if isArray { return .array(converted.map(\.value)) }
        return .object(JSONObject(members: converted))
    }
}
