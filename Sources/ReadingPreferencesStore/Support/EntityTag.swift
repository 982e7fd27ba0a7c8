import Foundation

/// HTTP entity tags (RFC 9110 §8.8.3) as the store and the back end write and read them, in one
/// place: a value sent as a strong, quoted tag, and a header of tags (`If-Match`,
/// `If-None-Match`) matched against values.
///
/// ```swift
/// EntityTag.quoted("3f9c…")                         // "\"3f9c…\""
/// EntityTag.header("W/\"3f9c…\", \"a1\"", names: ["3f9c…"])   // true
/// ```
public enum EntityTag {
    /// A value as a strong entity tag: quoted.
    ///
    /// - Parameter value: The value (a version or a fingerprint).
    /// - Returns: The tag.
    public static func quoted(_ value: String) -> String { "\"" + value + "\"" }

    /// The value a tag names: without its weakness mark (`W/`), its quotes and the spaces around.
    ///
    /// - Parameter tag: One tag, as a client sent it.
    /// - Returns: The value.
    public static func value(of tag: Substring) -> Substring {
        var text = trimmed(tag) { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.utf8.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
            text = text.dropFirst().dropLast()
        }
        return text
    }

    /// Whether a header of tags names one of `values`: any of its tags, separated by commas, quoted
    /// or not, weak or strong; `*` names anything.
    ///
    /// - Parameters:
    ///   - header: The header, or `nil` when absent (then nothing matches).
    ///   - values: The values the current state has (its version, its fingerprints).
    /// - Returns: Whether one tag names one of them.
    public static func header(_ header: String?, names values: [String]) -> Bool {
        guard let header else { return false }
        for tag in header.split(separator: ",") {
            let value = self.value(of: tag)
            if value == "*" { return true }
            if values.contains(where: { $0.utf8.elementsEqual(value.utf8) }) { return true }
        }
        return false
    }

    private static func trimmed(_ text: Substring, removing remove: (UInt8) -> Bool) -> Substring {
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !remove($0) }),
            let last = bytes.lastIndex(where: { !remove($0) })
        else { return text[text.endIndex...] }
        return Substring(bytes[first...last])
    }
}
