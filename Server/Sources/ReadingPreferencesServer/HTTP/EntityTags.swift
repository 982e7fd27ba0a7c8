import Foundation
import ReadingPreferencesStore

/// Entity tags as the routes use them, on the library's one reading and writing of tags
/// (`EntityTag`): a stored document's version sent as a strong tag, and the matching of
/// `If-Match` and `If-None-Match` headers against a tag.
enum EntityTags {
    /// A document's version as a strong entity tag.
    static func tag(_ version: StorageVersion) -> String { EntityTag.quoted(version.rawValue) }

    /// The value an `If-Match` header's tag names (a version is sent quoted).
    static func bare(_ header: String) -> String { String(EntityTag.value(of: Substring(header))) }

    /// Whether a header names the tag (or is `*`).
    static func matches(_ header: String?, _ etag: String) -> Bool {
        // Most clients send back the ETag they were given, as it was.
        if let header, header.utf8.elementsEqual(etag.utf8) { return true }
        return EntityTag.header(header, names: [String(EntityTag.value(of: Substring(etag)))])
    }
}
