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
