extension EPUB {
    /// How the navigator lays out the publication's HTML: the Readium CSS stylesheet variant, the
    /// `dir` attribute and the `lang` attribute (Specs/Resolution.md §4 step 5, Specs/CSS.md §1.7).
    public struct PageLayout: Sendable, Hashable, Codable {
        /// The stylesheet variant.
        public var stylesheets: EPUB.StylesheetVariant
        /// The HTML `dir` attribute, or `nil` for none (vertical CJK).
        public var htmlDirection: HTMLDirection?
        /// The resolved language, for the `lang` attribute.
        public var language: LanguageTag?

        /// Creates a layout.
        public init(
            stylesheets: EPUB.StylesheetVariant, htmlDirection: HTMLDirection?, language: LanguageTag?
        ) {
            self.stylesheets = stylesheets
            self.htmlDirection = htmlDirection
            self.language = language
        }
    }

    /// An HTML `dir` attribute value.
    public enum HTMLDirection: String, Sendable, Hashable, Codable, CaseIterable {
        /// Left to right.
        case ltr
        /// Right to left.
        case rtl
    }
}

extension ResolvedSettings where Schema == EPUB {
    /// The layout of the publication's HTML for these settings (Specs/Resolution.md §4 step 5).
    ///
    /// ```swift
    /// let layout = settings.pageLayout
    /// layout.stylesheets     // .rtl for Arabic
    /// layout.htmlDirection   // .rtl
    /// ```
    public var pageLayout: EPUB.PageLayout {
        let variant = stylesheets
        let direction: EPUB.HTMLDirection?
        switch variant {
        case .default, .cjkHorizontal: direction = .ltr
        case .rtl: direction = .rtl
        case .cjkVertical: direction = nil
        }
        return EPUB.PageLayout(stylesheets: variant, htmlDirection: direction, language: self[EPUB.language])
    }
}
