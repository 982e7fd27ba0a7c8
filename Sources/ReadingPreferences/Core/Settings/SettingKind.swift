/// The kind of a setting, which decides the operations its editor handle offers (Specs/Settings.md §1).
public enum SettingKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A Boolean: `toggle`.
    case toggle
    /// A number in a range: `increment`, `decrement`, `adjust(by:)`.
    case range
    /// A range from 0 to 1 shown as a percentage.
    case percent
    /// One of a set of values: `toggle(value)`, `supportedValues`, `label`.
    case enumeration = "enum"
    /// An RGB color; an enumeration whose supported values are usually open.
    case color
    /// Any other codable value (a language tag, a font family, a dictionary of voices).
    case value

    /// Whether the kind is a number range (``range`` or ``percent``).
    public var isRange: Bool { self == .range || self == .percent }

    /// Whether the kind holds one value of a set (``enumeration`` or ``color``).
    public var isChoice: Bool { self == .enumeration || self == .color }
}

/// Whether a key belongs to every publication or to one (Specs/Resolution.md §6).
public enum SettingScope: String, Sendable, Hashable, Codable, CaseIterable {
    /// Shared by every publication.
    case shared
    /// Specific to one publication (its language, reading progression...).
    case publication
}

/// How a settings form presents a control (as Delta's inline and full-screen options).
public enum SettingPresentation: String, Sendable, Hashable, Codable, CaseIterable {
    /// In the list itself.
    case inline
    /// On a screen of its own.
    case detail
}
