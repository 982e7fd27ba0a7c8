import ReadingPreferences

/// A whole document refused because more than one of its values was rejected: every rejected
/// key with its reason, in the document's order (one rejected value is thrown as its
/// `PreferenceError`).
///
/// ```swift
/// do {
///     try await store.replaceDocument(document, in: .shared, context: context)
/// } catch let rejection as DocumentRejection {
///     for error in rejection.errors { print(error.key, error.code) }
/// }
/// ```
public struct DocumentRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// Each rejected key's error, in the document's order.
    public var errors: [PreferenceError]

    /// A rejection of these errors.
    ///
    /// - Parameter errors: The rejected keys' errors.
    public init(errors: [PreferenceError]) { self.errors = errors }

    /// One line per rejected key.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
