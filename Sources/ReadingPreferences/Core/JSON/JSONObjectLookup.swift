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
