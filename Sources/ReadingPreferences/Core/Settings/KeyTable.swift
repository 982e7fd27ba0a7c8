/// A small open-addressing table from keys to slots, found by the UTF-8 bytes of the key.
///
/// Specs/Settings.md §9.1: a lookup must not pay for `String`'s seeded SipHash and canonical comparison on
/// every parsed key. A key is summarized by its words (its length and its first and last eight
/// bytes, a few loads: ``JSONKeyWords``): their fingerprint picks the bucket, and equal words
/// settle a key of up to 16 bytes without comparing bytes; a longer one compares the rest of its
/// bytes, kept in one flat array (comparing bytes is comparing Unicode scalars).
///
/// The table holds a catalogue's own keys, fixed when it is built, so a lookup of any key probes
/// at most the longest run of its buckets: a parsed key cannot make it slower.
struct KeyTable: Sendable, Hashable {
    private var bytes: [UInt8] = []
    private var offsets: [Int] = [0]
    private var words: [JSONKeyWords] = []
    private var buckets: [Int32] = [-1, -1]
    private var values: [Int] = []

    /// The number of keys.
    var count: Int { values.count }

    /// Adds a key with its value, unless the key is already present.
    mutating func insert(_ key: String, value: Int) {
        guard self[key] == nil else { return }
        bytes.append(contentsOf: key.utf8)
        offsets.append(bytes.count)
        words.append(Array(key.utf8).withUnsafeBufferPointer { JSONKeyWords($0) })
        values.append(value)
        if count * 2 > buckets.count {
            rebuild(capacity: buckets.count * 2)
        } else {
            place(count - 1)
        }
    }

    /// The value of a key, comparing by Unicode scalars.
    subscript(key: String) -> Int? {
        if let found = key.utf8.withContiguousStorageIfAvailable({ self[$0] }) { return found }
        return Array(key.utf8).withUnsafeBufferPointer { self[$0] }
    }

    /// The value of a key given as UTF-8 bytes.
    @inline(__always)
    subscript(key: UnsafeBufferPointer<UInt8>) -> Int? {
        value(forKey: key, words: JSONKeyWords(key))
    }

    /// The value of a key given as UTF-8 bytes whose words are known.
    @inline(__always)
    func value(forKey key: UnsafeBufferPointer<UInt8>, words keyWords: JSONKeyWords) -> Int? {
        buckets.withUnsafeBufferPointer { buckets in
            let mask = buckets.count - 1
            var index = Self.bucket(of: keyWords.fingerprint, mask: mask)
            while true {
                let entry = Int(buckets[index])
                if entry < 0 { return nil }
                if words[entry] == keyWords, keyWords.isComplete || matches(entry, key) {
                    return values[entry]
                }
                index = (index + 1) & mask
            }
        }
    }

    private func matches(_ entry: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[entry]
        guard offsets[entry + 1] - start == key.count else { return false }
        return bytes.withUnsafeBufferPointer {
            JSONByteScan.equal(UnsafeBufferPointer(rebasing: $0[start..<start + key.count]), key)
        }
    }

    @inline(__always)
    private static func bucket(of fingerprint: UInt64, mask: Int) -> Int {
        // The high bits of a multiplicative hash mix every bit of the fingerprint.
        Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private mutating func rebuild(capacity: Int) {
        buckets = Array(repeating: -1, count: capacity)
        for entry in values.indices { place(entry) }
    }

    private mutating func place(_ entry: Int) {
        let mask = buckets.count - 1
        var index = Self.bucket(of: words[entry].fingerprint, mask: mask)
        while buckets[index] >= 0 { index = (index + 1) & mask }
        buckets[index] = Int32(truncatingIfNeeded: entry)
    }
}
