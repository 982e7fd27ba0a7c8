extension EPUB {
    /// The table of Specs/CSS.md §4.2, one row per Readium CSS 2 property: what the same resolved
    /// settings write for a navigator that ships Readium CSS 2.
    ///
    /// Readium CSS 2 has no theme, advanced-settings or font-override flags: a theme is written
    /// as its colors (and, for dark, link colors, gaiji inversion and the image filters; for sepia,
    /// image blending), and each user setting applies as soon as its property is set, so the rows
    /// our model applies only with publisher styles off, or the image filter only with the dark
    /// theme, write nothing otherwise (``ReadiumCSSRow/Gate``).
    static let readiumCSS2 = ReadiumCSSTable { table in
        let themeSlot = slot(EPUB.theme)
        let publisherStylesOff = ReadiumCSSRow.Gate.bool(slot: slot(publisherStyles), false)
        let dark = ReadiumCSSRow.Gate.string(slot: themeSlot, "dark")
        table.flag("--USER__view", slot(scroll), on: "readium-scroll-on", off: "readium-paged-on")
        // `auto` is no property at all: Readium CSS 2 would read it as `column-count: auto`.
        table.choice("--USER__colCount", slot(columnCount), ["1": "1", "2": "2"])
        table.colorOrTheme(
            "--USER__backgroundColor", slot(backgroundColor), theme: themeSlot,
            ["dark": "#000000", "sepia": "#FAF4E8"])
        table.colorOrTheme(
            "--USER__textColor", slot(textColor), theme: themeSlot, ["dark": "#FEFEFE", "sepia": "#121212"])
        table.choice("--USER__linkColor", themeSlot, ["dark": "#63CAFF"])
        table.choice("--USER__visitedColor", themeSlot, ["dark": "#0099E5"])
        table.choice("--USER__blendImages", themeSlot, ["sepia": "readium-blend-on"])
        table.choice("--USER__invertGaiji", themeSlot, ["dark": "readium-invertGaiji-on"])
        table.choice("--USER__darkenImages", slot(imageFilter), ["darken": "readium-darken-on"])
        table.gate(dark)
        table.choice("--USER__invertImages", slot(imageFilter), ["invert": "readium-invert-on"])
        table.gate(dark)
        table.fontStack("--USER__fontFamily", slot(fontFamily))
        table.number("--USER__fontSize", slot(fontSize), scale: 100, unit: "%")
        table.fontWeight("--USER__fontWeight", slot(fontWeight))
        table.text("--USER__textAlign", slot(textAlign))
        table.gate(publisherStylesOff)
        table.compensatedLineHeight("--USER__lineHeight", slot(lineHeight), language: slot(language))
        table.gate(publisherStylesOff)
        table.number("--USER__paraSpacing", slot(paragraphSpacing), unit: "rem")
        table.gate(publisherStylesOff)
        table.number("--USER__paraIndent", slot(paragraphIndent), unit: "rem")
        table.gate(publisherStylesOff)
        table.number("--USER__wordSpacing", slot(wordSpacing), unit: "rem")
        table.gate(publisherStylesOff)
        table.number("--USER__letterSpacing", slot(letterSpacing), scale: 0.5, unit: "rem")
        table.gate(publisherStylesOff)
        table.flag("--USER__bodyHyphens", slot(hyphens), on: "auto", off: "none")
        table.gate(publisherStylesOff)
        table.flag("--USER__ligatures", slot(ligatures), on: "common-ligatures", off: "none")
        table.gate(publisherStylesOff)
        table.flag("--USER__a11yNormalize", slot(textNormalization), on: "readium-a11y-on", off: nil)
    }

    /// The table for a Readium CSS version.
    static func readiumCSSTable(_ version: ReadiumCSSVersion) -> ReadiumCSSTable {
        switch version {
        case .v1: return readiumCSS
        case .v2: return readiumCSS2
        }
    }

    private static func slot<Value>(_ setting: Setting<EPUB, Value>) -> Int {
        catalogue.slot(of: setting) ?? -1
    }
}
