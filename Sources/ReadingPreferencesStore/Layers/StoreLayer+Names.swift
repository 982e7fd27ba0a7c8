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
        /// A device class's preferences, by the class's id.
        case deviceClass
        /// This device's own preferences.
        case device
        /// The profile rules (Specs/Store.md §4.5).
        case rules

        /// The code.
        public var description: String { rawValue }

        /// Whether a layer of this kind is named by an identifier.
        public var hasIdentifier: Bool { self == .profile || self == .publication || self == .deviceClass }
    }

    /// The layer's kind.
    public var kind: Kind {
        switch self {
        case .shared: return .shared
        case .profile: return .profile
        case .publication: return .publication
        case .overrides: return .overrides
        case .deviceClass: return .deviceClass
        case .device: return .device
        case .rules: return .rules
        }
    }

    /// The profile's id, the class's id or the publication's identifier; `nil` for the other
    /// layers.
    public var identifier: String? {
        switch self {
        case .profile(let id), .publication(let id), .deviceClass(let id): return id
        case .shared, .overrides, .device, .rules: return nil
        }
    }

    /// The kind's code: `shared`, `profile`, `deviceClass`, `device`, `publication`,
    /// `overrides` or `rules`.
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
        case (.deviceClass, let id?): self = .deviceClass(id)
        case (.device, nil): self = .device
        default: return nil
        }
    }

    /// The layer in a scope's text (Specs/Sync.md §1): `shared`, `overrides`, `device`, `rules`,
    /// `profile/<id>`, `classes/<class>`, `publication/<identifier>`.
    public var scopePath: String {
        if case .deviceClass(let id) = self { return Self.classesPath + "/" + id }
        return identifier.map { code + "/" + $0 } ?? code
    }

    /// The first component of a class's scope path, as its folder is named.
    static let classesPath = "classes"

    /// A layer from its path in a scope (the identifier is everything after the first `/`).
    ///
    /// - Parameter scopePath: The path.
    public init?(scopePath: String) {
        let parts = scopePath.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        // A class is `classes/<class>` in a scope; its kind's code names no scope path.
        let first = String(parts[0])
        let kind: Kind
        if first == Self.classesPath {
            kind = .deviceClass
        } else if let named = Kind(rawValue: first), named != .deviceClass {
            kind = named
        } else {
            return nil
        }
        self.init(kind: kind, identifier: parts.count > 1 ? String(parts[1]) : nil)
    }
}
