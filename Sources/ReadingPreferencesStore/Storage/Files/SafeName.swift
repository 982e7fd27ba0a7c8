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
        let hash = String(SHA256.hash(Array(identifier.utf8)).hexString.prefix(32))
        let prefix = readablePrefix(of: identifier)
        return (prefix.isEmpty ? hash : prefix + "-" + hash) + ".json"
    }

    /// The readable part: lower-cased, `a-z0-9` and single hyphens, at most 40 characters.
    static func readablePrefix(of identifier: String) -> String {
        var result: [UInt8] = []
        for scalar in identifier.lowercased().unicodeScalars {
            let isSafe = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if isSafe {
                result.append(UInt8(scalar.value))
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
        let cut = trimmed(trimmed(result[...]).prefix(40))
        return String(decoding: cut, as: UTF8.self)
    }
}
