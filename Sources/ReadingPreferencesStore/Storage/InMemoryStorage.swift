import Foundation
import ReadingPreferences

/// A storage in memory, for tests and SwiftUI previews: the store's whole API, sync included,
/// with nothing written to disk.
///
/// ```swift
/// let store = PreferencesStore<EPUB>(storage: InMemoryStorage())
/// ```
public actor InMemoryStorage: PreferencesStorage {
    private var documents: [StorageLocation: StoredDocument] = [:]
    /// Damaged data set aside, for people.
    private var quarantined: [String: Preferences?] = [:]
    /// Every save takes the next number, so a version never repeats.
    private var counter = 0
    /// A name no other storage in the process has.
    private nonisolated let name = UUID().uuidString

    /// Creates an empty storage.
    public init() {}

    /// This storage object: stores sharing it hear each other's syncs.
    public nonisolated var identity: String? { "memory:" + name }

    /// Loads a document.
    ///
    /// - Parameter location: Where it lives.
    /// - Returns: The document, or `nil`.
    /// - Throws: Never: a memory storage cannot fail to read.
    public func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        documents[location]
    }

    /// Saves a document if it is still at `version`.
    ///
    /// - Parameters:
    ///   - preferences: The document.
    ///   - location: Where it lives.
    ///   - version: The version loaded before, or `nil`.
    /// - Returns: The new version.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict``.
    public func save(
        _ preferences: Preferences, to location: StorageLocation, expecting version: StorageVersion?
    ) async throws(StorageError) -> StorageVersion {
        guard documents[location]?.version == version else { throw StorageError.conflict(location) }
        let next = nextVersion()
        documents[location] = StoredDocument(preferences: preferences, version: next)
        return next
    }

    /// Removes a document if it is still at `version`.
    ///
    /// - Parameters:
    ///   - location: Where it lives.
    ///   - version: The version loaded before.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict``.
    public func remove(_ location: StorageLocation, expecting version: StorageVersion)
        async throws(StorageError)
    {
        guard documents[location]?.version == version else { throw StorageError.conflict(location) }
        documents[location] = nil
    }

    /// Sets a document aside and puts `replacement` in its place (memory never holds damaged
    /// data, but the protocol's rule is kept).
    ///
    /// - Parameters:
    ///   - location: Where the document is.
    ///   - version: Its version.
    ///   - replacement: What the location holds afterwards.
    /// - Returns: Where the document went, and the replacement's version.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict``.
    public func quarantine(
        _ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?
    ) async throws(StorageError) -> Quarantine {
        guard let current = documents[location], current.version == version else {
            throw StorageError.conflict(location)
        }
        let aside = "\(location) (set aside at version \(version))"
        quarantined[aside] = current.preferences
        guard let replacement else {
            documents[location] = nil
            return Quarantine(movedTo: aside, version: nil)
        }
        let next = nextVersion()
        documents[location] = StoredDocument(preferences: replacement, version: next)
        return Quarantine(movedTo: aside, version: next)
    }

    /// The profile ids or publication identifiers of a configurable with a document of `kind`.
    ///
    /// - Parameters:
    ///   - kind: Which documents.
    ///   - configurable: The configurable.
    /// - Returns: The identifiers, sorted by their UTF-8 bytes.
    /// - Throws: Never: a memory storage cannot fail to list.
    public func names(of kind: StorageKind, configurable: String) async throws(StorageError) -> [String] {
        documents.keys.compactMap { location -> String? in
            switch (kind, location) {
            case (.profiles, .layer(let owner, .profile(let id))),
                (.publications, .layer(let owner, .publication(let id))),
                (.profileSnapshots, .syncSnapshot(let owner, .profile(let id))),
                (.publicationSnapshots, .syncSnapshot(let owner, .publication(let id))):
                return owner.isScalarEqual(to: configurable) ? id : nil
            default: return nil
            }
        }
        .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The configurables with documents.
    ///
    /// - Returns: Their identifiers, sorted by their UTF-8 bytes.
    /// - Throws: Never.
    public func configurables() async throws(StorageError) -> [String] {
        var seen = Set<JSONScalarKey>()
        for location in documents.keys {
            if let configurable = location.configurable { seen.insert(JSONScalarKey(configurable)) }
        }
        return seen.map(\.string).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private func nextVersion() -> StorageVersion {
        counter += 1
        return StorageVersion(String(counter))
    }
}
