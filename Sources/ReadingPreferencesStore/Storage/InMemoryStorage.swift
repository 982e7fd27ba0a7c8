import Foundation
import ReadingPreferences

/// A storage in memory, for tests and SwiftUI previews: the store's whole API, sync included,
/// with nothing written to disk.
///
/// ```swift
/// let store = PreferencesStore<EPUB>(storage: InMemoryStorage())
/// ```
///
/// A batch is applied in one step of the actor, so it is whole or not at all and nothing lands
/// between its checks and its writes.
public actor InMemoryStorage: PreferencesStorage {
    /// What a location holds.
    private enum Slot {
        case document(StoredDocument)
        /// Data that is not a JSON object (planted by a test), with its version.
        case damaged(Data, StorageVersion)

        var version: StorageVersion {
            switch self {
            case .document(let document): return document.version
            case .damaged(_, let version): return version
            }
        }
    }

    private var slots: [StorageLocation: Slot] = [:]
    /// Damaged data set aside, for people.
    private var quarantined: [String: Data] = [:]
    /// Every write takes the next number, so a version never repeats.
    private var counter = 0
    /// A name no other storage in the process has.
    private nonisolated let name = UUID().uuidString
    /// Failures a test armed.
    package nonisolated let faults = StorageFaultPlan()

    /// Creates an empty storage.
    public init() {}

    /// This storage object: stores sharing it hear each other's syncs.
    public nonisolated var identity: String? { "memory:" + name }

    /// Loads a document.
    ///
    /// - Parameter location: Where it lives.
    /// - Returns: The document, or `nil`.
    /// - Throws: ``StorageError/Code/corruptDocument`` for data a test planted.
    public func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        try location.checked()
        try faults.read(location)
        switch slots[location] {
        case nil: return nil
        case .document(let document): return document
        case .damaged(_, let version):
            throw StorageError(
                .corruptDocument, location: location, message: "\(location) is not a JSON object",
                version: version)
        }
    }

    /// Applies a batch if every document is still at its expected version, all or nothing.
    ///
    /// - Parameter changes: The changes.
    /// - Returns: One version per change.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict``.
    public func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        try DocumentChange.check(changes)
        for change in changes where slots[change.location]?.version != change.expected {
            throw StorageError.conflict(change.location)
        }
        for change in changes where change.action != .verify { try faults.step(change.location) }
        var versions: [StorageVersion?] = []
        versions.reserveCapacity(changes.count)
        for change in changes {
            switch change.action {
            case .save(let preferences):
                let next = nextVersion()
                slots[change.location] = .document(StoredDocument(preferences: preferences, version: next))
                versions.append(next)
            case .remove:
                slots[change.location] = nil
                versions.append(nil)
            case .verify:
                versions.append(change.expected)
            }
        }
        return versions
    }

    /// The bytes ``quarantine(_:expecting:replacement:)`` set aside under a name, for the
    /// conformance suite.
    package func setAside(_ name: String) -> Data? { quarantined[name] }

    /// Sets a document aside and puts `replacement` in its place.
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
        try location.checked()
        guard let current = slots[location], current.version == version else {
            throw StorageError.conflict(location)
        }
        try faults.step(location)
        let aside = "\(location) (set aside at version \(version))"
        switch current {
        case .document(let document): quarantined[aside] = document.preferences.jsonData()
        case .damaged(let data, _): quarantined[aside] = data
        }
        guard let replacement else {
            slots[location] = nil
            return Quarantine(movedTo: aside, version: nil)
        }
        let next = nextVersion()
        slots[location] = .document(StoredDocument(preferences: replacement, version: next))
        return Quarantine(movedTo: aside, version: next)
    }

    /// A page of the profile ids or publication identifiers of a configurable with a document of
    /// `kind`.
    ///
    /// - Parameters:
    ///   - kind: Which documents.
    ///   - configurable: The configurable.
    ///   - after: Only identifiers after this one; `nil` from the start.
    ///   - limit: The most to return; `nil` for all.
    /// - Returns: The identifiers, sorted by their UTF-8 bytes.
    /// - Throws: Never: a memory storage cannot fail to list.
    public func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError) -> [String]
    {
        try StorageLocation.checkConfigurable(configurable)
        try faults.read(nil)
        let all = slots.keys.compactMap { location -> String? in
            switch (kind, location) {
            case (.profiles, .layer(let owner, .profile(let id))),
                (.publications, .layer(let owner, .publication(let id))),
                (.profileSnapshots, .syncSnapshot(let owner, .profile(let id))),
                (.publicationSnapshots, .syncSnapshot(let owner, .publication(let id))):
                return owner.isScalarEqual(to: configurable) ? id : nil
            default: return nil
            }
        }
        return StorageKind.page(all, after: after, limit: limit)
    }

    /// The configurables with documents.
    ///
    /// - Returns: Their identifiers, sorted by their UTF-8 bytes.
    /// - Throws: Never.
    public func configurables() async throws(StorageError) -> [String] {
        try faults.read(nil)
        var seen = Set<JSONScalarKey>()
        for location in slots.keys {
            if let configurable = location.configurable { seen.insert(JSONScalarKey(configurable)) }
        }
        return seen.map(\.string).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Puts raw data at a location, as a damaged file would be: for tests of corrupt data.
    ///
    /// - Parameters:
    ///   - data: The data; when it is a JSON object it is stored as a document.
    ///   - location: Where.
    package func plant(_ data: Data, at location: StorageLocation) {
        let version = nextVersion()
        if let preferences = try? Preferences(json: data) {
            slots[location] = .document(StoredDocument(preferences: preferences, version: version))
        } else {
            slots[location] = .damaged(data, version)
        }
    }

    private func nextVersion() -> StorageVersion {
        counter += 1
        return StorageVersion(name.prefix(8) + "-" + String(counter))
    }
}
