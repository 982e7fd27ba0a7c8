extension EPUB {
    /// The Readium CSS stylesheet variant chosen for a publication (Specs/Resolution.md §4 step 5).
    public enum StylesheetVariant: String, Sendable, Hashable, Codable, CaseIterable {
        /// Left-to-right, non-CJK text.
        case `default`
        /// Right-to-left scripts.
        case rtl
        /// Chinese, Japanese or Korean written horizontally.
        case cjkHorizontal
        /// Chinese, Japanese or Korean written vertically.
        case cjkVertical
    }
}
