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
