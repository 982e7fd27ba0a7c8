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
        let digits = String(hash, radix: 16)
        return StorageVersion(
            String(repeating: "0", count: 16 - digits.utf8.count) + digits + "-\(data.count)")
    }
}
