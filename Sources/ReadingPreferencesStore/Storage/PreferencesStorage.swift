import Foundation
import ReadingPreferences

/// Where the store keeps documents: plain files (``FileStorage``), memory (``InMemoryStorage``),
/// or a server's own database (SPEC 9).
///
/// A storage holds JSON documents at ``StorageLocation``s, each with an opaque
/// ``StorageVersion``. Saving is optimistic: it succeeds only when the document is still at the
/// version the caller loaded (or still absent), and fails with ``StorageError/Code/conflict``
/// otherwise; the store then loads again, re-applies only the keys it changed, and retries
/// (in one retry-on-conflict loop), so no writer ever loses another's update. The same documents
/// carry sync's state (``StorageLocation/syncSnapshot(configurable:_:)`` and
/// ``StorageLocation/syncState``), so every storage can sync. Implement it over a table of
/// `(user_id, location, json, version)`: see the "Storing preferences on a server" article.
///
/// Rules every storage keeps (`StorageConformance`, in `ReadingPreferencesConformance`, checks them):
/// 1. A document loads back exactly as saved: member order, every number's text, `$` keys.
/// 2. Equal versions mean equal documents: a version is never reused for other contents, even
///    after the document is removed and saved again.
/// 3. Data that is not a JSON object is never silently dropped: ``load(_:)`` reports it, and
///    ``quarantine(_:expecting:replacement:)`` keeps it aside.
public protocol PreferencesStorage: Sendable {
    /// Loads a document, or `nil` when there is none.
    ///
    /// - Parameter location: Where the document lives.
    /// - Returns: The preferences with their version, or `nil`.
    /// - Throws: ``StorageError``; ``StorageError/Code/corruptDocument`` when the stored data is
    ///   not a JSON object, with the damaged data's version in ``StorageError/version`` (the data
    ///   stays where it is until ``quarantine(_:expecting:replacement:)`` sets it aside).
    func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument?

    /// Saves a document if it is still at `version` (`nil`: if there is none yet).
    ///
    /// - Parameters:
    ///   - preferences: The whole document.
    ///   - location: Where it lives.
    ///   - version: The version loaded before, or `nil` when none was.
    /// - Returns: The new version.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict`` when the document changed.
    func save(
        _ preferences: Preferences, to location: StorageLocation, expecting version: StorageVersion?
    ) async throws(StorageError) -> StorageVersion

    /// Removes a document if it is still at `version`.
    ///
    /// - Parameters:
    ///   - location: Where it lives.
    ///   - version: The version loaded before.
    /// - Throws: ``StorageError`` with ``StorageError/Code/conflict`` when the document changed.
    func remove(_ location: StorageLocation, expecting version: StorageVersion) async throws(StorageError)

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

    /// The identifiers of a configurable's profiles or publications that have a document of
    /// `kind` (their layer document, or their sync snapshot).
    ///
    /// - Parameters:
    ///   - kind: Which documents to list.
    ///   - configurable: The configurable's identifier.
    /// - Returns: The identifiers, sorted by their UTF-8 bytes.
    /// - Throws: ``StorageError`` when the listing fails.
    func names(of kind: StorageKind, configurable: String) async throws(StorageError) -> [String]

    /// The identifiers of every configurable that has documents.
    ///
    /// - Returns: The identifiers, sorted by their UTF-8 bytes.
    /// - Throws: ``StorageError`` when the listing fails.
    func configurables() async throws(StorageError) -> [String]

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
}

/// Which documents ``PreferencesStorage/names(of:configurable:)`` lists.
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

/// An opaque version of a stored document: equal versions mean the same document.
public struct StorageVersion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The storage's own text (a digest of the contents, a database row version).
    public let rawValue: String

    /// Wraps a storage's version text.
    ///
    /// - Parameter rawValue: The text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The text.
    public var description: String { rawValue }
}

/// A loaded document and its version.
public struct StoredDocument: Sendable, Hashable {
    /// The document's preferences, reserved `$` keys included.
    public var preferences: Preferences
    /// Its version.
    public var version: StorageVersion

    /// Creates a loaded document.
    ///
    /// - Parameters:
    ///   - preferences: The preferences.
    ///   - version: The version.
    public init(preferences: Preferences, version: StorageVersion) {
        self.preferences = preferences
        self.version = version
    }
}

/// Where ``PreferencesStorage/quarantine(_:expecting:replacement:)`` put damaged data.
public struct Quarantine: Sendable, Hashable {
    /// Where the damaged data is kept now (a file's path, a table's row), for people.
    public var movedTo: String
    /// The version of the replacement, or `nil` when the location holds nothing now.
    public var version: StorageVersion?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - movedTo: Where the damaged data went.
    ///   - version: The replacement's version.
    public init(movedTo: String, version: StorageVersion?) {
        self.movedTo = movedTo
        self.version = version
    }
}
