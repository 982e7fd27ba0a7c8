/// A JSON object: members in insertion order, with keys compared by Unicode scalars.
///
/// Keys are unique. Order is kept for encoding but ignored by `==`. Keys are compared by their
/// Unicode scalars, not by canonical equivalence, so `"caf\u{E9}"` and `"cafe\u{301}"` are two
/// different keys.
///
/// ```swift
/// var object: JSONObject = ["theme": "dark", "fontSize": 1.2]
/// object["theme"] = "sepia"          // keeps its position
/// object["scroll"] = true            // appended
/// object["fontSize"] = nil           // removed
/// object.keys                        // ["theme", "scroll"]
/// ```
///
/// Lookups scan the members, which is the fastest choice for the small objects that preferences
/// are; building a very large object key by key with the subscript is quadratic.
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One key-value pair of an object.
    public struct Member: Sendable, Hashable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// Creates a member.
        ///
        /// - Parameters:
        ///   - key: The key.
        ///   - value: The value.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }

        /// Members are equal when their keys are scalar-equal and their values are equal.
        public static func == (lhs: Member, rhs: Member) -> Bool {
            lhs.key.isScalarEqual(to: rhs.key) && lhs.value == rhs.value
        }

        /// Hashes the key and the value, consistently with `==`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(value)
        }
    }

    /// The members, in insertion order, with unique keys.
    public private(set) var members: [Member]

    /// Creates an empty object.
    public init() {
        members = []
    }

    /// Creates an object from members; for a duplicate key, the last value wins at the position
    /// of the key's first occurrence.
    ///
    /// ```swift
    /// let object = JSONObject(members: [
    ///     .init(key: "a", value: 1), .init(key: "b", value: 2), .init(key: "a", value: 3),
    /// ])
    /// object.keys        // ["a", "b"]
    /// object["a"]        // 3
    /// ```
    ///
    /// - Parameter members: The members, possibly with duplicate keys.
    public init(members: [Member]) {
        var builder = JSONObjectBuilder(capacity: members.count)
        for member in members {
            _ = builder.insert(key: member.key, value: member.value)
        }
        self.members = builder.members
    }

    /// Creates an object from a dictionary literal; a repeated key keeps its last value at its
    /// first position.
    ///
    /// - Parameter elements: The key-value pairs of the literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(members: elements.map { Member(key: $0.0, value: $0.1) })
    }

    /// Creates an object from members whose keys are known to be unique (the parser's output).
    init(uniqueMembers: [Member]) {
        members = uniqueMembers
    }

    /// The value for a key (compared by Unicode scalars), or `nil` when the key is absent.
    ///
    /// Setting a value for an existing key replaces it in place; setting a new key appends it;
    /// setting `nil` removes the key.
    ///
    /// - Parameter key: The key to look up.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(forKey: key) else { return nil }
            return members[index].value
        }
        set {
            if let newValue {
                if let index = index(forKey: key) {
                    members[index].value = newValue
                } else {
                    members.append(Member(key: key, value: newValue))
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// The position of a key in ``members`` (compared by Unicode scalars), or `nil`.
    ///
    /// - Parameter key: The key to find.
    /// - Returns: The position, or `nil` when the key is absent.
    public func index(forKey key: String) -> Int? {
        members.firstIndex { $0.key.isScalarEqual(to: key) }
    }

    /// Removes a key and returns its value, or returns `nil` when the key is absent.
    ///
    /// - Parameter key: The key to remove.
    /// - Returns: The removed value, or `nil`.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let index = index(forKey: key) else { return nil }
        return members.remove(at: index).value
    }

    /// Objects are equal when they have the same keys (by scalars) with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        JSONValue.object(lhs) == JSONValue.object(rhs)
    }

    /// Hashes the members independently of their order, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hashMembers(into: &hasher)
    }

    /// Combines the count and an order-independent sum of member hashes, each member hashed as
    /// its key and the shallow hash of its value (see `JSONValue.hash(into:)`).
    func hashMembers(into hasher: inout Hasher) {
        // Addition is commutative, so the member order does not change the combined hash.
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            member.value.shallowHash(into: &memberHasher)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(sum)
    }
}

/// Finds keys of an object by Unicode scalars: a linear scan for small objects, a hash index
/// for large ones (so comparing two objects of n members is O(n), not O(n^2)).
struct JSONObjectLookup {
    private let members: [JSONObject.Member]
    private let index: [JSONScalarKey: Int]?

    init(_ object: JSONObject) {
        self.init(members: object.members)
    }

    /// Indexes members whose keys are unique.
    init(members: [JSONObject.Member]) {
        self.members = members
        if members.count > JSONObjectBuilder.linearLimit {
            var index: [JSONScalarKey: Int] = [:]
            index.reserveCapacity(members.count)
            for (position, member) in members.enumerated() {
                index[JSONScalarKey(member.key)] = position
            }
            self.index = index
        } else {
            index = nil
        }
    }

    func position(of key: String) -> Int? {
        if let index { return index[JSONScalarKey(key)] }
        return members.firstIndex {
            KeyComparisons.count()
            return $0.key.isScalarEqual(to: key)
        }
    }
}

/// A set of keys compared by Unicode scalars, linear for a few keys and hashed for many, so
/// filtering n members by k keys costs O(n + k).
struct JSONKeySet {
    private let keys: [String]
    private let set: Set<JSONScalarKey>?

    init(_ keys: some Sequence<String>) {
        self.keys = Array(keys)
        set = self.keys.count > JSONObjectBuilder.linearLimit ? Set(self.keys.map(JSONScalarKey.init)) : nil
    }

    func contains(_ key: String) -> Bool {
        if let set { return set.contains(JSONScalarKey(key)) }
        return keys.contains { $0.isScalarEqual(to: key) }
    }
}

/// Accumulates object members, applying the duplicate-key rule: the last value wins, at the
/// position of the first occurrence. Keys can also be removed, so every bulk operation on
/// members (parsing, merging, merge patches, `Decoder` input) runs in linear time whatever the
/// keys.
///
/// Each key comes with a cheap fingerprint of its UTF-8 bytes (see `fingerprint(of:)`); two keys
/// are only compared byte by byte when their fingerprints match, which for a typical object of a
/// dozen distinct keys means never. Past `linearLimit` members a hash index, seeded per process
/// over the keys' bytes, keeps adversarial inputs (a million keys, shared prefixes, keys chosen
/// to collide) linear overall.
struct JSONObjectBuilder {
    static let linearLimit = 16

    private(set) var storage: [JSONObject.Member] = []
    private var fingerprints = JSONKeyFingerprints()
    private var index: JSONKeyIndex?
    /// Positions of removed members, which ``members`` leaves out; empty unless something was
    /// removed.
    private var removed: [Bool] = []
    private var removedCount = 0

    init(capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    /// Starts from members whose keys are known to be unique.
    init(uniqueMembers: [JSONObject.Member]) {
        storage = uniqueMembers
        if uniqueMembers.count > Self.linearLimit {
            var index = JSONKeyIndex(capacity: uniqueMembers.count)
            for (position, member) in uniqueMembers.enumerated() {
                index.insert(position: position, hash: JSONKeyIndex.hash(member.key))
            }
            self.index = index
        } else {
            for member in uniqueMembers { fingerprints.append(Self.fingerprint(of: member.key)) }
        }
    }

    /// The members, in order, without the removed ones.
    var members: [JSONObject.Member] {
        guard removedCount > 0 else { return storage }
        var result: [JSONObject.Member] = []
        result.reserveCapacity(storage.count - removedCount)
        for (position, member) in storage.enumerated() where !removed[position] { result.append(member) }
        return result
    }

    /// Inserts a member; returns `true` when the key was already present (its value replaced).
    mutating func insert(key: String, value: JSONValue) -> Bool {
        insert(key: key, fingerprint: Self.fingerprint(of: key), value: value)
    }

    /// Inserts a member whose key's fingerprint is known; returns `true` when the key was
    /// already present (its value replaced).
    @inline(__always)
    mutating func insert(key: String, fingerprint: UInt64, value: consuming JSONValue) -> Bool {
        insertReportingPosition(key: key, fingerprint: fingerprint, value: value).existed
    }

    /// Inserts a member; returns its position in the storage and whether it was present.
    @inline(__always)
    mutating func insertReportingPosition(
        key: String, fingerprint: UInt64, value: consuming JSONValue
    ) -> (position: Int, existed: Bool) {
        let next = storage.count
        if index != nil {
            // Large objects: the key is hashed once, for the look-up and the insertion.
            let hash = JSONKeyIndex.hash(key)
            if let existing = index?.position(of: key, hash: hash, in: storage) {
                storage[existing].value = value
                return (existing, true)
            }
            index?.insert(position: next, hash: hash)
        } else {
            if let existing = position(of: key, fingerprint: fingerprint) {
                storage[existing].value = value
                return (existing, true)
            }
            if storage.count == Self.linearLimit {
                var newIndex = JSONKeyIndex(capacity: Self.linearLimit * 4)
                for (old, member) in storage.enumerated() where removed.isEmpty || !removed[old] {
                    newIndex.insert(position: old, hash: JSONKeyIndex.hash(member.key))
                }
                newIndex.insert(position: next, hash: JSONKeyIndex.hash(key))
                index = newIndex
                fingerprints.removeAll()
            } else {
                fingerprints.append(fingerprint)
            }
        }
        if !removed.isEmpty { removed.append(false) }
        storage.append(JSONObject.Member(key: key, value: value))
        return (next, false)
    }

    /// The value of a key, or `nil`.
    func value(forKey key: String) -> JSONValue? {
        position(of: key, fingerprint: Self.fingerprint(of: key)).map { storage[$0].value }
    }

    /// Removes a key; returns its value, or `nil` when it is absent.
    @discardableResult
    mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key, fingerprint: Self.fingerprint(of: key)) else { return nil }
        if removed.isEmpty { removed = Array(repeating: false, count: storage.count) }
        removed[position] = true
        removedCount += 1
        if index != nil {
            index?.remove(position: position)
        } else {
            fingerprints.replace(at: position, with: Self.removedFingerprint)
        }
        return storage[position].value
    }

    @inline(__always)
    private func position(of key: String, fingerprint: UInt64) -> Int? {
        if let index { return index.position(of: key, hash: JSONKeyIndex.hash(key), in: storage) }
        return fingerprints.first(matching: fingerprint) { position in
            storage[position].key.isScalarEqual(to: key) && (removed.isEmpty || !removed[position])
        }
    }

    /// The fingerprint of a removed member in the linear scan: the `removed` flags settle any
    /// key that happens to share it.
    private static let removedFingerprint: UInt64 = .max

    /// The fingerprint of a key (see `fingerprint(of:)` on bytes).
    static func fingerprint(of key: String) -> UInt64 {
        var copy = key
        return copy.withUTF8 { fingerprint(of: $0) }
    }

    /// A summary of a key's UTF-8 bytes (``JSONKeyWords/fingerprint``): equal keys always have
    /// equal fingerprints, and distinct short keys almost never do. It costs a few loads, far
    /// less than a hash or a `String` comparison.
    @inline(__always)
    static func fingerprint(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        JSONKeyWords(bytes).fingerprint
    }
}

/// The fingerprints of the first `JSONObjectBuilder.linearLimit` keys of an object, held inline so
/// that building a small object allocates nothing besides its members.
struct JSONKeyFingerprints {
    private typealias Eight = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    private var storage: (Eight, Eight) = ((0, 0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 0, 0))
    /// The number of fingerprints held.
    private(set) var count = 0
    /// One bit per fingerprint held (a one-word Bloom filter): a key whose bit is clear is new
    /// without a scan, which is most keys of an object without duplicates.
    private var seen: UInt64 = 0
    /// The room there is.
    static let capacity = 16

    @inline(__always)
    private static func bit(_ fingerprint: UInt64) -> UInt64 {
        1 << ((fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// Adds a fingerprint, when there is room.
    @inline(__always)
    mutating func append(_ fingerprint: UInt64) {
        guard count < Self.capacity else { return }
        replace(at: count, with: fingerprint)
        seen |= Self.bit(fingerprint)
        count += 1
    }

    /// Replaces the fingerprint at `position` (below ``count``).
    @inline(__always)
    mutating func replace(at position: Int, with fingerprint: UInt64) {
        guard position >= 0, position < Self.capacity else { return }
        seen |= Self.bit(fingerprint)
        withUnsafeMutableBytes(of: &storage) {
            $0.storeBytes(of: fingerprint, toByteOffset: position * 8, as: UInt64.self)
        }
    }

    /// The positions whose fingerprint is `fingerprint`, in order, until `body` returns true;
    /// returns that position.
    @inline(__always)
    func first(matching fingerprint: UInt64, where body: (Int) -> Bool) -> Int? {
        guard seen & Self.bit(fingerprint) != 0 else { return nil }
        return withUnsafeBytes(of: storage) { raw in
            for position in 0..<count {
                KeyComparisons.count()
                if raw.load(fromByteOffset: position * 8, as: UInt64.self) == fingerprint, body(position) {
                    return position
                }
            }
            return nil
        }
    }

    /// Forgets every fingerprint.
    mutating func removeAll() {
        count = 0
        seen = 0
    }
}
