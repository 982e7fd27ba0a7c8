/// Why a storage operation failed: a code, where, and what happened.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The document changed since it was loaded; load again and retry.
        case conflict
        /// The stored data is not a JSON object; see ``StorageError/version`` and
        /// ``StorageError/movedTo``.
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
    /// For ``Code/corruptDocument``: where the damaged data was set aside, once it was.
    public var movedTo: String?
    /// For ``Code/corruptDocument``: the damaged data's version, for
    /// ``PreferencesStorage/quarantine(_:expecting:replacement:)``.
    public var version: StorageVersion?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The code.
    ///   - location: The document concerned.
    ///   - message: What happened.
    ///   - movedTo: Where corrupt data was moved.
    ///   - version: The corrupt data's version.
    public init(
        _ code: Code, location: StorageLocation?, message: String, movedTo: String? = nil,
        version: StorageVersion? = nil
    ) {
        self.code = code
        self.location = location
        self.message = message
        self.movedTo = movedTo
        self.version = version
    }

    /// `code location: message`.
    public var description: String {
        "\(code.rawValue) \(location.map(\.description) ?? "-"): \(message)"
    }

    /// The conflict a storage reports when a document changed since it was loaded.
    static func conflict(_ location: StorageLocation) -> StorageError {
        StorageError(.conflict, location: location, message: "the document changed since it was loaded")
    }
}
