import ReadingPreferences

/// A storage in memory, for tests and SwiftUI previews: the store's whole API with nothing
/// written to disk.
///
/// ```swift
/// let store = PreferencesStore<EPUB>(storage: InMemoryStorage())
/// ```
public actor InMemoryStorage: PreferencesStorage {
    private var documents: [StorageLocation: StoredDocument] = [:]
    private var counter = 0

    /// Creates an empty storage.
    public init() {}

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
        guard documents[location]?.version == version else {
            throw StorageError(
                .conflict, location: location, message: "the document changed since it was loaded")
        }
        counter += 1
        let next = StorageVersion(String(counter))
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
        guard documents[location]?.version == version else {
            throw StorageError(
                .conflict, location: location, message: "the document changed since it was loaded")
        }
        documents[location] = nil
    }

    /// The profile ids or publication identifiers of a configurable.
    ///
    /// - Parameters:
    ///   - kind: Profiles or publications.
    ///   - configurable: The configurable.
    /// - Returns: The names, sorted.
    /// - Throws: Never: a memory storage cannot fail to list.
    public func names(of kind: StorageKind, configurable: String) async throws(StorageError) -> [String] {
        documents.keys.compactMap { location -> String? in
            guard case .layer(let owner, let layer) = location, owner == configurable else { return nil }
            switch (kind, layer) {
            case (.profiles, .profile(let id)), (.publications, .publication(let id)): return id
            default: return nil
            }
        }
        .sorted()
    }
}
