import ReadingPreferences

/// One layer of stored preferences (Specs/Store.md §1.1). Lowest first, after the engine's fallbacks and the
/// app defaults (which are never stored): shared, or the active profile, which replaces it (the
/// base); the device class's, on a device of that class; this device's own; the publication's
/// own; the temporary overrides.
///
/// ```swift
/// try await store.write(["fontSize": 1.4], to: .shared)
/// try await store.write(["readingProgression": "rtl"], to: .publication("urn:isbn:978-0"))
/// ```
///
/// Identifiers compare by their Unicode scalars (Specs/Sync.md §1), never by canonical equivalence:
/// `.publication("café")` written precomposed and with a combining accent are two layers.
public enum StoreLayer: Sendable, Hashable, CustomStringConvertible {
    /// The preferences every publication shares, when no profile is active.
    case shared
    /// A profile's preferences, by the profile's id; the active profile replaces shared.
    case profile(String)
    /// What the reader wants on every device of a class (`eink`, `phone`), by the class's
    /// replica-style id: synced to every device, resolved only on devices of that class
    /// (Specs/Store.md §1.4).
    case deviceClass(String)
    /// What the reader wants on this device only: never synced (Specs/Store.md §1.4).
    case device
    /// One publication's preferences, by its identifier.
    case publication(String)
    /// Temporary overrides: a debug layer that wins over everything.
    case overrides
    /// The rules that choose a profile on each device (Specs/Store.md §4.5): a synced document
    /// of the configurable that never resolves as preferences.
    case rules

    /// `shared`, `profile(id)`, `deviceClass(id)`, `device`, `publication(id)` or `overrides`.
    public var description: String {
        switch self {
        case .shared: return "shared"
        case .profile(let id): return "profile(\(id))"
        case .deviceClass(let id): return "deviceClass(\(id))"
        case .device: return "device"
        case .publication(let id): return "publication(\(id))"
        case .overrides: return "overrides"
        case .rules: return "rules"
        }
    }

    /// Equal layers: the same kind and the same identifier, scalar for scalar.
    public static func == (lhs: StoreLayer, rhs: StoreLayer) -> Bool {
        switch (lhs, rhs) {
        case (.shared, .shared), (.overrides, .overrides), (.device, .device), (.rules, .rules): return true
        case (.profile(let a), .profile(let b)), (.publication(let a), .publication(let b)),
            (.deviceClass(let a), .deviceClass(let b)):
            return a.isScalarEqual(to: b)
        default: return false
        }
    }

    /// Hashes the kind and the identifier's bytes, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .shared: hasher.combine(0 as UInt8)
        case .profile(let id):
            hasher.combine(1 as UInt8)
            id.hashScalars(into: &hasher)
        case .publication(let id):
            hasher.combine(2 as UInt8)
            id.hashScalars(into: &hasher)
        case .overrides: hasher.combine(3 as UInt8)
        case .deviceClass(let id):
            hasher.combine(4 as UInt8)
            id.hashScalars(into: &hasher)
        case .device: hasher.combine(5 as UInt8)
        case .rules: hasher.combine(6 as UInt8)
        }
    }

    /// The profile's id, for a profile layer.
    var profileID: String? {
        if case .profile(let id) = self { return id }
        return nil
    }

    /// Whether the layer syncs (Specs/Sync.md §1): all but the overrides and this device's own.
    var isSynced: Bool { self != .overrides && self != .device }
}
