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
    /// Device classes with a document, by id (Specs/Store.md §1.4).
    case classes
    /// Device classes with a sync snapshot, by id.
    case classSnapshots
}

extension StorageKind {
    /// Whether the kind lists sync snapshots rather than documents.
    public var isSnapshot: Bool {
        self == .profileSnapshots || self == .publicationSnapshots || self == .classSnapshots
    }

    /// The layer an identifier of this kind names.
    ///
    /// - Parameter identifier: A profile's id, a publication's identifier or a class's id.
    /// - Returns: The layer.
    public func layer(_ identifier: String) -> StoreLayer {
        switch self {
        case .profiles, .profileSnapshots: return .profile(identifier)
        case .publications, .publicationSnapshots: return .publication(identifier)
        case .classes, .classSnapshots: return .deviceClass(identifier)
        }
    }

    /// The kinds of documents with an identifier, and of their snapshots.
    package static let documents: [StorageKind] = [.profiles, .classes, .publications]
    /// The kinds of snapshots of documents with an identifier.
    package static let snapshots: [StorageKind] = [.profileSnapshots, .classSnapshots, .publicationSnapshots]
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
