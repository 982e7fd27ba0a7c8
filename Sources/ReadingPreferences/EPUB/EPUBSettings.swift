// The EPUB catalogue, row by row (Specs/Resolution.md §5). "Effective when" cells become activators in the
// order written.
private let reflowable = SettingActivator.condition(.layout(.reflowable))
private let fixed = SettingActivator.condition(.layout(.fixed))
private let valueResolved = SettingActivator.condition(.valueResolved)
private let isSet = SettingActivator.condition(.isSet)
/// PS: requires `publisherStyles = false`, the only automatic requirement in EPUB (Specs/Settings.md §4).
private let publisherStylesOff = SettingActivator.requiresPreference(
    key: "publisherStyles", value: .bool(false), automatic: true)

/// SS(...): the resolved stylesheets apply this Readium CSS user setting, in the Readium CSS the
/// environment names (Specs/Resolution.md §5.2).
private func stylesheetsApply(_ name: ReadiumCSSSupport.Feature) -> SettingActivator {
    .condition(.readiumCSS(name.rawValue))
}

extension EPUB {
    /// The page background color; when unset the theme's applies.
    public static let backgroundColor = Setting<EPUB, RGBColor>.color(
        "backgroundColor", title: "Background color"
    ) {
        $0.activator = .allOf([isSet])
        $0.acceptsDefault = false
    }

    /// The number of columns in paginated mode; effective only when scroll is off.
    public static let columnCount = Setting<EPUB, ColumnCount>.enumeration("columnCount", title: "Columns") {
        $0.fallback = .string("auto")
        $0.activator = .allOf([
            reflowable, .requiresPreference(key: "scroll", value: .bool(false), automatic: false),
        ])
        $0.labels = ["auto": "Auto", "1": "1", "2": "2"]
    }

    /// How fixed-layout pages fit the viewport.
    public static let fit = Setting<EPUB, Fit>.enumeration("fit", title: "Fit") {
        $0.fallback = .string("auto")
        $0.activator = .allOf([fixed])
    }

    /// The font family; unset means the publisher's.
    public static let fontFamily = Setting<EPUB, EPUB.FontFamily>.value(
        "fontFamily", title: "Font", coder: .string
    ) {
        $0.activator = .allOf([reflowable, .condition(.availableForPublication), valueResolved])
        $0.acceptsDefault = false
    }

    /// The font size, as a multiple of the publisher's (1.0 = 100%).
    public static let fontSize = Setting<EPUB, Double>.range(
        "fontSize", title: "Font size", range: 0.1...5.0, increment: 0.1, format: .percent
    ) {
        $0.fallback = .number(1.0)
        $0.activator = .allOf([reflowable])
    }

    /// The font weight, as a multiple of normal (1.0 = 400).
    public static let fontWeight = Setting<EPUB, Double>.range(
        "fontWeight", title: "Font weight", range: 0.0...2.5, increment: 0.25, format: .percent
    ) {
        $0.effectiveValueWhenNone = .number(1.0)
        $0.activator = .allOf([reflowable, valueResolved])
    }

    /// Whether words are hyphenated.
    public static let hyphens = Setting<EPUB, Bool>.toggle("hyphens", title: "Hyphenation") {
        $0.activator = .allOf([
            reflowable, stylesheetsApply(.bodyHyphens), publisherStylesOff,
            .condition(
                .anyOf([.valueResolved, .settingEquals(key: "textAlign", value: .string("justify"))])),
        ])
    }

    /// A filter for images, applied with the dark theme.
    public static let imageFilter = Setting<EPUB, ImageFilter>.enumeration(
        "imageFilter", title: "Image filter"
    ) {
        $0.activator = .allOf([
            reflowable, .requiresPreference(key: "theme", value: .string("dark"), automatic: false),
            valueResolved,
        ])
    }

    /// The language of the publication (Specs/Resolution.md §4 step 1).
    public static let language = Setting<EPUB, LanguageTag>.value(
        "language", title: "Language", coder: .language
    ) {
        $0.scope = .publication
    }

    /// The spacing between letters.
    public static let letterSpacing = Setting<EPUB, Double>.percent("letterSpacing", title: "Letter spacing")
    {
        $0.effectiveValueWhenNone = .number(0.0)
        $0.activator = .allOf([
            reflowable, stylesheetsApply(.letterSpacing), publisherStylesOff, valueResolved,
        ])
    }

    /// Whether ligatures are shown (Arabic scripts).
    public static let ligatures = Setting<EPUB, Bool>.toggle("ligatures", title: "Ligatures") {
        $0.effectiveValueWhenNone = .bool(false)
        $0.activator = .allOf([reflowable, stylesheetsApply(.ligatures), publisherStylesOff, valueResolved])
    }

    /// The line height, as a multiple of the font size.
    public static let lineHeight = Setting<EPUB, Double>.range(
        "lineHeight", title: "Line height", range: 1.0...2.0, increment: 0.1, format: .decimal
    ) {
        $0.effectiveValueWhenNone = .number(1.2)
        $0.activator = .allOf([reflowable, publisherStylesOff, valueResolved])
    }

    /// Whether the first page is shown alone in a spread.
    public static let offsetFirstPage = Setting<EPUB, Bool>.toggle(
        "offsetFirstPage", title: "Offset first page"
    ) {
        $0.effectiveValueWhenNone = .bool(false)
        $0.activator = .allOf([fixed, .condition(.settingDiffers(key: "spread", value: .string("never")))])
        $0.scope = .publication
    }

    /// The page margins, as a multiple of the navigator's.
    public static let pageMargins = Setting<EPUB, Double>.range(
        "pageMargins", title: "Page margins", range: 0.0...4.0, increment: 0.3, format: .decimal
    ) {
        $0.fallback = .number(1.0)
        $0.activator = .allOf([reflowable, stylesheetsApply(.pageMargins)])
    }

    /// The indent of the first line of paragraphs, in rem.
    public static let paragraphIndent = Setting<EPUB, Double>.range(
        "paragraphIndent", title: "Paragraph indent", range: 0.0...3.0, increment: 0.2, format: .percent
    ) {
        $0.effectiveValueWhenNone = .number(0.0)
        $0.activator = .allOf([reflowable, stylesheetsApply(.paraIndent), publisherStylesOff, valueResolved])
    }

    /// The space between paragraphs, in rem.
    public static let paragraphSpacing = Setting<EPUB, Double>.range(
        "paragraphSpacing", title: "Paragraph spacing", range: 0.0...2.0, increment: 0.1, format: .percent
    ) {
        $0.effectiveValueWhenNone = .number(0.0)
        $0.activator = .allOf([reflowable, publisherStylesOff, valueResolved])
    }

    /// Whether the publisher's styles apply; turning them off lets the user's spacing apply.
    public static let publisherStyles = Setting<EPUB, Bool>.toggle(
        "publisherStyles", title: "Publisher styles"
    ) {
        $0.fallback = .bool(true)
        $0.activator = .allOf([reflowable])
    }

    /// The direction pages progress in (Specs/Resolution.md §4 step 2).
    public static let readingProgression = Setting<EPUB, ReadingProgression>.enumeration(
        "readingProgression", title: "Reading progression"
    ) {
        $0.scope = .publication
        $0.labels = ["ltr": "Left to right", "rtl": "Right to left"]
    }

    /// Whether the publication scrolls instead of paginating.
    public static let scroll = Setting<EPUB, Bool>.toggle("scroll", title: "Scroll") {
        $0.fallback = .bool(false)
        $0.activator = .allOf([
            reflowable, .condition(.settingEquals(key: "verticalText", value: .bool(false))),
            .condition(.scrollNotForced),
        ])
    }

    /// When fixed-layout pages are shown side by side.
    public static let spread = Setting<EPUB, Spread>.enumeration("spread", title: "Spread") {
        $0.fallback = .string("auto")
        $0.activator = .allOf([fixed])
        $0.scope = .publication
    }

    /// The alignment of text.
    public static let textAlign = Setting<EPUB, TextAlign>.enumeration("textAlign", title: "Text alignment") {
        $0.effectiveValueWhenNone = .string("start")
        $0.activator = .allOf([reflowable, stylesheetsApply(.textAlign), publisherStylesOff, valueResolved])
    }

    /// The text color; when unset the theme's applies.
    public static let textColor = Setting<EPUB, RGBColor>.color("textColor", title: "Text color") {
        $0.activator = .allOf([reflowable, isSet])
        $0.acceptsDefault = false
    }

    /// Whether text is normalized for accessibility (bold and italics removed, and so on).
    public static let textNormalization = Setting<EPUB, Bool>.toggle(
        "textNormalization", title: "Text normalization"
    ) {
        $0.fallback = .bool(false)
        $0.activator = .allOf([reflowable, stylesheetsApply(.a11yNormalize)])
    }

    /// The reading theme; unset follows the system appearance (Specs/Resolution.md §4 step 7).
    public static let theme = Setting<EPUB, Theme>.enumeration("theme", title: "Theme") {
        $0.fallback = .string("light")
        $0.activator = .allOf([reflowable])
    }

    /// The ratio between heading sizes.
    public static let typeScale = Setting<EPUB, Double>.range(
        "typeScale", title: "Type scale", range: 1.0...2.0,
        steps: [1.0, 1.067, 1.125, 1.2, 1.25, 1.333, 1.414, 1.5, 1.618], format: .decimal
    ) {
        $0.effectiveValueWhenNone = .number(1.2)
        $0.activator = .allOf([reflowable, stylesheetsApply(.typeScale), publisherStylesOff, valueResolved])
    }

    /// Whether text is laid out vertically (Specs/Resolution.md §4 step 3).
    public static let verticalText = Setting<EPUB, Bool>.toggle("verticalText", title: "Vertical text") {
        $0.activator = .allOf([reflowable])
        $0.scope = .publication
        $0.acceptsDefault = false
    }

    /// The spacing between words, in rem.
    public static let wordSpacing = Setting<EPUB, Double>.percent("wordSpacing", title: "Word spacing") {
        $0.effectiveValueWhenNone = .number(0.0)
        $0.activator = .allOf([reflowable, stylesheetsApply(.wordSpacing), publisherStylesOff, valueResolved])
    }
}
