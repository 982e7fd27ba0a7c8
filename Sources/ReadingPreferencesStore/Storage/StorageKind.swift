import Foundation
import ReadingPreferences

/// Which documents ``PreferencesStorage/names(of:configurable:after:limit:)`` lists.
public enum StorageKind: String, Sendable, Hashable, CaseIterable {
    /// Profiles with a document, by id.
    case profiles
    /// Publications with a document, by identifier.
    case publications
    /// Profiles with a sync snapshot, by id.
    case profileSnapshots
    /// Publications with a sync snapshot, by identifier.
    case publicationSnapshots
}

extension StorageKind {
    /// A page of identifiers: sorted by their UTF-8 bytes, those after `after`, at most `limit`.
    package static func page(_ identifiers: [String], after: String?, limit: Int?) -> [String] {
        var sorted = identifiers.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if let after {
            let start = sorted.firstIndex { after.utf8.lexicographicallyPrecedes($0.utf8) } ?? sorted.endIndex
            sorted.removeSubrange(..<start)
        }
        if let limit, limit < sorted.count { sorted.removeSubrange(max(limit, 0)...) }
        return sorted
    }
}
