extension EPUB {
    /// What the EPUB navigator knows of the publication (SPEC 5.1).
    ///
    /// ```swift
    /// let context = EPUB.Publication(layout: .reflowable, languages: ["ja"], readingProgression: .rtl)
    /// ```
    public struct Publication: Sendable, Hashable, Codable {
        /// Reflowable (default) or fixed layout.
        public var layout: PublicationLayout
        /// BCP-47 tags; the first one is the publication language.
        public var languages: [Language]
        /// The declared reading progression.
        public var readingProgression: PublicationReadingProgression

        /// Creates a publication context.
        public init(
            layout: PublicationLayout = .reflowable, languages: [Language] = [],
            readingProgression: PublicationReadingProgression = .auto
        ) {
            self.layout = layout
            self.languages = languages
            self.readingProgression = readingProgression
        }

        /// Decodes a context; every member is optional and `null` counts as missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            layout = try container.decodeIfPresent(PublicationLayout.self, forKey: .layout) ?? .reflowable
            languages = try container.decodeIfPresent([Language].self, forKey: .languages) ?? []
            readingProgression =
                try container.decodeIfPresent(PublicationReadingProgression.self, forKey: .readingProgression)
                ?? .auto
        }

        /// The publication language: the first of ``languages``.
        public var language: Language? { languages.first }
    }
}
