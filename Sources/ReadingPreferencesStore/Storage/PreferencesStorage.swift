import Foundation
import ReadingPreferences

/// Where the store keeps documents: plain files (``FileStorage``), memory (``InMemoryStorage``),
/// `UserDefaults` (``UserDefaultsStorage``), or a server's own database (Specs/Store.md §8).
///
/// A storage holds JSON documents at ``StorageLocation``s, each with an opaque
/// ``StorageVersion``. Writing is optimistic and transactional: ``commit(_:)`` applies a batch of
/// ``DocumentChange``s only when every document is still at the version the caller loaded (or
/// still absent), all of them or none, and fails with ``StorageError/Code/conflict`` otherwise;
/// the store then loads again, re-applies only the keys it changed, and retries (in one
/// retry-on-conflict loop), so no writer ever loses another's update and an edit that touches
/// two documents never half-saves. The same documents carry sync's state
/// (``StorageLocation/syncSnapshot(configurable:_:)`` and ``StorageLocation/syncState``), so
/// every storage can sync. Implement it over a table of `(user_id, location, json, version)`:
/// see the "Storing preferences on a server" article.
///
/// Rules every storage keeps (`StorageConformance`, in `ReadingPreferencesConformance`, checks
/// them):
/// 1. A document loads back exactly as saved: member order, every number's text, `$` keys.
/// 2. Equal versions mean equal documents: a version is never reused for other contents, even
///    after the document is removed and saved again.
/// 3. A batch is applied whole or not at all, and its checks and writes are one step: no other
///    writer's change lands between them.
/// 4. Data that is not a JSON object is never silently dropped: ``load(_:)`` reports it as
///    ``StorageError/Code/corruptDocument``, and ``quarantine(_:expecting:replacement:)`` keeps
///    it aside. Any other failure is ``StorageError/Code/io``, never an absent document.
/// 5. Listings give identifiers (never file or row names), of the configurable asked for only.
public protocol PreferencesStorage: Sendable {
    /// Loads a document, or `nil` when there is none.
    ///
    /// - Parameter location: Where the document lives.
    /// - Returns: The preferences with their version, or `nil`.
    /// - Throws: ``StorageError``; ``StorageError/Code/corruptDocument`` when the stored data is
    ///   not a JSON object, with the damaged data's version in ``StorageError/version`` (the data
    ///   stays where it is until ``quarantine(_:expecting:replacement:)`` sets it aside).
    func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument?

    /// Applies a batch of changes if every document is still at its expected version: all of
    /// them, or none.
    ///
    /// ```swift
    /// let versions = try await storage.commit([
    ///     .save(shared, to: .layer(configurable: "epub", .shared), expecting: sharedVersion),
    ///     .remove(.layer(configurable: "epub", .publication(id)), expecting: bookVersion),
    /// ])
    /// ```
    ///
    /// The checks and the writes are one step: no other writer's change lands between them. A
    /// location appears at most once in a batch.
    ///
    /// - Parameter changes: The changes.
    /// - Returns: One version per change, in order: the saved document's, `nil` for a removal,
    ///   the checked version for a ``DocumentChange/Action/verify``.
    /// - Throws: ``StorageError`` and nothing is changed: ``StorageError/Code/conflict`` when a
    ///   document is not at its expected version, ``StorageError/Code/io`` when the storage
    ///   fails.
    func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?]

    /// Sets damaged data aside where a person can find it, and puts `replacement` (or nothing)
    /// in its place, in one step: at every instant the location holds the damaged data or the
    /// replacement.
    ///
    /// - Parameters:
    ///   - location: Where the damaged data is.
    ///   - version: Its version, from the ``StorageError/Code/corruptDocument`` error.
    ///   - replacement: What the location holds afterwards, or `nil` for nothing.
    /// - Returns: Where the data went, and the replacement's version.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict`` when the data changed.
    func quarantine(_ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?)
        async throws(StorageError) -> Quarantine

    /// A page of the identifiers of a configurable's profiles or publications that have a
    /// document of `kind` (their layer document, or their sync snapshot).
    ///
    /// ```swift
    /// var after: String?
    /// repeat {
    ///     let page = try await storage.names(of: .publications, configurable: "epub", after: after, limit: 500)
    ///     // ...
    ///     after = page.count == 500 ? page.last : nil
    /// } while after != nil
    /// ```
    ///
    /// - Parameters:
    ///   - kind: Which documents to list.
    ///   - configurable: The configurable's identifier; no other configurable's documents are
    ///     listed.
    ///   - after: Lists only identifiers after this one in UTF-8 byte order; `nil` from the start.
    ///   - limit: The most identifiers to return; `nil` for all.
    /// - Returns: The identifiers themselves (never a file or row name), sorted by their UTF-8
    ///   bytes.
    /// - Throws: ``StorageError`` when the listing fails.
    func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError)
        -> [String]

    /// The identifiers of every configurable that has documents.
    ///
    /// - Returns: The identifiers, sorted by their UTF-8 bytes.
    /// - Throws: ``StorageError`` when the listing fails.
    func configurables() async throws(StorageError) -> [String]

    /// Every layer document the storage holds, of every configurable, with its version: what a
    /// person stored, for an export. (Sync's snapshots and state, and the device document, are
    /// this storage's own records, not exported.)
    ///
    /// The default lists ``configurables()`` and each one's layers; a database may answer in
    /// one query.
    ///
    /// - Returns: The documents, by configurable, then layer.
    /// - Throws: ``StorageError``.
    func export() async throws(StorageError) -> [ExportedDocument]

    /// Removes every document the storage holds, sync's records and the device document
    /// included, for an account's deletion or a reset. Versions never repeat afterwards.
    ///
    /// The default lists every location and removes them in batches; a database may delete a
    /// user's rows in one statement.
    ///
    /// - Throws: ``StorageError``.
    func removeAll() async throws(StorageError)

    /// The change journal of a layer document (Specs/Store.md §15.1): every key change the
    /// document-write step recorded there, oldest first, each stamped. The default keeps no
    /// journal and reads none.
    ///
    /// ```swift
    /// var cursor: JournalCursor?
    /// let read = try await storage.journal(of: .layer(configurable: "epub", .shared), after: cursor)
    /// cursor = read.cursor   // the next read gives only what was recorded since
    /// ```
    ///
    /// A storage keeps a journal once it is a replica (it has a sync state, so its edits need
    /// stamps) or keeps history; until then it records nothing and a write costs no more than the
    /// document's own. Entries come with a ``DocumentChange``'s ``DocumentChange/journal``, written
    /// in the same step as the change, and are kept within ``JournalBounds/standard``.
    ///
    /// - Parameters:
    ///   - location: A layer document.
    ///   - cursor: Where an earlier read got to; `nil` from the start.
    /// - Returns: The entries recorded after `cursor` (all of them when the journal was compacted
    ///   since), and the cursor after them.
    /// - Throws: ``StorageError`` when the journal cannot be read.
    func journal(of location: StorageLocation, after cursor: JournalCursor?) async throws(StorageError)
        -> JournalRead

    /// Runs `body` with this replica's clock, under the storage's clock lock, and keeps the clock
    /// `body` leaves: the one clock every stamp of the replica is ticked from, so that an edit's
    /// stamp is above every stamp the replica has made or accepted, in any document and any
    /// process (Specs/Sync.md §4). `nil` when the storage has no replica identity yet; a body that
    /// sets a clock gives it one. The default keeps the clock in the sync state document.
    ///
    /// - Parameter body: Reads and changes the clock; it runs under the lock, so it must not
    ///   wait for anything.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``StorageError``.
    func updateReplicaClock<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result

    /// What makes two storage values the same place, for stores that share it: a sync through
    /// one store is reported on the change streams of every store whose storage has the same
    /// identity. `nil` (the default) when the storage cannot tell.
    var identity: String? { get }

    /// The local folder the storage keeps its documents in, if any, so a sync can refuse a
    /// mirror that overlaps it. `nil` (the default) for storages that are not folders.
    var folder: URL? { get }

    /// Signals that the sync state may have changed in another process (a sync ran there), so
    /// stores open on the storage read it again. `nil` (the default) when the storage cannot
    /// tell; stores of the same process hear each other's syncs anyway.
    ///
    /// - Returns: A stream of signals, or `nil`.
    func syncSignals() -> AsyncStream<Void>?
}

extension PreferencesStorage {
    /// No identity: only the store that syncs hears what its sync changed.
    public var identity: String? { nil }

    /// Not a folder.
    public var folder: URL? { nil }

    /// No signals.
    public func syncSignals() -> AsyncStream<Void>? { nil }

    /// Saves a document if it is still at `version` (`nil`: if there is none yet): a batch of
    /// one ``DocumentChange/save(_:to:expecting:)``.
    ///
    /// - Parameters:
    ///   - preferences: The whole document.
    ///   - location: Where it lives.
    ///   - version: The version loaded before, or `nil` when none was.
    /// - Returns: The new version.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict`` when the document changed.
    @discardableResult
    public func save(
        _ preferences: Preferences, to location: StorageLocation, expecting version: StorageVersion?
    ) async throws(StorageError) -> StorageVersion {
        let versions = try await commit([.save(preferences, to: location, expecting: version)])
        guard let saved = versions.first ?? nil else {
            throw StorageError(.io, location: location, message: "the storage returned no version for a save")
        }
        return saved
    }

    /// Removes a document if it is still at `version`: a batch of one
    /// ``DocumentChange/remove(_:expecting:)``.
    ///
    /// - Parameters:
    ///   - location: Where it lives.
    ///   - version: The version loaded before.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict`` when the document changed.
    public func remove(_ location: StorageLocation, expecting version: StorageVersion)
        async throws(StorageError)
    {
        _ = try await commit([.remove(location, expecting: version)])
    }

    /// Every identifier of a configurable's profiles or publications with a document of `kind`.
    ///
    /// - Parameters:
    ///   - kind: Which documents to list.
    ///   - configurable: The configurable's identifier.
    /// - Returns: The identifiers, sorted by their UTF-8 bytes.
    /// - Throws: ``StorageError`` when the listing fails.
    public func names(of kind: StorageKind, configurable: String) async throws(StorageError) -> [String] {
        try await names(of: kind, configurable: configurable, after: nil, limit: nil)
    }

    /// Lists ``configurables()`` and, for each, its shared, overrides, profile and publication
    /// documents, then loads them.
    public func export() async throws(StorageError) -> [ExportedDocument] {
        var result: [ExportedDocument] = []
        for configurable in try await configurables() {
            for location in try await layerLocations(of: configurable) {
                guard let document = try await load(location) else { continue }
                result.append(ExportedDocument(location: location, document: document))
            }
        }
        return result
    }

    /// Lists every location (layers, their snapshots, the device document, sync's state and
    /// lease) and removes each at the version loaded, 64 to a batch, again on a conflict.
    public func removeAll() async throws(StorageError) {
        try await removeEveryDocument()
    }

    /// ``removeAll()``'s default: passes over every location until one finds nothing left.
    package func removeEveryDocument() async throws(StorageError) {
        for _ in 0..<32 {
            var locations: [StorageLocation] = [.device, .syncState, .syncLease, .replicaClock]
            for configurable in try await configurables() {
                for location in try await layerLocations(of: configurable) {
                    locations.append(location)
                    if case .layer(let configurable, let layer) = location {
                        locations.append(.syncSnapshot(configurable: configurable, layer))
                    }
                }
                for kind in StorageKind.snapshots {
                    for id in try await names(of: kind, configurable: configurable) {
                        locations.append(.syncSnapshot(configurable: configurable, kind.layer(id)))
                    }
                }
            }
            var batch: [DocumentChange] = []
            var seen = Set<StorageLocation>()
            var conflicted = false
            var found = false
            func flush() async throws(StorageError) {
                guard !batch.isEmpty else { return }
                do throws(StorageError) {
                    _ = try await commit(batch)
                } catch {
                    guard error.code == .conflict else { throw error }
                    conflicted = true
                }
                batch.removeAll()
            }
            for location in locations where seen.insert(location).inserted {
                let version: StorageVersion
                do throws(StorageError) {
                    guard let document = try await load(location) else { continue }
                    version = document.version
                } catch {
                    guard error.code == .corruptDocument, let damaged = error.version else { throw error }
                    version = damaged
                }
                found = true
                batch.append(.remove(location, expecting: version))
                if batch.count == 64 { try await flush() }
            }
            try await flush()
            if !found && !conflicted { return }
        }
        throw StorageError(
            .conflict, location: nil, message: "documents kept changing while they were removed")
    }

    /// The shared, overrides, rules, device, profile, class and publication locations of a
    /// configurable.
    private func layerLocations(of configurable: String) async throws(StorageError) -> [StorageLocation] {
        var result: [StorageLocation] = [
            .layer(configurable: configurable, .shared), .layer(configurable: configurable, .overrides),
            .layer(configurable: configurable, .rules), .layer(configurable: configurable, .device),
        ]
        for kind in StorageKind.documents {
            for id in try await names(of: kind, configurable: configurable) {
                result.append(.layer(configurable: configurable, kind.layer(id)))
            }
        }
        return result
    }
}
