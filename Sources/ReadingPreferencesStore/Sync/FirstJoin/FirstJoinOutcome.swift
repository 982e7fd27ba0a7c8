import Foundation

/// What a device's first sync did with documents that differed from the synced ones
/// (Specs/Sync.md §5.9), in ``SyncReport/firstJoin``.
///
/// ```swift
/// let report = try await store.sync(with: mirror, options: SyncOptions(firstJoin: .takeTheirs))
/// if let export = report.firstJoin?.export { print("your settings were kept in", export.path) }
/// ```
public struct FirstJoinOutcome: Sendable, Hashable {
    /// The choice applied.
    public var choice: FirstJoinChoice
    /// The documents that differed.
    public var differences: [FirstJoinDifference]
    /// For ``FirstJoinChoice/takeTheirs``: the export file holding this device's documents as
    /// they were, which ``PreferencesStore/restore(_:)`` restores.
    public var export: URL?

    /// Creates an outcome.
    ///
    /// - Parameters:
    ///   - choice: The choice applied.
    ///   - differences: The documents that differed.
    ///   - export: The export file, for ``FirstJoinChoice/takeTheirs``.
    public init(choice: FirstJoinChoice, differences: [FirstJoinDifference], export: URL? = nil) {
        self.choice = choice
        self.differences = differences
        self.export = export
    }
}
