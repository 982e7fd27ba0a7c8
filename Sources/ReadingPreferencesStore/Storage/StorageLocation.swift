import ReadingPreferences

/// Where one document lives in a ``PreferencesStorage``.
///
/// A store keeps the layers of each configurable and this device's own state; sync keeps, through
/// the same storage, a snapshot of stamps beside each synced document and the replica's state
/// (Specs/Sync.md §8), so any storage that keeps documents can sync.
public enum StorageLocation: Sendable, Hashable, CustomStringConvertible {
    /// A layer of one configurable (`epub`, `pdf`...).
    case layer(configurable: String, StoreLayer)
    /// This device's own state (which profile is active), never synced.
    case device
    /// The sync snapshot of a synced layer: its keys as last stamped, with their stamps.
    case syncSnapshot(configurable: String, StoreLayer)
    /// This replica's sync state: its id, its clock and the replicas it knows.
    case syncState
    /// The sync lock: which sync of the storage runs now, and until when.
    case syncLease
    /// The replica clock every stamp of this replica is ticked from (Specs/Sync.md §8), for a
    /// storage that keeps it as a document (``PreferencesStorage/updateReplicaClock(_:)``'s
    /// default).
    case replicaClock

    /// `epub/shared`, `epub/publication(id)`, `device`, `epub/shared (sync snapshot)`,
    /// `sync state`, `sync lease`.
    public var description: String {
        switch self {
        case .layer(let configurable, let layer): return "\(configurable)/\(layer)"
        case .device: return "device"
        case .syncSnapshot(let configurable, let layer): return "\(configurable)/\(layer) (sync snapshot)"
        case .syncState: return "sync state"
        case .syncLease: return "sync lease"
        case .replicaClock: return "replica clock"
        }
    }

    /// Equal locations: the same kind, configurable and layer, scalar for scalar.
    public static func == (lhs: StorageLocation, rhs: StorageLocation) -> Bool {
        switch (lhs, rhs) {
        case (.layer(let a, let x), .layer(let b, let y)),
            (.syncSnapshot(let a, let x), .syncSnapshot(let b, let y)):
            return x == y && a.isScalarEqual(to: b)
        case (.device, .device), (.syncState, .syncState), (.syncLease, .syncLease),
            (.replicaClock, .replicaClock):
            return true
        default: return false
        }
    }

    /// Hashes consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .layer(let configurable, let layer):
            hasher.combine(0 as UInt8)
            configurable.hashScalars(into: &hasher)
            hasher.combine(layer)
        case .device: hasher.combine(1 as UInt8)
        case .syncSnapshot(let configurable, let layer):
            hasher.combine(2 as UInt8)
            configurable.hashScalars(into: &hasher)
            hasher.combine(layer)
        case .syncState: hasher.combine(3 as UInt8)
        case .syncLease: hasher.combine(4 as UInt8)
        case .replicaClock: hasher.combine(5 as UInt8)
        }
    }

    /// Whether the location is a layer's document (the documents that keep a change journal).
    public var isLayer: Bool {
        if case .layer = self { return true }
        return false
    }

    /// The configurable of a layer or snapshot location.
    var configurable: String? {
        switch self {
        case .layer(let configurable, _), .syncSnapshot(let configurable, _): return configurable
        case .device, .syncState, .syncLease, .replicaClock: return nil
        }
    }
}
