/// A key summarized by its length and its first and last eight bytes (fewer bytes are packed
/// into the first word), read with a few loads.
///
/// Two keys of at most 16 bytes are equal exactly when their words are: together the two words
/// cover every byte. Longer keys also compare their middle bytes. The ``fingerprint`` mixes the
/// words into one number that tables bucket by (Specs/Preferences.md §3.2: no `String` hashing
/// per parsed key).
struct JSONKeyWords: Sendable, Hashable {
    /// The first eight bytes (all of them, packed, when there are fewer).
    let head: UInt64
    /// The last eight bytes, when there are eight or more; else 0.
    let tail: UInt64
    /// The number of bytes.
    let count: Int

    /// Summarizes a key's UTF-8 bytes.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else {
            head = 0
            tail = 0
            return
        }
        let raw = UnsafeRawPointer(base)
        if count >= 8 {
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            // Two overlapping four-byte loads cover four to seven bytes.
            let low = UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            head = low | high << 32
            tail = 0
        } else {
            head = UInt64(bytes[0]) | UInt64(bytes[count / 2]) << 8 | UInt64(bytes[count - 1]) << 16
            tail = 0
        }
    }

    /// Whether the words hold every byte, so equal words mean equal keys.
    var isComplete: Bool { count <= 16 }

    /// One number from the words: equal keys have equal fingerprints, distinct short keys almost
    /// never do.
    @inline(__always)
    var fingerprint: UInt64 {
        head ^ (tail << 3 | tail >> 61) ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
    }
}
