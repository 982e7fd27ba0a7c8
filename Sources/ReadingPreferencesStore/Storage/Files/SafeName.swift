import ReadingPreferences

/// The file name of a publication's document (Specs/Store.md §5.3): readable, safe on every file system, and
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
package enum SafeName {
    /// The file name of an identifier.
    ///
    /// - Parameter identifier: The publication's identifier, any string.
    /// - Returns: The file name, ending in `.json`.
    package static func fileName(for identifier: String) -> String {
        // This runs for every read of a publication: the prefix is written on the stack and the
        // name into one string, with no arrays.
        let digest = SHA256.hash(identifier.utf8)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefixLimit) { prefix in
            let prefixCount = readablePrefix(of: identifier, into: prefix)
            let length = prefixCount + (prefixCount == 0 ? 0 : 1) + 32 + 5
            return String(unsafeUninitializedCapacity: length) { name in
                var index = 0
                for byte in prefix[..<prefixCount] {
                    name[index] = byte
                    index += 1
                }
                if prefixCount > 0 {
                    name[index] = UInt8(ascii: "-")
                    index += 1
                }
                index += digest.writeHex(
                    digits: 32, into: UnsafeMutableBufferPointer(rebasing: name[index...]))
                for byte in ".json".utf8 {
                    name[index] = byte
                    index += 1
                }
                return index
            }
        }
    }

    /// The longest readable part.
    private static var prefixLimit: Int { 40 }

    /// The readable part: lower-cased, `a-z0-9` and single hyphens, at most 40 characters.
    static func readablePrefix(of identifier: String) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefixLimit) { prefix in
            String(decoding: prefix[..<readablePrefix(of: identifier, into: prefix)], as: UTF8.self)
        }
    }

    /// Writes the readable part into `output` (room for 40 bytes); returns its length.
    private static func readablePrefix(of identifier: String, into output: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        // Lower-casing can only make letters `a-z` from ASCII ones (or from a few non-ASCII
        // scalars, such as U+212A KELVIN SIGN to `k`), so an ASCII identifier is lower-cased byte
        // by byte; any other goes through `lowercased()`, its non-ASCII scalars becoming hyphens.
        if identifier.utf8.allSatisfy({ $0 < 0x80 }) {
            return readablePrefix(of: identifier.utf8, into: output)
        }
        return readablePrefix(
            of: identifier.lowercased().unicodeScalars.lazy.map { $0.isASCII ? UInt8($0.value) : 0x80 },
            into: output)
    }

    /// The rule in one pass: a run of other bytes becomes one hyphen, written only when a safe
    /// byte follows it (so the result never starts or ends with one), up to the limit, and a
    /// hyphen the cut leaves last is trimmed.
    private static func readablePrefix(
        of bytes: some Sequence<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var count = 0
        var hyphenPending = false
        for var byte in bytes {
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 0x20 }
            let isSafe =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            guard isSafe else {
                hyphenPending = count > 0
                continue
            }
            if hyphenPending {
                guard count < prefixLimit else { break }
                output[count] = UInt8(ascii: "-")
                count += 1
                hyphenPending = false
            }
            guard count < prefixLimit else { break }
            output[count] = byte
            count += 1
        }
        while count > 0 && output[count - 1] == UInt8(ascii: "-") { count -= 1 }
        return count
    }
}
