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
        // Reading-system properties first, the user's over them, the app's overrides last; one
        // dictionary keeps the merge linear however many properties the app supplies.
        var values: [String: String] = options.readingSystemProperties
        for property in properties { values[property.name] = property.value }
        for (name, value) in options.overrides { values[name] = value }
        let merged = values.map { CSSProperty(name: $0.key, value: $0.value) }
        return ReadiumCSSProperties(merged)
    }

    // SPEC 8: each row of `EPUB.readiumCSSRows`, in property-name order, so no sort is needed.
    private func appendUserProperties(to properties: inout [CSSProperty], fonts: FontFamilyRegistry) {
        let values = self.values.storage
        for row in EPUB.readiumCSSRows {
            if let value = row.value(in: values, fonts: fonts) {
                properties.append(CSSProperty(name: row.name, value: value))
            }
        }
    }
}
