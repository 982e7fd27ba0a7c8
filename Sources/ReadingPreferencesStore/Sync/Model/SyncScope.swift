import ReadingPreferences

/// A synced document: shared preferences, a profile (by id) or a publication (by identifier)
/// of one configurable (Specs/Sync.md §1). Overrides and the device's state never sync.
///
/// Written `epub/shared`, `epub/profile/<id>` or `epub/publication/<identifier>` (the identifier
/// may contain `/`: everything after the second `/` is the identifier). Identifiers compare by
/// their Unicode scalars (Specs/Sync.md §1).
public struct SyncScope: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The configurable's identifier, such as `epub`.
    public let configurable: String
    /// The layer: ``StoreLayer/shared``, ``StoreLayer/profile(_:)`` or
    /// ``StoreLayer/publication(_:)``.
    public let layer: StoreLayer
    /// The text form, made once.
    public let description: String

    /// Creates a scope, or `nil` for a layer that does not sync (the overrides), a configurable
    /// that is empty or holds `/`, a profile id that is not a replica-style id
    /// (`[a-z0-9][a-z0-9-]{0,63}`), or an identifier holding U+0000 (Specs/Sync.md §1).
    ///
    /// - Parameters:
    ///   - configurable: The configurable.
    ///   - layer: The layer.
    public init?(configurable: String, layer: StoreLayer) {
        guard !configurable.isEmpty, !configurable.utf8.contains(UInt8(ascii: "/")),
            !StorageLocation.holdsNUL(configurable)
        else { return nil }
        guard layer.isSynced, (try? StorageLocation.layer(configurable: configurable, layer).checked()) != nil
        else { return nil }
        self.configurable = configurable
        self.layer = layer
        description = configurable + "/" + layer.scopePath
    }

    /// Reads a scope from its text form, or `nil` when it is not one.
    ///
    /// - Parameter text: `epub/shared`, `epub/profile/<id>` or `epub/publication/<identifier>`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let layer = StoreLayer(scopePath: String(parts[1])) else { return nil }
        self.init(configurable: String(parts[0]), layer: layer)
    }

    /// Where the document lives in a storage.
    public var location: StorageLocation { .layer(configurable: configurable, layer) }
    /// Where the scope's sync snapshot lives in a storage.
    var snapshotLocation: StorageLocation { .syncSnapshot(configurable: configurable, layer) }

    /// Orders scopes by their text, byte by byte.
    public static func < (lhs: SyncScope, rhs: SyncScope) -> Bool {
        lhs.description.utf8.lexicographicallyPrecedes(rhs.description.utf8)
    }

    /// Equal scopes have the same text, scalar for scalar.
    public static func == (lhs: SyncScope, rhs: SyncScope) -> Bool {
        lhs.description.isScalarEqual(to: rhs.description)
    }

    /// Hashes the text's bytes.
    public func hash(into hasher: inout Hasher) {
        description.hashScalars(into: &hasher)
    }
}
