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
