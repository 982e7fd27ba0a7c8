import ReadingPreferences

/// The file name of a publication's document (SPEC 9): readable, safe on every file system, and
/// never the same for two identifiers, even on case-insensitive file systems.
///
/// Exactly: lower-case the identifier; replace every character (Unicode scalar) outside `a-z0-9`
/// by `-`; collapse runs of `-`; trim `-` at both ends; cut to 40 characters and trim `-` again.
/// The name is that prefix, `-`, and the first 32 lower-case hex digits of the SHA-256 of the
/// identifier's UTF-8 bytes, then `.json`; just the 32 hex digits and `.json` when the prefix is
/// empty. The hash makes names distinct; the prefix makes them readable.
///
/// ```swift
/// SafeName.fileName(for: "urn:isbn:978-0/x?y")   // "urn-isbn-978-0-x-y-<32 hex digits>.json"
/// ```
public enum SafeName {
    /// The file name of an identifier.
    ///
    /// - Parameter identifier: The publication's identifier, any string.
    /// - Returns: The file name, ending in `.json`.
    public static func fileName(for identifier: String) -> String {
        let digest = SHA256.hash(identifier.utf8)
        let prefix = readablePrefixBytes(of: identifier)
        // Written byte by byte into one string: this runs for every read of a publication.
        let length = prefix.count + (prefix.isEmpty ? 0 : 1) + 32 + 5
        return String(unsafeUninitializedCapacity: length) { buffer in
            var index = 0
            func append(_ byte: UInt8) {
                buffer[index] = byte
                index += 1
            }
            for byte in prefix { append(byte) }
            if !prefix.isEmpty { append(UInt8(ascii: "-")) }
            let hex: StaticString = "0123456789abcdef"
            for byte in digest.bytes.prefix(16) {
                append(hex.utf8Start[Int(byte >> 4)])
                append(hex.utf8Start[Int(byte & 0x0F)])
            }
            for byte in ".json".utf8 { append(byte) }
            return index
        }
    }

    /// The readable part: lower-cased, `a-z0-9` and single hyphens, at most 40 characters.
    static func readablePrefix(of identifier: String) -> String {
        String(decoding: readablePrefixBytes(of: identifier), as: UTF8.self)
    }

    /// The readable part as ASCII bytes.
    private static func readablePrefixBytes(of identifier: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(Swift.min(identifier.utf8.count, 41))
        // Lower-casing can only make letters `a-z` from ASCII ones (or from a few non-ASCII
        // scalars, such as U+212A KELVIN SIGN to `k`), so an ASCII identifier is lower-cased byte
        // by byte; any other goes through `lowercased()`.
        let isASCII = identifier.utf8.allSatisfy { $0 < 0x80 }
        let source =
            isASCII
            ? Array(identifier.utf8)
            : Array(
                identifier.lowercased().unicodeScalars.map {
                    $0.isASCII ? UInt8($0.value) : 0x80
                })
        for var byte in source {
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 0x20 }
            let isSafe =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            if isSafe {
                result.append(byte)
            } else if result.last != UInt8(ascii: "-") {
                result.append(UInt8(ascii: "-"))
            }
        }
        func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            var bytes = bytes
            while bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            while bytes.last == UInt8(ascii: "-") { bytes = bytes.dropLast() }
            return bytes
        }
        return Array(trimmed(trimmed(result[...]).prefix(40)))
    }
}
