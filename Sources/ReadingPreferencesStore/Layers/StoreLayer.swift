/// One layer of stored preferences (SPEC 9). Lowest first, after the engine's fallbacks and the
/// app defaults (which are never stored): shared, or the active profile, which replaces it; the
/// publication's own; the temporary overrides.
///
/// ```swift
/// try await store.write(["fontSize": 1.4], to: .shared)
/// try await store.write(["readingProgression": "rtl"], to: .publication("urn:isbn:978-0"))
/// ```
public enum StoreLayer: Sendable, Hashable, CustomStringConvertible {
    /// The preferences every publication shares, when no profile is active.
    case shared
    /// A profile's preferences, by the profile's id; the active profile replaces shared.
    case profile(String)
    /// One publication's preferences, by its identifier.
    case publication(String)
    /// Temporary overrides: a debug layer that wins over everything.
    case overrides

    /// `shared`, `profile(id)`, `publication(id)` or `overrides`.
    public var description: String {
        switch self {
        case .shared: return "shared"
        case .profile(let id): return "profile(\(id))"
        case .publication(let id): return "publication(\(id))"
        case .overrides: return "overrides"
        }
    }
}
