import Foundation

/// What the user (or the app) asked for: an ordered, lossless JSON object of preferences (Specs/Preferences.md §2).
///
/// Keys keep their insertion order; re-setting a key keeps its position. Keys no configurable
/// knows, values no descriptor can decode and reserved `$` keys are all kept verbatim, so an
/// older app never destroys what a newer one stored. A `null` value means unset and is never
/// stored.
///
/// ```swift
/// var preferences = try Preferences(json: #"{"fontSize": 1.2, "theme": "dark"}"#)
/// preferences["scroll"] = true
/// preferences.jsonString()  // {"fontSize":1.2,"theme":"dark","scroll":true}
/// ```
///
/// `==` ignores key order; encoding preserves it.
public struct Preferences: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The stored members, in order. Never contains a `null` value.
    public internal(set) var members: [JSONObject.Member]

    /// Creates empty preferences.
    public init() {
        members = []
    }

    /// Creates preferences from members; `null` values are dropped and a duplicate key's last
    /// value wins at the position of its first occurrence. Linear in the number of members.
    ///
    /// - Parameter members: The members, possibly with duplicate keys and `null` values.
    public init(members: [JSONObject.Member]) {
        var builder = JSONObjectBuilder(capacity: members.count)
        for member in members { _ = builder.insert(key: member.key, value: member.value) }
        self.members = builder.members
        if self.members.contains(where: \.value.isNull) { self.members.removeAll(where: \.value.isNull) }
    }

    /// Creates preferences from a JSON object.
    public init(_ object: JSONObject) {
        self.init(members: object.members)
    }

    /// Creates preferences from a dictionary literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(members: elements.map { JSONObject.Member(key: $0.0, value: $0.1) })
    }

    /// The stored value of a key, or `nil` when unset. Setting `nil` (or `.null`) removes the key;
    /// setting an existing key keeps its position.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(forKey: key) else { return nil }
            return members[index].value
        }
        set {
            let index = index(forKey: key)
            switch (newValue, index) {
            case (nil, nil), (.null?, nil): return
            case (nil, let index?), (.null?, let index?): members.remove(at: index)
            case (let value?, let index?): members[index].value = value
            case (let value?, nil): members.append(JSONObject.Member(key: key, value: value))
            }
        }
    }

    /// The position of a key in ``members``, comparing keys by Unicode scalars.
    public func index(forKey key: String) -> Int? {
        members.firstIndex { $0.key.isScalarEqual(to: key) }
    }

    /// The stored keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// The number of stored keys.
    public var count: Int { members.count }

    /// Whether nothing is stored.
    public var isEmpty: Bool { members.isEmpty }

    /// The preferences as a JSON object, in order.
    public var jsonObject: JSONObject { JSONObject(uniqueMembers: members) }

    /// Whether a key is reserved for metadata (it starts with `$`).
    public static func isReserved(_ key: String) -> Bool {
        key.utf8.first == UInt8(ascii: "$")
    }

    /// Removes a key; returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let index = index(forKey: key) else { return nil }
        return members.remove(at: index).value
    }

    /// Removes every key; reserved `$` keys stay unless `includingReserved` is true.
    public mutating func removeAll(includingReserved: Bool = false) {
        if includingReserved {
            members.removeAll()
        } else {
            members.removeAll { !Self.isReserved($0.key) }
        }
    }

    /// Two preferences are equal when they hold the same keys with equal values, in any order.
    /// Linear in the number of keys.
    public static func == (lhs: Preferences, rhs: Preferences) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        let lookup = JSONObjectLookup(members: rhs.members)
        for member in lhs.members {
            guard let position = lookup.position(of: member.key), rhs.members[position].value == member.value
            else { return false }
        }
        return true
    }

    /// Hashes the members independently of their order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(jsonObject)
    }

    /// The compact JSON text.
    public var description: String { jsonString() }
}

extension Preferences {
    /// Where a setting's value is stored: under its key, or, when the key is absent, under its
    /// first `renamedFrom` alias present (Specs/Resolution.md §9.2). The one rule for old keys of renamed settings.
    ///
    /// - Parameter descriptor: The setting's descriptor.
    /// - Returns: The stored key and value, and whether the key is an alias; `nil` when unset.
    package func storedMember(of descriptor: SettingDescriptor) -> (
        key: String, value: JSONValue, isAlias: Bool
    )? {
        if let value = self[descriptor.key] { return (descriptor.key, value, false) }
        for alias in descriptor.renamedFrom {
            if let value = self[alias] { return (alias, value, true) }
        }
        return nil
    }
}
