extension ResolvedSettings where Schema == EPUB {
    /// The Readium CSS user properties of these settings (Specs/CSS.md §1, §4), with no app
    /// options: no registered font families, reading-system properties or overrides. They are
    /// written for the Readium CSS the settings were resolved for (``readiumCSSVersion``, the
    /// environment's: Readium CSS 1 unless the app names 2).
    ///
    /// A fixed-layout publication gets no properties at all.
    ///
    /// ```swift
    /// let css = editor.settings.readiumCSS()
    /// webView.setStyle(css.inlineStyle)
    /// ```
    ///
    /// - Returns: The properties, sorted by name.
    public func readiumCSS() -> ReadiumCSSProperties {
        guard layout == .reflowable else { return ReadiumCSSProperties() }
        // Each table by its own global, so the writer below is specialized for it.
        switch readiumCSSVersion {
        case .v1: return userProperties(fonts: nil, table: EPUB.readiumCSS)
        case .v2: return userProperties(fonts: nil, table: EPUB.readiumCSS2)
        }
    }

    /// The Readium CSS user properties of these settings, with the app's reading-system
    /// properties merged first and its overrides last (Specs/CSS.md §1.6).
    ///
    /// A fixed-layout publication gets no properties at all. Values are emitted from the resolved
    /// settings whether or not Readium CSS's flags make them apply, as Readium does.
    ///
    /// ```swift
    /// let css = editor.settings.readiumCSS(options: options)
    /// webView.setStyle(css.inlineStyle)
    /// ```
    ///
    /// - Parameter options: The app's font families, reading-system properties and overrides, and
    ///   the Readium CSS to write for when it is not the one the settings were resolved for.
    /// - Returns: The properties, sorted by name.
    public func readiumCSS(options: ReadiumCSSOptions) -> ReadiumCSSProperties {
        guard layout == .reflowable else { return ReadiumCSSProperties() }
        let user: ReadiumCSSProperties
        switch options.version ?? readiumCSSVersion {
        case .v1: user = userProperties(fonts: options.fonts, table: EPUB.readiumCSS)
        case .v2: user = userProperties(fonts: options.fonts, table: EPUB.readiumCSS2)
        }
        // The user properties come out sorted and unique; only the app's additions need a merge.
        if options.readingSystemProperties.isEmpty && options.overrides.isEmpty { return user }
        // Reading-system properties first, the user's over them, the app's overrides last; one
        // dictionary keeps the merge linear however many properties the app supplies.
        var values: [String: String] = options.readingSystemProperties
        for property in user { values[property.name] = property.value }
        for (name, value) in options.overrides { values[name] = value }
        return ReadiumCSSProperties(values.map { CSSProperty(name: $0.key, value: $0.value) })
    }

    /// Specs/CSS.md §1.1: each row of `EPUB.readiumCSS` that has a value, written in property-name order
    /// (the rows are sorted), so no sort is needed. The style is written on the stack and copied
    /// once into its string.
    @inline(__always)
    private func userProperties(fonts: FontFamilyRegistry?, table: ReadiumCSSTable) -> ReadiumCSSProperties {
        let values = self.values.storage
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { storage in
            var writer = ReadiumCSSStyleWriter(startingIn: storage, properties: table.rows.count)
            table.rows.withUnsafeBufferPointer { rows in
                func write(_ index: Int, into writer: inout ReadiumCSSStyleWriter) {
                    writer.beginProperty()
                    writer.output.append(rows[index].name)
                    writer.beginValue()
                    if rows[index].writeValue(
                        in: values, fonts: fonts, choices: table.choices, into: &writer.output)
                    {
                        writer.endProperty()
                    } else {
                        writer.cancelProperty()
                    }
                }
                // Only the rows reading a slot that holds a value, in row (name) order.
                if var visit = table.rowsToVisit(values) {
                    while visit != 0 {
                        write(visit.trailingZeroBitCount, into: &writer)
                        visit &= visit &- 1
                    }
                } else {
                    for index in rows.indices where !rows[index].isAbsent(in: values) {
                        write(index, into: &writer)
                    }
                }
            }
            return writer.finish()
        }
    }
}
