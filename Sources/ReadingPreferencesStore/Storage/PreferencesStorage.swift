import ReadingPreferences

/// Where the store keeps documents: plain files (``FileStorage``), memory (``InMemoryStorage``),
/// or a server's own database (SPEC 9).
///
/// A storage holds JSON documents of preferences at ``StorageLocation``s, each with an opaque
/// ``StorageVersion``. Saving is optimistic: it succeeds only when the document is still at the
/// version the caller loaded (or still absent), and fails with ``StorageError/Code/conflict``
/// otherwise; the store then loads again, re-applies only the keys it changed, and retries, so no
/// writer ever loses another's update. Implement it over a table of
/// `(user_id, scope, json, version)` in an afternoon: see the "Storing preferences on a server"
/// article.
public protocol PreferencesStorage: Sendable {
    /// Loads a document, or `nil` when there is none.
    ///
    /// - Parameter location: Where the document lives.
    /// - Returns: The preferences with their version, or `nil`.
    /// - Throws: ``StorageError``; ``StorageError/Code/corruptDocument`` when the stored data is
    ///   not a JSON object (the storage then keeps it aside, never in the way of a new save).
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

    /// The ids of a configurable's profiles, or the stored names of its publications (for files,
    /// the safe file names: a publication's identifier is in its document's `$id`).
    ///
    /// - Parameters:
    ///   - kind: Profiles or publications.
    ///   - configurable: The configurable's identifier.
    /// - Returns: The names, sorted.
    /// - Throws: ``StorageError`` when the listing fails.
    func names(of kind: StorageKind, configurable: String) async throws(StorageError) -> [String]
}

/// Which documents ``PreferencesStorage/names(of:configurable:)`` lists.
public enum StorageKind: String, Sendable, Hashable, CaseIterable {
    /// Profiles, by id.
    case profiles
    /// Publications.
    case publications
}

/// Where one document lives.
public enum StorageLocation: Sendable, Hashable, CustomStringConvertible {
    /// A layer of one configurable (`epub`, `pdf`...).
    case layer(configurable: String, StoreLayer)
    /// This device's own state (which profile is active), never synced.
    case device

    /// `epub/shared`, `epub/publication(id)`, `device`.
    public var description: String {
        switch self {
        case .layer(let configurable, let layer): return "\(configurable)/\(layer)"
        case .device: return "device"
        }
    }
}

/// An opaque version of a stored document: equal versions mean the same document.
public struct StorageVersion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The storage's own text (a counter, a file's identity, a database row version).
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

/// Why a storage operation failed: a code, where, and what happened.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The document changed since it was loaded; load again and retry.
        case conflict
        /// The stored data is not a JSON object; it was kept aside (``StorageError/movedTo``).
        case corruptDocument
        /// Reading or writing failed (permissions, disk full...).
        case io
    }

    /// The code.
    public var code: Code
    /// The document concerned.
    public var location: StorageLocation?
    /// What happened, in English.
    public var message: String
    /// For ``Code/corruptDocument``: where the corrupt data was moved.
    public var movedTo: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The code.
    ///   - location: The document concerned.
    ///   - message: What happened.
    ///   - movedTo: Where corrupt data was moved.
    public init(_ code: Code, location: StorageLocation?, message: String, movedTo: String? = nil) {
        self.code = code
        self.location = location
        self.message = message
        self.movedTo = movedTo
    }

    /// `code location: message`.
    public var description: String {
        "\(code.rawValue) \(location.map(\.description) ?? "-"): \(message)"
    }
}
