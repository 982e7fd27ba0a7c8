/// The reading progression a publication declares (Specs/Resolution.md §2).
public enum PublicationReadingProgression: String, Sendable, Hashable, Codable, CaseIterable {
    /// Left to right.
    case ltr
    /// Right to left.
    case rtl
    /// Not declared: derived from the language.
    case auto
}
