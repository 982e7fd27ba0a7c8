import ReadingPreferences

/// Changes of keys to apply to a document: each key set to a value or removed, keys compared by
/// their Unicode scalars (Specs/Sync.md §1). The one description of "what changed" that the store's
/// saves, its coalesced writes and sync's writes share; applying it re-reads nothing and takes
/// time linear in the document.
///
/// ```swift
/// var changes = KeyChanges(from: original, to: edited)   // what an edit changed
/// let saved = changes.applied(to: current)               // on the document as it is now
/// ```
///
/// A back end that applies many keys to one document (a sync push) uses it too: setting keys
/// one by one through `Preferences`' subscript looks each up in turn, quadratic in the keys.
package struct KeyChanges: Sendable, Equatable {
    /// The changed keys, in the order they were first changed.
    package private(set) var keys: [String] = []
    /// Each key's new value; `nil` removes it.
    private var values: [JSONScalarKey: JSONValue?] = [:]

    /// No changes.
    package init() {}

    /// The keys whose values differ between two documents: added, removed, or changed (values
    /// compared as written, so `1.5` → `1.50` is a change); in the edited document's order, then
    /// the removed keys in the original's.
    ///
    /// - Parameters:
    ///   - original: The document before.
    ///   - edited: The document after.
    package init(from original: Preferences, to edited: Preferences) {
        if original.count <= Self.smallDocument, edited.count <= Self.smallDocument {
            self = Self.scanning(original, edited)
            return
        }
        var before: [JSONScalarKey: JSONValue] = [:]
        before.reserveCapacity(original.count)
        for member in original.members { before[JSONScalarKey(member.key)] = member.value }
        var seen = Set<JSONScalarKey>()
        for member in edited.members {
            let key = JSONScalarKey(member.key)
            seen.insert(key)
            if let old = before[key], old.isWrittenAlike(member.value) { continue }
            self[member.key] = .some(member.value)
        }
        for member in original.members where !seen.contains(JSONScalarKey(member.key)) {
            self[member.key] = .some(nil)
        }
    }

    /// Below this many members on both sides, documents are compared by scanning, without
    /// hashing every key: at most 16 × 16 key comparisons, cheaper than the tables for the one or
    /// two keys an edit changes in a small document.
    static let smallDocument = 16

    /// ``init(from:to:)`` for small documents, by scanning.
    private static func scanning(_ original: Preferences, _ edited: Preferences) -> KeyChanges {
        var changes = KeyChanges()
        let before = original.members
        for member in edited.members {
            if let old = before.last(where: { $0.key.isScalarEqual(to: member.key) }),
                old.value.isWrittenAlike(member.value)
            {
                continue
            }
            changes[member.key] = .some(member.value)
        }
        let after = edited.members
        for member in before where !after.contains(where: { $0.key.isScalarEqual(to: member.key) }) {
            changes[member.key] = .some(nil)
        }
        return changes
    }

    /// Changes from a dictionary of new values (`nil` removes), in key order.
    package init(_ dictionary: [String: JSONValue?]) {
        for (key, value) in dictionary.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            self[key] = .some(value)
        }
    }

    /// A key's change: `.some(value)` sets it, `.some(nil)` removes it, `nil` leaves it alone.
    ///
    /// - Parameter key: The key, compared by its Unicode scalars.
    package subscript(key: String) -> JSONValue?? {
        get { values[JSONScalarKey(key)] }
        set {
            let wrapped = JSONScalarKey(key)
            switch newValue {
            case .some(let value):
                if values.updateValue(value, forKey: wrapped) == nil { keys.append(key) }
            case .none:
                guard values.removeValue(forKey: wrapped) != nil else { return }
                keys.removeAll { $0.isScalarEqual(to: key) }
            }
        }
    }

    /// Whether nothing changes.
    package var isEmpty: Bool { keys.isEmpty }

    /// The number of changed keys.
    package var count: Int { keys.count }

    /// Adds later changes: a key changed in both takes `other`'s change.
    mutating func merge(_ other: KeyChanges) {
        for key in other.keys { self[key] = other[key] }
    }

    /// The document with the changes applied: a changed key keeps its position, a removed key
    /// goes, a new key is appended. Linear in the document and the changes.
    ///
    /// - Parameter document: The document as it is now.
    /// - Returns: The changed document.
    package func applied(to document: Preferences) -> Preferences {
        guard !isEmpty else { return document }
        var members: [JSONObject.Member] = []
        members.reserveCapacity(document.count + count)
        var placed = Set<JSONScalarKey>()
        for member in document.members {
            let key = JSONScalarKey(member.key)
            guard let change = values[key] else {
                members.append(member)
                continue
            }
            placed.insert(key)
            if let value = change { members.append(JSONObject.Member(key: member.key, value: value)) }
        }
        for key in keys where !placed.contains(JSONScalarKey(key)) {
            if let value = values[JSONScalarKey(key)] ?? nil {
                members.append(JSONObject.Member(key: key, value: value))
            }
        }
        return Preferences(members: members)
    }

    /// Whether two sets of changes change the same keys the same way.
    package static func == (lhs: KeyChanges, rhs: KeyChanges) -> Bool {
        lhs.count == rhs.count && lhs.keys.allSatisfy { lhs[$0] == rhs[$0] }
    }
}

extension Preferences {
    /// Whether two documents are written alike: the same keys (scalar for scalar) in the same
    /// order, with values written alike (`1.5` and `1.50` differ). A save that changes nothing
    /// so compared is skipped; one that changes only a number's text is not.
    func isWrittenIdentically(to other: Preferences) -> Bool {
        guard count == other.count else { return false }
        for (left, right) in zip(members, other.members) {
            guard left.key.isScalarEqual(to: right.key), left.value.isWrittenAlike(right.value) else {
                return false
            }
        }
        return true
    }
}
