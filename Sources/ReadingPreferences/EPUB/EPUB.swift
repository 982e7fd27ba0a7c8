/// The EPUB configurable: its 27 settings, their resolution and Readium CSS (SPEC 5, 8).
///
/// ```swift
/// let publication = EPUB.Publication(layout: .reflowable, languages: ["ar"])
/// var editor = EPUB.Editor(resolver: EPUB.Resolver(publication: publication))
/// try editor.set(.fontSize, 1.4)
/// editor.settings[.readingProgression]   // .rtl
/// ```
public enum EPUB: SettingsSchema {
    /// The editor of EPUB preferences.
    public typealias Editor = PreferencesEditor<EPUB>
    /// Resolved EPUB settings.
    public typealias Settings = ResolvedSettings<EPUB>
    /// App defaults for EPUB (every key except backgroundColor, textColor, fontFamily and
    /// verticalText, which defaults ignore).
    public typealias Defaults = SettingValues<EPUB>
    /// A headless EPUB navigator.
    public typealias Navigator = HeadlessConfigurable<EPUB>

    /// The 27 EPUB settings, in slot order (SPEC 5.4).
    public static let catalogue = SettingCatalogue([
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
    ])

    /// The keys specific to one publication (SPEC 5.5).
    public static let publicationKeys = catalogue.publicationKeys

    // Slot numbers, in catalogue order, so resolution never looks a key up.
    enum Slot {
        static let backgroundColor = 0
        static let columnCount = 1
        static let fit = 2
        static let fontFamily = 3
        static let fontSize = 4
        static let fontWeight = 5
        static let hyphens = 6
        static let imageFilter = 7
        static let language = 8
        static let letterSpacing = 9
        static let ligatures = 10
        static let lineHeight = 11
        static let offsetFirstPage = 12
        static let pageMargins = 13
        static let paragraphIndent = 14
        static let paragraphSpacing = 15
        static let publisherStyles = 16
        static let readingProgression = 17
        static let scroll = 18
        static let spread = 19
        static let textAlign = 20
        static let textColor = 21
        static let textNormalization = 22
        static let theme = 23
        static let typeScale = 24
        static let verticalText = 25
        static let wordSpacing = 26
    }
}
