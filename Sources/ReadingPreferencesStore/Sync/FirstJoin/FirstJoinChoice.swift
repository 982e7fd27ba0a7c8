/// What a device's first sync does when the mirror or server already holds documents that differ
/// from the device's own (Specs/Sync.md §5.9). Without a choice, that sync writes nothing and
/// throws ``FirstJoinError``, naming the keys that differ.
///
/// ```swift
/// try await store.sync(with: mirror, options: SyncOptions(firstJoin: .takeTheirs))
/// ```
public enum FirstJoinChoice: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// This device's documents win: each differing document's keys are stamped now, above every
    /// stamp read, and the keys only the others hold are removed, so every device ends with this
    /// device's documents.
    case keepMine
    /// The synced documents win: each differing document of this device is replaced by the synced
    /// one, after it is set aside in an export file (``FirstJoinOutcome/export``) that
    /// ``PreferencesStore/restore(_:)`` restores.
    case takeTheirs
    /// The per-key rule of every sync (Specs/Sync.md §3): this device's keys, stamped as its edits
    /// were made, merge with the others' key by key.
    case merge

    /// The spelling of the command line: `keep-mine`, `take-theirs`, `merge`.
    public var argument: String {
        switch self {
        case .keepMine: "keep-mine"
        case .takeTheirs: "take-theirs"
        case .merge: "merge"
        }
    }

    /// The choice the command line spells `argument`, or `nil`.
    ///
    /// - Parameter argument: `keep-mine`, `take-theirs` or `merge`.
    public init?(argument: String) {
        guard let choice = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
        self = choice
    }

    /// The name in the library: `keepMine`, `takeTheirs`, `merge`.
    public var description: String { rawValue }
}
