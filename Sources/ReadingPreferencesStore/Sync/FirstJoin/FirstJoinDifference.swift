/// One document that a device holds and the mirror or server holds too, with other values, at the
/// device's first sync (Specs/Sync.md §5.9).
///
/// ```swift
/// catch let error as FirstJoinError {
///     for difference in error.differences { print(difference.scope, difference.keys) }
/// }
/// ```
public struct FirstJoinDifference: Sendable, Hashable, CustomStringConvertible {
    /// The document.
    public var scope: SyncScope
    /// The keys whose values differ, a key held on one side only included, sorted by their UTF-8
    /// bytes.
    public var keys: [String]

    /// Creates a difference.
    ///
    /// - Parameters:
    ///   - scope: The document.
    ///   - keys: The keys that differ.
    public init(scope: SyncScope, keys: [String]) {
        self.scope = scope
        self.keys = keys
    }

    /// `epub/shared: fontSize, theme`.
    public var description: String { "\(scope): \(keys.joined(separator: ", "))" }
}
