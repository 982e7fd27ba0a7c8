import Foundation

/// A file document's ``StorageVersion``: a digest of its bytes and their count.
///
/// Equal versions mean equal bytes, whatever the file system's timestamps say: a hand edit that
/// keeps a file's size and modification time (`cp -p`, `rsync -t`, coarse timestamps) still
/// changes the version, and a file removed and written again with other contents never gets an
/// old version back (Specs/Server.md §2.3: versions never repeat for other contents). The digest is 64-bit
/// FNV-1a, which is stable across processes and machines and costs about a nanosecond a byte.
enum ContentVersion {
    /// The version of a document's bytes.
    static func of(_ data: Data) -> StorageVersion {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        // Sixteen hexadecimal digits, a dash and the count, written in place.
        let count = data.count
        var decimals = 1
        var rest = count / 10
        while rest > 0 {
            decimals += 1
            rest /= 10
        }
        let text = String(unsafeUninitializedCapacity: 17 + decimals) { buffer in
            for index in 0..<16 {
                buffer[index] = Self.hexDigit(UInt8((hash >> UInt64(60 - 4 * index)) & 0xF))
            }
            buffer[16] = UInt8(ascii: "-")
            var value = count
            for index in (17..<(17 + decimals)).reversed() {
                buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            return 17 + decimals
        }
        return StorageVersion(text)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
