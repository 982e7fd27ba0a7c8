/// The layout of a publication (Specs/Resolution.md §2).
public enum PublicationLayout: String, Sendable, Hashable, Codable, CaseIterable {
    /// Text that reflows to the screen; the user's style settings apply.
    case reflowable
    /// Pre-paginated pages; style settings do not apply.
    case fixed
}
