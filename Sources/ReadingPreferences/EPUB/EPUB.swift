/// The EPUB configurable: its 27 settings, their resolution and Readium CSS (Specs/Resolution.md §4, §5, Specs/CSS.md §1).
///
/// ```swift
/// let publication = PublicationContext(layout: .reflowable, languages: ["ar"])
/// var editor = EPUB.Editor(resolver: EPUB.Resolver(publication: publication))
/// try editor.set(.fontSize, 1.4)
/// editor.settings[.readingProgression]   // .rtl
/// ```
public enum EPUB: SettingsSchema {
    /// `epub`: the configurable's name in files and tools (written out, not read from the type's
    /// name at run time).
    public static let identifier = "epub"

    /// The editor of EPUB preferences.
    public typealias Editor = PreferencesEditor<EPUB>
    /// Resolved EPUB settings.
    public typealias Settings = ResolvedSettings<EPUB>
    /// App defaults for EPUB (every key except backgroundColor, textColor, fontFamily and
    /// verticalText, which defaults ignore).
    public typealias Defaults = SettingValueTable<EPUB>
    /// A headless EPUB navigator.
    public typealias Navigator = HeadlessConfigurable<EPUB>

    /// The 27 EPUB settings, in slot order (Specs/Resolution.md §5), with the screen-dependent
    /// keys the form-factor scope policy keeps per device class (Specs/Store.md §3.1).
    public static let catalogue = SettingCatalogue(
        [
            backgroundColor.descriptor,
            columnCount.descriptor,
            fit.descriptor,
            fontFamily.descriptor,
            fontSize.descriptor,
            fontWeight.descriptor,
            hyphens.descriptor,
            imageFilter.descriptor,
            language.descriptor,
            letterSpacing.descriptor,
            ligatures.descriptor,
            lineHeight.descriptor,
            offsetFirstPage.descriptor,
            pageMargins.descriptor,
            paragraphIndent.descriptor,
            paragraphSpacing.descriptor,
            publisherStyles.descriptor,
            readingProgression.descriptor,
            scroll.descriptor,
            spread.descriptor,
            textAlign.descriptor,
            textColor.descriptor,
            textNormalization.descriptor,
            theme.descriptor,
            typeScale.descriptor,
            verticalText.descriptor,
            wordSpacing.descriptor,
        ], groups: groups,
        screenKeys: [
            "fontSize", "fontWeight", "pageMargins", "columnCount", "lineHeight", "scroll", "spread", "fit",
        ])

    /// The settings-form groups of EPUB, in the order readers' settings panels show them
    /// (Specs/Resolution.md §5, §9.4): theme and colors, text, spacing (publisher styles first, since
    /// the spacing settings need them off), then layout, with the publication's own direction and
    /// language last.
    public static let groups: [SettingCatalogue.Group] = [
        .init(
            id: "theme", title: "Theme and colors",
            keys: ["theme", "backgroundColor", "textColor", "imageFilter"]),
        .init(
            id: "text", title: "Text",
            keys: [
                "fontFamily", "fontSize", "fontWeight", "textAlign", "hyphens", "typeScale", "ligatures",
                "textNormalization",
            ]),
        .init(
            id: "spacing", title: "Spacing",
            keys: [
                "publisherStyles", "lineHeight", "paragraphSpacing", "paragraphIndent", "wordSpacing",
                "letterSpacing",
            ]),
        .init(
            id: "layout", title: "Layout",
            keys: [
                "scroll", "columnCount", "pageMargins", "readingProgression", "verticalText", "language",
                "fit", "spread", "offsetFirstPage",
            ]),
    ]

    /// The keys specific to one publication (Specs/Resolution.md §6).
    public static let publicationKeys = catalogue.publicationKeys

    /// The slots of the settings that resolution reads by rule (Specs/Resolution.md §4), looked up in the
    /// catalogue by key once, so no slot is ever numbered by hand.
    struct RuleSlots: Sendable {
        let language: Int
        let readingProgression: Int
        let verticalText: Int
        let scroll: Int
        let theme: Int
        let fontFamily: Int
        let textAlign: Int
        let hyphens: Int
        let backgroundColor: Int
        let textColor: Int

        init(_ catalogue: SettingCatalogue) {
            // A setting missing from the catalogue gets slot -1, which reads as unset.
            func slot<Value>(_ setting: Setting<EPUB, Value>) -> Int { catalogue.slot(of: setting) ?? -1 }
            language = slot(EPUB.language)
            readingProgression = slot(EPUB.readingProgression)
            verticalText = slot(EPUB.verticalText)
            scroll = slot(EPUB.scroll)
            theme = slot(EPUB.theme)
            fontFamily = slot(EPUB.fontFamily)
            textAlign = slot(EPUB.textAlign)
            hyphens = slot(EPUB.hyphens)
            backgroundColor = slot(EPUB.backgroundColor)
            textColor = slot(EPUB.textColor)
        }

        /// The slots whose value steps 1 to 5, 7 and the font rule of Specs/Resolution.md §4
        /// decide; every other slot only falls back (step 6), so an edit of it re-resolves that
        /// slot alone (Specs/Resolution.md §10.2).
        var resolvedByRule: [Int] { [language, readingProgression, verticalText, scroll, theme, fontFamily] }

        /// ``resolvedByRule`` as a mask of slots, for the test an edit makes.
        var resolvedByRuleMask: UInt64 {
            resolvedByRule.reduce(0) { mask, slot in slot >= 0 && slot < 64 ? mask | 1 << UInt64(slot) : mask
            }
        }
    }

    static let slots = RuleSlots(catalogue)
    /// `slots.resolvedByRuleMask`, computed once.
    static let slotsResolvedByRule = slots.resolvedByRuleMask
}
