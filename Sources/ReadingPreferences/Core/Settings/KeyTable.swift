/// A small open-addressing table from keys to slots, hashed with FNV-1a over the UTF-8 bytes.
///
/// SPEC 13: a lookup must not pay for `String`'s seeded SipHash on every parsed key; the keys
/// of a catalogue are few and short, so a byte hash and a scalar comparison are enough.
struct KeyTable: Sendable, Hashable {
    private var keys: [String] = []
    private var buckets: [Int32] = [-1, -1]
    private var values: [Int] = []

    /// The number of keys.
    var count: Int { keys.count }

    /// Adds a key with its value, unless the key is already present.
    mutating func insert(_ key: String, value: Int) {
        guard self[key] == nil else { return }
        keys.append(key)
        values.append(value)
        if keys.count * 2 > buckets.count {
            rebuild(capacity: buckets.count * 2)
        } else {
            place(keys.count - 1)
        }
    }

    /// The value of a key, comparing by Unicode scalars.
    subscript(key: String) -> Int? {
        let mask = buckets.count - 1
        var index = Int(Self.hash(key)) & mask
        while true {
            let entry = Int(buckets[index])
            if entry < 0 { return nil }
            if keys[entry].isScalarEqual(to: key) { return values[entry] }
            index = (index + 1) & mask
        }
    }

    private mutating func rebuild(capacity: Int) {
        buckets = Array(repeating: -1, count: capacity)
        for entry in keys.indices { place(entry) }
    }

    private mutating func place(_ entry: Int) {
        let mask = buckets.count - 1
        var index = Int(Self.hash(keys[entry])) & mask
        while buckets[index] >= 0 { index = (index + 1) & mask }
        buckets[index] = Int32(truncatingIfNeeded: entry)
    }

    static func hash(_ key: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        let utf8 = key.utf8
        let fast: UInt32? = utf8.withContiguousStorageIfAvailable { bytes in
            var hash = hash
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            return hash
        }
        if let fast { return fast }
        for byte in utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}
