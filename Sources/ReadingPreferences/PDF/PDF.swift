/// The PDF navigator's settings (Specs/Resolution.md §8). PDF has no requirement that an edit activates:
/// setting `scrollAxis` does not turn scroll on.
///
/// ```swift
/// var editor = PDF.Editor(resolver: PDF.Resolver(readingProgression: .rtl))
/// try editor.set(.scroll, true)
/// editor[.spread].isEffective   // true: the scroll axis is vertical
/// ```
public enum PDF: SettingsSchema {
    /// `pdf`: the configurable's name in files and tools (written out, not read from the type's
    /// name at run time).
    public static let identifier = "pdf"

    /// The editor of PDF preferences.
    public typealias Editor = PreferencesEditor<PDF>
    /// Resolved PDF settings.
    public typealias Settings = ResolvedSettings<PDF>
    /// App defaults for PDF.
    public typealias Defaults = SettingValueTable<PDF>
    /// A headless PDF navigator.
    public typealias Navigator = HeadlessConfigurable<PDF>
    /// How pages fit the viewport (shared with EPUB).
    public typealias Fit = EPUB.Fit
    /// When pages are shown side by side (shared with EPUB).
    public typealias Spread = EPUB.Spread
    /// The direction pages progress in (shared with EPUB).
    public typealias ReadingProgression = EPUB.ReadingProgression

    /// The PDF settings, in slot order (Specs/Resolution.md §8), with the screen-dependent keys
    /// (the page's fit and layout; Specs/Store.md §3.1).
    public static let catalogue = SettingCatalogue(
        [
            backgroundColor.descriptor, fit.descriptor, offsetFirstPage.descriptor, pageSpacing.descriptor,
            readingProgression.descriptor, scroll.descriptor, scrollAxis.descriptor, spread.descriptor,
            visibleScrollbar.descriptor,
        ], groups: groups, screenKeys: ["fit", "scroll", "scrollAxis", "spread", "pageSpacing"])

    /// The settings-form groups of PDF (Specs/Resolution.md §8): the page's color, then layout.
    public static let groups: [SettingCatalogue.Group] = [
        .init(id: "theme", title: "Theme and colors", keys: ["backgroundColor"]),
        .init(
            id: "layout", title: "Layout",
            keys: [
                "scroll", "scrollAxis", "visibleScrollbar", "readingProgression", "fit", "spread",
                "offsetFirstPage", "pageSpacing",
            ]),
    ]

    /// The direction of scrolling.
    public enum ScrollAxis: String, SettingEnumeration, Codable {
        /// Pages scroll vertically.
        case vertical
        /// Pages scroll horizontally.
        case horizontal
    }

    /// The slot of the one setting PDF resolves by a rule of its own, looked up by key.
    static let readingProgressionSlot = catalogue.slot(of: readingProgression) ?? -1

    /// Resolves PDF preferences (Specs/Resolution.md §8): preference ?? default ?? fallback, and the reading
    /// progression from the preference, then the publication's, then the default, then ltr.
    public struct Resolver: SettingsResolver, Hashable {
        /// The schema.
        public typealias Schema = PDF

        /// The reading progression the publication declares.
        public var readingProgression: PublicationReadingProgression
        /// The app defaults.
        public var defaults: Defaults

        /// Creates a resolver.
        public init(
            readingProgression: PublicationReadingProgression = .auto, defaults: Defaults = Defaults()
        ) {
            self.readingProgression = readingProgression
            self.defaults = defaults
        }

        /// Where the effective value of a slot comes from: the declared reading progression is the
        /// publication's; the rest is preference ?? default ?? fallback.
        ///
        /// - Parameters:
        ///   - slot: The slot.
        ///   - preferences: The decoded, validated preferences.
        ///   - settings: The resolved settings.
        /// - Returns: The origin.
        public func origin(
            ofSlot slot: Int, preferences: SettingValueTable<PDF>, settings: ResolvedSettings<PDF>
        ) -> SettingOrigin {
            if slot == PDF.readingProgressionSlot, preferences[slot: slot] == nil, readingProgression != .auto
            {
                return .publicationMetadata
            }
            guard settings.values[slot: slot] != nil else { return .fallback }
            return .standard(ofSlot: slot, preferences: preferences, defaults: defaults)
        }

        /// Resolves preference values into settings.
        public func resolve(_ preferences: SettingValueTable<PDF>, into settings: inout ResolvedSettings<PDF>)
        {
            settings.layout = .fixed
            StandardResolver<PDF>.resolveEach(preferences, defaults: defaults, into: &settings.values)
            let slot = PDF.readingProgressionSlot
            let declared: SettingValue? =
                switch readingProgression {
                case .ltr: .string("ltr")
                case .rtl: .string("rtl")
                case .auto: nil
                }
            settings.values.storage[slot] =
                preferences[slot: slot] ?? declared ?? defaults[slot: slot] ?? .string("ltr")
        }
    }
}
