/// A device's first sync found documents of its own that differ from the ones the mirror or server
/// holds, and no ``FirstJoinChoice`` was given (Specs/Sync.md §5.9): nothing was written, on either
/// side. Sync again with ``SyncOptions/firstJoin`` set.
///
/// ```swift
/// do {
///     try await store.sync(with: mirror)
/// } catch let error as FirstJoinError {
///     let choice = await askReader(error.differences)   // keepMine, takeTheirs or merge
///     try await store.sync(with: mirror, options: SyncOptions(firstJoin: choice))
/// }
/// ```
public struct FirstJoinError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The documents that differ, in the order of their scopes.
    public var differences: [FirstJoinDifference]

    /// Creates the error.
    ///
    /// - Parameter differences: The documents that differ.
    public init(differences: [FirstJoinDifference]) {
        self.differences = differences
    }

    /// What differs, and the three choices.
    public var description: String {
        "this device's first sync found documents that differ from the synced ones ("
            + differences.map(\.description).joined(separator: "; ")
            + "); nothing was written: choose keepMine, takeTheirs or merge"
    }
}
