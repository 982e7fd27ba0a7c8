import Foundation

// Specs/Resolution.md §9.5: nested configuration (`{"reader": {"sidebar": {"width": 300}}}`) as dotted keys
// (`reader.sidebar.width`), array elements as `.0`, `.1`, a dot inside a key escaped as `\.`
// (and a backslash as `\\`) so that the round trip is lossless. A nested object key that reads
// as an array index (`"0"`, `"12"`) is written `\0`, `\12`, so it nests back into an object, not
// an array.
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
        var flat: [JSONObject.Member] = []
        for member in members {
            // The top level is always an object, so its index-like keys need no marker.
            Self.flatten(member.value, path: Self.escape(member.key, marksIndex: false), into: &flat)
        }
        return Preferences(members: flat)
    }

    /// Nests dotted keys back into objects (and arrays, where the child keys are the unescaped
    /// indices 0, 1, 2... in order): the inverse of ``flattened()``.
    public func nested() -> Preferences {
        var root = KeyPathNode()
        for member in members {
            let path = Self.split(member.key)
            // Deeper than any document the parser accepts: kept as one key rather than nested,
            // so a key of a million dots cannot exhaust the stack.
            guard path.count <= JSONParsingOptions().maxDepth else {
                root.insert(member.value, at: [KeyPathComponent(member.key, escaped: true)])
                continue
            }
            root.insert(member.value, at: path[...])
        }
        return Preferences(root.object)
    }

    /// Decodes a JSON document and flattens it (see ``flattened()``).
    public init(flatteningJSON data: Data, options: JSONParsingOptions = .init()) throws(JSONDecodingError) {
        self = try Preferences(json: data, options: options).flattened()
    }

    /// Encodes the preferences with dotted keys nested back into objects.
    public func nestedJSONData(options: JSONEncodingOptions = .init()) -> Data {
        nested().jsonData(options: options)
    }

    private static func flatten(_ value: JSONValue, path: String, into result: inout [JSONObject.Member]) {
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
            result.append(JSONObject.Member(key: path, value: value))
        }
    }

    /// An object key as one path component: dots and backslashes escaped, and (below the top
    /// level) a leading backslash on a key that would read as an array index.
    static func escape(_ key: String, marksIndex: Bool = true) -> String {
        if marksIndex && KeyPathComponent.isIndex(key) { return "\\" + key }
        guard key.contains(where: { $0 == "." || $0 == "\\" }) else { return key }
        var escaped = ""
        for character in key {
            if character == "." || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    static func split(_ key: String) -> [KeyPathComponent] {
        var parts: [KeyPathComponent] = []
        var current = ""
        var escaping = false
        var hadEscape = false
        for character in key {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
                hadEscape = true
            } else if character == "." {
                parts.append(KeyPathComponent(current, escaped: hadEscape))
                current = ""
                hadEscape = false
            } else {
                current.append(character)
            }
        }
        if escaping { current.append("\\") }
        parts.append(KeyPathComponent(current, escaped: hadEscape))
        return parts
    }
}

/// One component of a dotted key: an object key, or an array index when it is an unescaped
/// canonical index (`0`, `1`, `12`, not `01`).
struct KeyPathComponent {
    var name: String
    var isIndex: Bool

    init(_ name: String, escaped: Bool) {
        self.name = name
        isIndex = !escaped && Self.isIndex(name)
    }

    static func isIndex(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return false
        }
        return first != 0x30 || name.utf8.count == 1
    }
}

/// A tree of values being nested; the last write to a path wins, as in an object.
private struct KeyPathNode {
    var value: JSONValue?
    var children: [(name: String, isIndex: Bool, node: KeyPathNode)] = []
    var positions: [JSONScalarKey: Int] = [:]

    mutating func insert(_ newValue: JSONValue, at path: ArraySlice<KeyPathComponent>) {
        guard let first = path.first else {
            self = KeyPathNode(value: newValue)
            return
        }
        value = nil
        if let position = positions[JSONScalarKey(first.name)] {
            children[position].isIndex = children[position].isIndex && first.isIndex
            children[position].node.insert(newValue, at: path.dropFirst())
        } else {
            var child = KeyPathNode()
            child.insert(newValue, at: path.dropFirst())
            positions[JSONScalarKey(first.name)] = children.count
            children.append((first.name, first.isIndex, child))
        }
    }

    /// The children as an object, their keys in first-insertion order.
    var object: JSONObject {
        JSONObject(members: children.map { .init(key: $0.name, value: $0.node.json) })
    }

    var json: JSONValue {
        if let value { return value }
        let isArray = children.enumerated().allSatisfy {
            $0.element.isIndex && $0.element.name == String($0.offset)
        }
        if isArray { return .array(children.map(\.node.json)) }
        return .object(object)
    }
}
