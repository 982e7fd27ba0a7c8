import Foundation

/// Finds the bytes of a JSON string that end a plain run, eight at a time.
///
/// Specs/Preferences.md §3.2, §3.3: keys and values are copied whole when nothing in them needs
/// attention, so the scan for what does (a quote, a backslash, a control character; for the
/// parser also a non-ASCII byte, which must be validated) decides how fast strings are read and
/// written. Each step loads eight bytes and flags the wanted ones with carry-free bit arithmetic;
/// the lowest flag is always a true match (a borrow only spreads to higher bytes), and the last
/// few bytes go one by one.
enum JSONByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// High bit set in each byte of `word` that is a quote, a backslash or below 0x20, and in
    /// each non-ASCII byte when `nonASCII`; the lowest flagged byte is exact.
    @inline(__always)
    private static func flags(_ word: UInt64, nonASCII: Bool) -> UInt64 {
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        var found = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
        found |= (word &- ones &* 0x20) & ~word
        if nonASCII { found |= word }
        return found & highBits
    }

    @inline(__always)
    private static func stops(_ byte: UInt8, nonASCII: Bool) -> Bool {
        byte < 0x20 || byte == JSONByte.quote || byte == JSONByte.backslash || (nonASCII && byte >= 0x80)
    }

    /// The offset of the first byte at or after `start` that is a quote, a backslash, below
    /// 0x20 or (with `nonASCII`) above 0x7F; `bytes.count` when there is none.
    @inline(__always)
    static func firstStop(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, nonASCII: Bool) -> Int {
        var index = start
        let end = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= end {
                // Little-endian order puts the first byte lowest, where the flags are exact.
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let found = flags(word, nonASCII: nonASCII)
                if found != 0 { return index + found.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < end, !stops(bytes[index], nonASCII: nonASCII) { index += 1 }
        return index
    }

    /// Whether two byte buffers hold the same bytes (for UTF-8, the same Unicode scalars).
    /// `elementsEqual` on buffers goes through the generic sequence iterator, byte by byte.
    @inline(__always)
    static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress, lhs.count > 0 else { return true }
        return memcmp(left, right, lhs.count) == 0
    }

    /// Whether two raw buffers hold the same bytes.
    @inline(__always)
    static func equal(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress, lhs.count > 0 else { return true }
        return memcmp(left, right, lhs.count) == 0
    }
}
