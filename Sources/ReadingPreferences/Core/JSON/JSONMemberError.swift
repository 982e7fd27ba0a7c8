/// A JSON input whose member has the wrong type or an unaccepted value, named by its path.
///
/// Tool inputs (a publication file, a conformance vector) are read member by member; the first
/// problem is reported with the path of the member, so a person can find it at once:
///
/// ```swift
/// do {
///     _ = try PublicationContext(json: ["layout": "fluid"])
/// } catch {
///     print(error)   // layout: expected "reflowable" or "fixed", got "fluid"
/// }
/// ```
public struct JSONMemberError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The member's path, such as `edits[1].op` or `publication.layout`; empty for the document
    /// itself.
    public var path: String
    /// What is wrong with the member, such as `unknown op "sett"`.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - path: The member's path (empty for the whole document).
    ///   - message: What is wrong, without the path.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or the message alone for the whole document.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
