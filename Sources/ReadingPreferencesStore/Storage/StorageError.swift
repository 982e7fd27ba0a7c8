/// Why a storage operation failed: a code, where, what happened, and whether trying again may
/// work.
///
/// ```swift
/// do {
///     try await store.apply(edit, publication: bookID, ifMatch: etag)
/// } catch let error as StorageError where error.code == .preconditionFailed {
///     // 412: the client read an older state
/// } catch let error as StorageError where error.isTransient {
///     // 503, retry later
/// }
/// ```
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The document changed since it was loaded; load again and retry.
        case conflict
        /// The stored data is not a JSON object; see ``StorageError/version`` and
        /// ``StorageError/movedTo``.
        case corruptDocument
        /// Reading or writing failed (permissions, disk full, the database is away).
        case io
        /// A conditional edit's precondition no longer holds: the state the client read (its
        /// ETag) is not the current one. Nothing was written.
        case preconditionFailed
        /// A document no storage may hold was asked for: an identifier holding U+0000, or a
        /// profile id that is not replica-style (``StorageLocation/checked()``). Nothing was
        /// read or written.
        case invalidIdentifier
        /// A document to save has a key holding U+0000, which no key may hold
        /// (``DocumentChange/check(_:)``). Nothing was written.
        case invalidKey
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
    /// ``PreferencesStorage/quarantine(_:expecting:replacement:)``; for
    /// ``Code/preconditionFailed``: the current ETag.
    public var version: StorageVersion?
    /// Whether the same operation may succeed if tried again later: a conflict, a lock or a
    /// connection that timed out, a database restarting. A corrupt document, a refused
    /// permission or a full disk are not.
    public var isTransient: Bool
    /// The error underneath (the system's, the database driver's), when there is one.
    public var underlying: (any Error & Sendable)?
    /// For ``Code/preconditionFailed`` of an edit's per-key expectations (``ExpectedValue``):
    /// each key that holds another value than the one expected, in the order expected.
    public var staleValues: [StaleValue] = []

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The code.
    ///   - location: The document concerned.
    ///   - message: What happened.
    ///   - movedTo: Where corrupt data was moved.
    ///   - version: The corrupt data's version, or the current ETag.
    ///   - isTransient: Whether trying again may work; by default, `true` for a conflict only.
    ///   - underlying: The error underneath.
    public init(
        _ code: Code, location: StorageLocation?, message: String, movedTo: String? = nil,
        version: StorageVersion? = nil, isTransient: Bool? = nil, underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.location = location
        self.message = message
        self.movedTo = movedTo
        self.version = version
        self.isTransient = isTransient ?? (code == .conflict)
        self.underlying = underlying
    }

    /// `code location: message`.
    public var description: String {
        "\(code.rawValue) \(location.map(\.description) ?? "-"): \(message)"
    }

    /// Errors are equal when their code, location, message, set-aside place, version and
    /// transience are; the underlying error is not compared.
    public static func == (lhs: StorageError, rhs: StorageError) -> Bool {
        lhs.code == rhs.code && lhs.location == rhs.location && lhs.message == rhs.message
            && lhs.movedTo == rhs.movedTo && lhs.version == rhs.version && lhs.isTransient == rhs.isTransient
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(location)
        hasher.combine(message)
        hasher.combine(movedTo)
        hasher.combine(version)
        hasher.combine(isTransient)
    }

    /// The conflict a storage reports when a document is not at the version a change expects.
    ///
    /// - Parameter location: The document.
    /// - Returns: The error.
    public static func conflict(_ location: StorageLocation) -> StorageError {
        StorageError(.conflict, location: location, message: "the document changed since it was loaded")
    }
}
