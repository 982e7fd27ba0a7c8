import ReadingPreferences

// Every spelling of a layer, in one place: its kind's code (JSON, the command line, HTTP), its
// path in a scope (sync, SQL rows) and its path in a document route.

extension StoreLayer {
    /// What kind of layer: the closed set, with its code.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Shared preferences.
        case shared
        /// A profile, by its id.
        case profile
        /// A publication's own preferences, by its identifier.
        case publication
        /// The temporary overrides.
        case overrides
        /// The profile rules (Specs/Store.md §4.5).
        case rules

        /// The code.
        public var description: String { rawValue }

        /// Whether a layer of this kind is named by an identifier.
        public var hasIdentifier: Bool { self == .profile || self == .publication }
    }

    /// The layer's kind.
    public var kind: Kind {
        switch self {
        case .shared: return .shared
        case .profile: return .profile
        case .publication: return .publication
        case .overrides: return .overrides
        case .rules: return .rules
        }
    }

    /// The profile's id or the publication's identifier; `nil` for the other layers.
    public var identifier: String? {
        switch self {
        case .profile(let id), .publication(let id): return id
        case .shared, .overrides, .rules: return nil
        }
    }

    /// The kind's code: `shared`, `profile`, `publication`, `overrides` or `rules`.
    public var code: String { kind.rawValue }

    /// A layer from its kind and, for a profile or a publication, its identifier.
    ///
    /// - Parameters:
    ///   - kind: The kind.
    ///   - identifier: The identifier, for a kind that has one.
    public init?(kind: Kind, identifier: String? = nil) {
        switch (kind, identifier) {
        case (.shared, nil): self = .shared
        case (.overrides, nil): self = .overrides
        case (.rules, nil): self = .rules
        case (.profile, let id?): self = .profile(id)
        case (.publication, let id?): self = .publication(id)
        default: return nil
        }
    }

    /// The layer in a scope's text (Specs/Sync.md §1): `shared`, `overrides`, `rules`,
    /// `profile/<id>`, `publication/<identifier>`.
    public var scopePath: String {
        identifier.map { code + "/" + $0 } ?? code
    }

    /// A layer from its path in a scope (the identifier is everything after the first `/`).
    ///
    /// - Parameter scopePath: The path.
    public init?(scopePath: String) {
        let parts = scopePath.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let kind = Kind(rawValue: String(parts[0])) else { return nil }
        self.init(kind: kind, identifier: parts.count > 1 ? String(parts[1]) : nil)
    }
}
