extension ResolvedSettings where Schema == EPUB {
    /// The Readium CSS user properties of these settings, with the app's reading-system
    /// properties merged first and its overrides last (SPEC 8).
    ///
    /// A fixed-layout publication gets no properties at all. Values are emitted from the resolved
    /// settings whether or not Readium CSS's flags make them apply, as Readium does.
    ///
    /// ```swift
    /// let css = editor.settings.readiumCSS()
    /// webView.setStyle(css.inlineStyle)
    /// ```
    public func readiumCSS(options: ReadiumCSSOptions = ReadiumCSSOptions()) -> ReadiumCSSProperties {
        guard layout == .reflowable else { return ReadiumCSSProperties() }
        var properties: [CSSProperty] = []
        properties.reserveCapacity(24 + options.readingSystemProperties.count + options.overrides.count)
        appendUserProperties(to: &properties, fonts: options.fonts)
        // The user properties come out sorted and unique; only the app's additions need a merge.
        if options.readingSystemProperties.isEmpty && options.overrides.isEmpty {
            return ReadiumCSSProperties(sortedUnique: properties)
        }
        var merged = options.readingSystemProperties.map { CSSProperty(name: $0.key, value: $0.value) }
        for property in properties {
            merged.removeAll { $0.name == property.name }
            merged.append(property)
        }
        for (name, value) in options.overrides {
            merged.removeAll { $0.name == name }
            if let value { merged.append(CSSProperty(name: name, value: value)) }
        }
        return ReadiumCSSProperties(merged)
    }

    // SPEC 8, the table row by row, emitted in property-name order so no sort is needed.
    private func appendUserProperties(to properties: inout [CSSProperty], fonts: FontFamilyRegistry) {
        let values = self.values.storage
        typealias Slot = EPUB.Slot
        func add(_ name: String, _ value: String) { properties.append(CSSProperty(name: name, value: value)) }
        func number(_ slot: Int) -> Double? { values[slot]?.doubleValue }
        func string(_ slot: Int) -> String? { values[slot]?.stringValue }
        func flag(_ slot: Int) -> Bool? { values[slot]?.boolValue }
        let family = string(Slot.fontFamily)
        let normalized = flag(Slot.textNormalization) == true

        if normalized { add("--USER__a11yNormalize", "readium-a11y-on") }
        if flag(Slot.publisherStyles) == false { add("--USER__advancedSettings", "readium-advanced-on") }
        switch string(Slot.theme) {
        case EPUB.Theme.dark.rawValue?: add("--USER__appearance", "readium-night-on")
        case EPUB.Theme.sepia.rawValue?: add("--USER__appearance", "readium-sepia-on")
        default: break
        }
        if let color = values[Slot.backgroundColor]?.colorValue {
            add("--USER__backgroundColor", color.hexString)
        }
        if let hyphens = flag(Slot.hyphens) { add("--USER__bodyHyphens", hyphens ? "auto" : "none") }
        if let columns = string(Slot.columnCount) { add("--USER__colCount", columns) }
        let filter = string(Slot.imageFilter)
        if filter == EPUB.ImageFilter.darken.rawValue { add("--USER__darkenImages", "readium-darken-on") }
        if let family { add("--USER__fontFamily", fonts.cssValue(for: family)) }
        if family != nil || normalized { add("--USER__fontOverride", "readium-font-on") }
        if let size = number(Slot.fontSize) {
            add("--USER__fontSize", NumberFormatting.decimal(size * 100) + "%")
        }
        if filter == EPUB.ImageFilter.invert.rawValue { add("--USER__invertImages", "readium-invert-on") }
        if let spacing = number(Slot.letterSpacing) { add("--USER__letterSpacing", Self.rem(spacing / 2)) }
        if let ligatures = flag(Slot.ligatures) {
            add("--USER__ligatures", ligatures ? "common-ligatures" : "none")
        }
        if let height = number(Slot.lineHeight) {
            add("--USER__lineHeight", NumberFormatting.decimal(height))
        }
        if let margins = number(Slot.pageMargins) {
            add("--USER__pageMargins", NumberFormatting.decimal(margins))
        }
        if let indent = number(Slot.paragraphIndent) { add("--USER__paraIndent", Self.rem(indent)) }
        if let spacing = number(Slot.paragraphSpacing) { add("--USER__paraSpacing", Self.rem(spacing)) }
        if let align = string(Slot.textAlign) { add("--USER__textAlign", align) }
        if let color = values[Slot.textColor]?.colorValue { add("--USER__textColor", color.hexString) }
        if let scale = number(Slot.typeScale) { add("--USER__typeScale", NumberFormatting.decimal(scale)) }
        add("--USER__view", flag(Slot.scroll) == true ? "readium-scroll-on" : "readium-paged-on")
        if let spacing = number(Slot.wordSpacing) { add("--USER__wordSpacing", Self.rem(spacing)) }
        if let weight = number(Slot.fontWeight) { add("font-weight", Self.fontWeight(weight)) }
    }

    private static func rem(_ value: Double) -> String {
        NumberFormatting.decimal(value) + "rem"
    }

    /// `400 × value`, rounded half away from zero, clamped to 1...1000.
    static func fontWeight(_ value: Double) -> String {
        let weight = (400 * value).rounded(.toNearestOrAwayFromZero)
        guard weight.isFinite else { return weight > 0 ? "1000" : "1" }
        return String(Int(min(max(weight, 1), 1000)))
    }
}
