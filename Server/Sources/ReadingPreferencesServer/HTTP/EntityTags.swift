import Foundation
import ReadingPreferencesStore

/// Entity tags: a stored document's version sent as a strong tag, and the matching of
/// `If-Match` and `If-None-Match` headers against a tag.
enum EntityTags {
    /// A document's version as a strong entity tag.
    static func tag(_ version: StorageVersion) -> String { "\"\(version.rawValue)\"" }

    /// An entity tag without its quotes or weakness mark (a version is sent quoted).
    static func bare(_ header: String) -> String {
        var text = header.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("W/") { text.removeFirst(2) }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// Whether an `If-None-Match` header names the tag (or is `*`).
    static func matches(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        // Most clients send back the ETag they were given, as it was.
        if header.utf8.elementsEqual(etag.utf8) { return true }
        let bare = trimmed(Substring(etag)) { $0 == UInt8(ascii: "\"") }
        return header.split(separator: ",").contains { tag in
            var text = trimmed(tag) { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if text == "*" { return true }
            if text.hasPrefix("W/") { text = text.dropFirst(2) }
            return trimmed(text) { $0 == UInt8(ascii: "\"") } == bare
        }
    }

    /// The text without the leading and trailing bytes `remove` picks.
    static func trimmed(_ text: Substring, removing remove: (UInt8) -> Bool) -> Substring {
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !remove($0) }),
            let last = bytes.lastIndex(where: { !remove($0) })
        else { return text[text.endIndex...] }
        return Substring(bytes[first...last])
    }
}
