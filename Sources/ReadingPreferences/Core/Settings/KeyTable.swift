/// A small open-addressing table from keys to slots, hashed with FNV-1a over the UTF-8 bytes.
///
/// SPEC 13: a lookup must not pay for `String`'s seeded SipHash and canonical comparison on
/// every parsed key. The keys' UTF-8 bytes are kept in one flat array, so a lookup hashes and
/// compares raw bytes (which is comparing Unicode scalars) in a single pass over the key.
struct KeyTable: Sendable, Hashable {
    private var bytes: [UInt8] = []
    private var offsets: [Int] = [0]
    private var buckets: [Int32] = [-1, -1]
    private var values: [Int] = []

    /// The number of keys.
    var count: Int { values.count }

    /// Adds a key with its value, unless the key is already present.
    mutating func insert(_ key: String, value: Int) {
        guard self[key] == nil else { return }
        bytes.append(contentsOf: key.utf8)
        offsets.append(bytes.count)
        values.append(value)
        if count * 2 > buckets.count {
            rebuild(capacity: buckets.count * 2)
        } else {
            place(count - 1)
        }
    }

    /// The value of a key, comparing by Unicode scalars.
    subscript(key: String) -> Int? {
        if let found = key.utf8.withContiguousStorageIfAvailable({ lookup($0) }) { return found }
        return Array(key.utf8).withUnsafeBufferPointer { lookup($0) }
    }

    private func lookup(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = buckets.count - 1
        var index = Int(Self.hash(key)) & mask
        while true {
            let entry = Int(buckets[index])
            if entry < 0 { return nil }
            if matches(entry, key) { return values[entry] }
            index = (index + 1) & mask
        }
    }

    private func matches(_ entry: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[entry]
        guard offsets[entry + 1] - start == key.count else { return false }
        for index in 0..<key.count where bytes[start + index] != key[index] { return false }
        return true
    }

    private mutating func rebuild(capacity: Int) {
        buckets = Array(repeating: -1, count: capacity)
        for entry in values.indices { place(entry) }
    }

    private mutating func place(_ entry: Int) {
        let mask = buckets.count - 1
        let hash = bytes.withUnsafeBufferPointer {
            Self.hash(UnsafeBufferPointer(rebasing: $0[offsets[entry]..<offsets[entry + 1]]))
        }
        var index = Int(hash) & mask
        while buckets[index] >= 0 { index = (index + 1) & mask }
        buckets[index] = Int32(truncatingIfNeeded: entry)
    }

    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in key { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}
