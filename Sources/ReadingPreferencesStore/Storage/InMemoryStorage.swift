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
    /// Each layer document's change journal, and how many times it was compacted (its cursors
    /// name it).
    private var journals: [StorageLocation: (entries: [JournalEntry], generation: Int)] = [:]
    /// The size of each journal's text.
    private var journalSizes: [StorageLocation: Int] = [:]
    /// The replica clock, once the storage has an identity.
    private var clock: HybridClock?
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
        record(changes)
        return versions
    }

    // MARK: - The change journal

    /// Stamps and appends a batch's changes of keys to their documents' journals (Specs/Store.md
    /// §15.1), once the storage has a replica identity; forgets the journal of a document gone
    /// for good (its sidecar removed with it).
    private func record(_ changes: [DocumentChange]) {
        if clock == nil { clock = replicaIdentity() }
        let now = Milliseconds.now()
        if var current = clock {
            for change in changes where change.location.isLayer && !change.journal.isEmpty {
                var journal = journals[change.location] ?? ([], 0)
                for var entry in change.journal {
                    if let stamp = entry.stamp {
                        current.observe(stamp)
                    } else if let stamp = current.tick(now: entry.time) {
                        entry.stamp = stamp
                    } else {
                        continue
                    }
                    journal.entries.append(entry)
                }
                var journalBytes = journalSizes[change.location] ?? 0
                for entry in journal.entries.suffix(change.journal.count) {
                    journalBytes += entry.jsonValue.jsonString().utf8.count + 1
                }
                if journalBytes > JournalBounds.standard.maximumBytes {
                    let sized = journal.entries.map { ($0, $0.jsonValue.jsonString().utf8.count + 1) }
                    let kept = JournalBounds.standard.kept(sized, now: now)
                    journal = (kept.map { journal.entries[$0] }, journal.generation + 1)
                    journalBytes = kept.reduce(0) { $0 + sized[$1].1 }
                }
                journals[change.location] = journal
                journalSizes[change.location] = journalBytes
            }
            clock = current
        }
        for change in changes where change.action == .remove {
            if case .syncSnapshot(let configurable, let layer) = change.location,
                slots[.layer(configurable: configurable, layer)] == nil
            {
                journals[.layer(configurable: configurable, layer)] = nil
                journalSizes[.layer(configurable: configurable, layer)] = nil
            }
        }
    }

    /// The replica identity the storage's sync state gives, if any.
    private func replicaIdentity() -> HybridClock? {
        guard case .document(let stored) = slots[.syncState],
            let state = try? SyncState(document: stored.preferences)
        else { return nil }
        return state.clock
    }

    /// A document's journal after a cursor (`<compactions>:<count read>`).
    ///
    /// - Parameters:
    ///   - location: A layer document.
    ///   - cursor: Where an earlier read got to.
    /// - Returns: The entries recorded since, and the cursor after them.
    /// - Throws: ``StorageError`` for an identifier no storage holds.
    public func journal(of location: StorageLocation, after cursor: JournalCursor?) async throws(StorageError)
        -> JournalRead
    {
        try location.checked()
        let journal = journals[location] ?? ([], 0)
        var start = 0
        if let parts = cursor?.rawValue.split(separator: ":"), parts.count == 2,
            Int(parts[0]) == journal.generation, let read = Int(parts[1]), read <= journal.entries.count
        {
            start = read
        }
        return JournalRead(
            entries: Array(journal.entries[start...]),
            cursor: JournalCursor("\(journal.generation):\(journal.entries.count)"))
    }

    /// Removes every document, sync's records, the journals and the replica clock.
    public func removeAll() async throws(StorageError) {
        try await removeEveryDocument()
        journals.removeAll()
        journalSizes.removeAll()
        clock = nil
    }

    /// Runs `body` with the replica clock, in one step of the actor.
    public func updateReplicaClock<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        if clock == nil { clock = replicaIdentity() }
        return try body(&clock)
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
        let journaled = kind.isSnapshot ? Array(journals.keys) : []
        let all = Set(
            (Array(slots.keys) + journaled).compactMap { location -> JSONScalarKey? in
                let owner: String
                let layer: StoreLayer
                switch location {
                case .layer(let configurable, let documentLayer) where !kind.isSnapshot:
                    (owner, layer) = (configurable, documentLayer)
                // A snapshot's kind lists the document's journal too (a removal still to send).
                case .layer(let configurable, let documentLayer) where journals[location] != nil,
                    .syncSnapshot(let configurable, let documentLayer) where kind.isSnapshot:
                    (owner, layer) = (configurable, documentLayer)
                default: return nil
                }
                guard let id = layer.identifier, kind.layer(id) == layer,
                    owner.isScalarEqual(to: configurable)
                else { return nil }
                return JSONScalarKey(id)
            }
        ).map { $0.string }
        return StorageKind.page(all, after: after, limit: limit)
    }

    /// The configurables with documents.
    ///
    /// - Returns: Their identifiers, sorted by their UTF-8 bytes.
    /// - Throws: Never.
    public func configurables() async throws(StorageError) -> [String] {
        try faults.read(nil)
        var seen = Set<JSONScalarKey>()
        for location in Array(slots.keys) + Array(journals.keys) {
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
