/// The canonical form of a value (`Specs/Sync.md`): compact, members sorted by key bytes,
/// strings escaped only where JSON requires, numbers as written. Two replicas in any language
/// that hold the same value write the same canonical text, so sync compares and orders values
/// by it.
extension JSONValue {
    /// The canonical JSON text.
    package var canonicalText: String {
        jsonString(options: JSONEncodingOptions(sortedKeys: true))
    }

    /// Whether two values have the same canonical text: JSON equality, except that numbers
    /// compare by their text (`1.5` and `1.50` differ), as a person editing a file sees them.
    /// Nested values are compared with a work list, never by recursion.
    package func isWrittenAlike(_ other: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = [(self, other)]
        while let (left, right) = pending.popLast() {
            switch (left, right) {
            case (.null, .null): continue
            case (.bool(let a), .bool(let b)): if a != b { return false }
            case (.number(let a), .number(let b)): if !a.hasSameText(as: b) { return false }
            case (.string(let a), .string(let b)): if !a.isScalarEqual(to: b) { return false }
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                for index in a.indices { pending.append((a[index], b[index])) }
            case (.object(let a), .object(let b)):
                guard a.count == b.count else { return false }
                let lookup = JSONObjectLookup(b)
                for member in a.members {
                    guard let position = lookup.position(of: member.key) else { return false }
                    pending.append((member.value, b.members[position].value))
                }
            default: return false
            }
        }
        return true
    }
}
