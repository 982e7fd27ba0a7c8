/// A synced document: shared preferences, a profile (by id) or a publication (by identifier)
/// of one configurable (SPEC 10). Overrides and the device's state never sync.
///
/// Written `epub/shared`, `epub/profile/<id>` or `epub/publication/<identifier>` (the identifier
/// may contain `/`: everything after the second `/` is the identifier).
public struct SyncScope: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The configurable's identifier, such as `epub`.
    public var configurable: String
    /// The layer: ``StoreLayer/shared``, ``StoreLayer/profile(_:)`` or
    /// ``StoreLayer/publication(_:)``.
    public var layer: StoreLayer

    /// Creates a scope.
    ///
    /// - Parameters:
    ///   - configurable: The configurable.
    ///   - layer: The layer (never the overrides).
    public init(configurable: String, layer: StoreLayer) {
        self.configurable = configurable
        self.layer = layer
    }

    /// Reads a scope from its text form, or `nil` when it is not one.
    ///
    /// - Parameter text: `epub/shared`, `epub/profile/<id>` or `epub/publication/<identifier>`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts[0].isEmpty else { return nil }
        configurable = String(parts[0])
        switch (parts[1], parts.count) {
        case ("shared", 2): layer = .shared
        case ("profile", 3) where !parts[2].isEmpty: layer = .profile(String(parts[2]))
        case ("publication", 3): layer = .publication(String(parts[2]))
        default: return nil
        }
    }

    /// The text form.
    public var description: String {
        switch layer {
        case .shared, .overrides: return "\(configurable)/shared"
        case .profile(let id): return "\(configurable)/profile/\(id)"
        case .publication(let id): return "\(configurable)/publication/\(id)"
        }
    }

    /// Orders scopes by their text, byte by byte.
    public static func < (lhs: SyncScope, rhs: SyncScope) -> Bool {
        lhs.description.utf8.lexicographicallyPrecedes(rhs.description.utf8)
    }
}
