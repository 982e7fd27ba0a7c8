/// Reads the members of one JSON object with their types checked, reporting problems with the
/// member's path (``JSONMemberError``).
///
/// A member whose value is `null` reads as missing, as Specs/README.md §3 asks of vector inputs. Where `null`
/// has a meaning of its own (`"value": null` clears in a `set` edit, `"htmlDir": null` expects no
/// `dir` attribute), callers read the member with `rawValue(_:)`.
package struct JSONMemberReader {
    /// The object being read.
    package let object: JSONObject
    /// The object's own path; empty for a document.
    package let path: String

    /// Reads `value` as an object, or throws naming `path`.
    package init(_ value: JSONValue, path: String) throws(JSONMemberError) {
        guard case .object(let object) = value else {
            throw JSONMemberError(path: path, message: "expected an object, got \(Self.describe(value))")
        }
        self.object = object
        self.path = path
    }

    /// Reads an object directly.
    package init(object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    /// The path of a member of this object.
    package func path(_ name: String) -> String { Self.join(path, name) }

    /// The path of a member of an object at `path`.
    package static func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : "\(path).\(name)"
    }

    /// The path of an element of an array at `path`.
    package static func join(_ path: String, index: Int) -> String { "\(path)[\(index)]" }

    /// The member's value, `null` included; `nil` only when absent.
    package func rawValue(_ name: String) -> JSONValue? { object[name] }

    /// The member's value; `nil` when absent or `null`.
    package func value(_ name: String) -> JSONValue? {
        guard let value = object[name], value != .null else { return nil }
        return value
    }

    /// The member as a string; `nil` when absent or `null`.
    package func string(_ name: String) throws(JSONMemberError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let string) = value else { throw mismatch(name, "a string", value) }
        return string
    }

    /// The member as a Boolean; `nil` when absent or `null`.
    package func bool(_ name: String) throws(JSONMemberError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard case .bool(let bool) = value else { throw mismatch(name, "true or false", value) }
        return bool
    }

    /// The member as a finite number; `nil` when absent or `null`.
    package func number(_ name: String) throws(JSONMemberError) -> Double? {
        guard let value = value(name) else { return nil }
        guard case .number(let number) = value else { throw mismatch(name, "a number", value) }
        guard number.isFinite else {
            throw JSONMemberError(path: path(name), message: "\(number.text) is not a finite number")
        }
        return number.doubleValue
    }

    /// The member as an object; `nil` when absent or `null`.
    package func object(_ name: String) throws(JSONMemberError) -> JSONObject? {
        guard let value = value(name) else { return nil }
        guard case .object(let object) = value else { throw mismatch(name, "an object", value) }
        return object
    }

    /// The member as an array; `nil` when absent or `null`.
    package func array(_ name: String) throws(JSONMemberError) -> [JSONValue]? {
        guard let value = value(name) else { return nil }
        guard case .array(let array) = value else { throw mismatch(name, "an array", value) }
        return array
    }

    /// The member as an array of strings; `nil` when absent or `null`.
    package func strings(_ name: String) throws(JSONMemberError) -> [String]? {
        guard let elements = try array(name) else { return nil }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element else {
                throw JSONMemberError(
                    path: Self.join(path(name), index: index),
                    message: "expected a string, got \(Self.describe(element))")
            }
            result.append(string)
        }
        return result
    }

    /// The member as one of an enumeration's raw values; `nil` when absent or `null`.
    package func choice<Choice: RawRepresentable & CaseIterable>(
        _ name: String, _ type: Choice.Type
    ) throws(JSONMemberError) -> Choice? where Choice.RawValue == String {
        guard let string = try string(name) else { return nil }
        guard let choice = Choice(rawValue: string) else {
            throw JSONMemberError(
                path: path(name),
                message:
                    "expected \(Self.alternatives(Choice.allCases.map(\.rawValue))), got \(Self.quoted(string))"
            )
        }
        return choice
    }

    /// Throws unless the member is present and not `null`.
    package func required(_ name: String, _ what: String) throws(JSONMemberError) -> JSONValue {
        guard let value = value(name) else {
            throw JSONMemberError(path: path(name), message: "missing (\(what))")
        }
        return value
    }

    package func mismatch(_ name: String, _ expected: String, _ value: JSONValue) -> JSONMemberError {
        JSONMemberError(path: path(name), message: "expected \(expected), got \(Self.describe(value))")
    }

    /// A value for a message: its JSON type, with the value itself when it is short.
    package static func describe(_ value: JSONValue) -> String {
        switch value {
        case .array, .object: return value.typeName
        default:
            let text = value.jsonString()
            return text.count <= 40 ? "\(value.typeName) \(text)" : value.typeName
        }
    }

    /// A string in double quotes, as JSON writes it.
    package static func quoted(_ string: String) -> String { JSONValue.string(string).jsonString() }

    /// `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
    package static func alternatives(_ names: [String]) -> String {
        let quoted = names.map(Self.quoted)
        guard let last = quoted.last else { return "nothing" }
        guard quoted.count > 1 else { return last }
        return quoted.dropLast().joined(separator: ", ") + " or " + last
    }
}
