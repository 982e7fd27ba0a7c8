/// The hash index of a large object's members (past `JSONObjectBuilder.linearLimit`): member
/// positions in an open-addressing table, found by a seeded hash of the key's UTF-8 bytes.
///
/// Each key is hashed once, when it is inserted, and its hash is kept: growing the table
/// re-places positions by their kept hashes, and a probe compares two keys' bytes only when
/// their full 64-bit hashes are equal, which for distinct keys is practically never. The hash is
/// `Hasher`'s, seeded per process, so keys chosen to collide cannot make it quadratic.
struct JSONKeyIndex {
    /// Member positions; `empty` or `removedMarker` for free slots.
    private var buckets: [Int32]
    /// The hash of each member's key, by position (kept for removed members too).
    private var hashes: [UInt64] = []
    private var occupied = 0

    private static let empty: Int32 = -1
    private static let removedMarker: Int32 = -2

    /// An index with room for `capacity` members before it grows.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        buckets = Array(repeating: Self.empty, count: size)
        hashes.reserveCapacity(capacity)
    }

    /// The hash of a key's bytes.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The hash of a key.
    static func hash(_ key: String) -> UInt64 {
        if let hash = key.utf8.withContiguousStorageIfAvailable(hash) { return hash }
        return Array(key.utf8).withUnsafeBufferPointer(hash)
    }

    /// The position of the member whose key is `key` (hashed `hash`), or `nil`.
    func position(of key: String, hash: UInt64, in storage: [JSONObject.Member]) -> Int? {
        let mask = buckets.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = buckets[slot]
            if entry == Self.empty { return nil }
            if entry >= 0 {
                KeyComparisons.count()
                let position = Int(entry)
                if hashes[position] == hash, storage[position].key.isScalarEqual(to: key) { return position }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Records the member at `position` (the next position), whose key is absent so far.
    mutating func insert(position: Int, hash: UInt64) {
        if hashes.count <= position {
            hashes.append(contentsOf: repeatElement(0, count: position + 1 - hashes.count))
        }
        hashes[position] = hash
        occupied += 1
        if occupied * 2 > buckets.count { grow() }
        place(Int32(truncatingIfNeeded: position), hash: hash)
    }

    /// Forgets the member at `position`.
    mutating func remove(position: Int) {
        guard position < hashes.count else { return }
        let mask = buckets.count - 1
        var slot = Int(truncatingIfNeeded: hashes[position]) & mask
        while buckets[slot] != Self.empty {
            if buckets[slot] == Int32(truncatingIfNeeded: position) {
                buckets[slot] = Self.removedMarker
                return
            }
            slot = (slot + 1) & mask
        }
    }

    private mutating func place(_ position: Int32, hash: UInt64) {
        let mask = buckets.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while buckets[slot] >= 0 { slot = (slot + 1) & mask }
        buckets[slot] = position
    }

    /// Doubles the table and re-places every live position by its kept hash; removal markers
    /// are dropped.
    private mutating func grow() {
        let live = buckets.filter { $0 >= 0 }
        buckets = Array(repeating: Self.empty, count: buckets.count * 2)
        for position in live { place(position, hash: hashes[Int(position)]) }
    }
}
