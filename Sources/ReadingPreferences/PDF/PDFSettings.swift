// The PDF catalogue, row by row (Specs/Resolution.md §8).
private let scrollOn = SettingCondition.settingEquals(key: "scroll", value: .bool(true))
private let scrollOff = SettingCondition.settingEquals(key: "scroll", value: .bool(false))
private let verticalAxis = SettingCondition.settingEquals(key: "scrollAxis", value: .string("vertical"))

extension PDF {
    /// The background color around pages.
    public static let backgroundColor = Setting<PDF, RGBColor>.color(
        "backgroundColor", title: "Background color"
    ) {
        $0.activator = .allOf([.condition(.isSet)])
    }

    /// How pages fit the viewport while scrolling.
    public static let fit = Setting<PDF, Fit>.enumeration("fit", title: "Fit") {
        $0.activator = .allOf([.condition(scrollOn)])
        $0.fallback = .string("auto")
    }

    /// Whether the first page is shown alone in a spread.
    public static let offsetFirstPage = Setting<PDF, Bool>.toggle(
        "offsetFirstPage", title: "Offset first page"
    ) {
        $0.activator = .allOf([
            .condition(.anyOf([scrollOff, verticalAxis])),
            .condition(.settingDiffers(key: "spread", value: .string("never"))),
        ])
        $0.fallback = .bool(false)
        $0.scope = .publication
    }

    /// The space between pages, in points.
    public static let pageSpacing = Setting<PDF, Double>.range(
        "pageSpacing", title: "Page spacing", range: 0.0...200.0, increment: 4,
        format: .unit(symbol: "pt", spokenName: "points")
    ) {
        $0.fallback = .number(0)
    }

    /// The direction pages progress in; ignored while scrolling.
    public static let readingProgression = Setting<PDF, ReadingProgression>.enumeration(
        "readingProgression", title: "Reading progression"
    ) {
        $0.activator = .allOf([.condition(scrollOff)])
        $0.scope = .publication
        $0.labels = ["ltr": "Left to right", "rtl": "Right to left"]
    }

    /// Whether pages scroll instead of paginating.
    public static let scroll = Setting<PDF, Bool>.toggle("scroll", title: "Scroll") {
        $0.fallback = .bool(false)
    }

    /// The scroll direction.
    public static let scrollAxis = Setting<PDF, ScrollAxis>.enumeration("scrollAxis", title: "Scroll axis") {
        $0.activator = .allOf([.condition(scrollOn)])
        $0.fallback = .string("vertical")
    }

    /// When pages are shown side by side.
    public static let spread = Setting<PDF, Spread>.enumeration("spread", title: "Spread") {
        $0.activator = .allOf([.condition(.anyOf([scrollOff, verticalAxis]))])
        $0.fallback = .string("auto")
    }

    /// Whether the scroll bar is visible while scrolling.
    public static let visibleScrollbar = Setting<PDF, Bool>.toggle(
        "visibleScrollbar", title: "Visible scroll bar"
    ) {
        $0.activator = .allOf([.condition(scrollOn)])
        $0.fallback = .bool(true)
    }
}

// Leading-dot access for editor calls: `editor.toggle(.scroll)`.
extension Setting where Owner == PDF {
    /// ``PDF/backgroundColor``.
    public static var backgroundColor: Setting<PDF, RGBColor> { PDF.backgroundColor }
    /// ``PDF/fit``.
    public static var fit: Setting<PDF, PDF.Fit> { PDF.fit }
    /// ``PDF/offsetFirstPage``.
    public static var offsetFirstPage: Setting<PDF, Bool> { PDF.offsetFirstPage }
    /// ``PDF/pageSpacing``.
    public static var pageSpacing: Setting<PDF, Double> { PDF.pageSpacing }
    /// ``PDF/readingProgression``.
    public static var readingProgression: Setting<PDF, PDF.ReadingProgression> { PDF.readingProgression }
    /// ``PDF/scroll``.
    public static var scroll: Setting<PDF, Bool> { PDF.scroll }
    /// ``PDF/scrollAxis``.
    public static var scrollAxis: Setting<PDF, PDF.ScrollAxis> { PDF.scrollAxis }
    /// ``PDF/spread``.
    public static var spread: Setting<PDF, PDF.Spread> { PDF.spread }
    /// ``PDF/visibleScrollbar``.
    public static var visibleScrollbar: Setting<PDF, Bool> { PDF.visibleScrollbar }
}
