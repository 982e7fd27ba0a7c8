// Leading-dot access for editor calls: `editor.increment(.fontSize)`.
extension Setting where Owner == EPUB {
    /// ``EPUB/backgroundColor``.
    public static var backgroundColor: Setting<EPUB, RGBColor> { EPUB.backgroundColor }
    /// ``EPUB/columnCount``.
    public static var columnCount: Setting<EPUB, EPUB.ColumnCount> { EPUB.columnCount }
    /// ``EPUB/fit``.
    public static var fit: Setting<EPUB, EPUB.Fit> { EPUB.fit }
    /// ``EPUB/fontFamily``.
    public static var fontFamily: Setting<EPUB, EPUB.FontFamily> { EPUB.fontFamily }
    /// ``EPUB/fontSize``.
    public static var fontSize: Setting<EPUB, Double> { EPUB.fontSize }
    /// ``EPUB/fontWeight``.
    public static var fontWeight: Setting<EPUB, Double> { EPUB.fontWeight }
    /// ``EPUB/hyphens``.
    public static var hyphens: Setting<EPUB, Bool> { EPUB.hyphens }
    /// ``EPUB/imageFilter``.
    public static var imageFilter: Setting<EPUB, EPUB.ImageFilter> { EPUB.imageFilter }
    /// ``EPUB/language``.
    public static var language: Setting<EPUB, LanguageTag> { EPUB.language }
    /// ``EPUB/letterSpacing``.
    public static var letterSpacing: Setting<EPUB, Double> { EPUB.letterSpacing }
    /// ``EPUB/ligatures``.
    public static var ligatures: Setting<EPUB, Bool> { EPUB.ligatures }
    /// ``EPUB/lineHeight``.
    public static var lineHeight: Setting<EPUB, Double> { EPUB.lineHeight }
    /// ``EPUB/offsetFirstPage``.
    public static var offsetFirstPage: Setting<EPUB, Bool> { EPUB.offsetFirstPage }
    /// ``EPUB/pageMargins``.
    public static var pageMargins: Setting<EPUB, Double> { EPUB.pageMargins }
    /// ``EPUB/paragraphIndent``.
    public static var paragraphIndent: Setting<EPUB, Double> { EPUB.paragraphIndent }
    /// ``EPUB/paragraphSpacing``.
    public static var paragraphSpacing: Setting<EPUB, Double> { EPUB.paragraphSpacing }
    /// ``EPUB/publisherStyles``.
    public static var publisherStyles: Setting<EPUB, Bool> { EPUB.publisherStyles }
    /// ``EPUB/readingProgression``.
    public static var readingProgression: Setting<EPUB, EPUB.ReadingProgression> { EPUB.readingProgression }
    /// ``EPUB/scroll``.
    public static var scroll: Setting<EPUB, Bool> { EPUB.scroll }
    /// ``EPUB/spread``.
    public static var spread: Setting<EPUB, EPUB.Spread> { EPUB.spread }
    /// ``EPUB/textAlign``.
    public static var textAlign: Setting<EPUB, EPUB.TextAlign> { EPUB.textAlign }
    /// ``EPUB/textColor``.
    public static var textColor: Setting<EPUB, RGBColor> { EPUB.textColor }
    /// ``EPUB/textNormalization``.
    public static var textNormalization: Setting<EPUB, Bool> { EPUB.textNormalization }
    /// ``EPUB/theme``.
    public static var theme: Setting<EPUB, EPUB.Theme> { EPUB.theme }
    /// ``EPUB/typeScale``.
    public static var typeScale: Setting<EPUB, Double> { EPUB.typeScale }
    /// ``EPUB/verticalText``.
    public static var verticalText: Setting<EPUB, Bool> { EPUB.verticalText }
    /// ``EPUB/wordSpacing``.
    public static var wordSpacing: Setting<EPUB, Double> { EPUB.wordSpacing }
}
