extension EPUB {
    /// The settings a Readium CSS property is written from (Specs/CSS.md §1.3): one key for most
    /// properties, two for `--USER__fontOverride` (font family and text normalization), none for a
    /// property this table does not write (a reading-system property, an app's override).
    ///
    /// Readium CSS ignores a property whose settings do not take effect (a word spacing while
    /// publisher styles are on, an image filter outside the dark theme), though the property is
    /// written (Specs/CSS.md §1.1); a preview that shows what the reader will see leaves such a
    /// property out.
    ///
    /// ```swift
    /// EPUB.settingKeys(ofReadiumCSSProperty: "--USER__invertImages")   // ["imageFilter"]
    /// EPUB.settingKeys(ofReadiumCSSProperty: "--USER__fontOverride")   // ["fontFamily", "textNormalization"]
    /// ```
    ///
    /// - Parameter name: A property name, such as `--USER__wordSpacing`.
    /// - Returns: The keys, in catalogue order.
    public static func settingKeys(ofReadiumCSSProperty name: String) -> [String] {
        guard let row = readiumCSS.rows.first(where: { $0.name.description == name }) else { return [] }
        return [row.slot, row.otherSlot].sorted().compactMap { catalogue.descriptor(atSlot: $0)?.key }
    }
}

extension PreferencesEditor where Schema == EPUB {
    /// The Readium CSS properties of these settings that take no effect: written, as Readium
    /// does, but every setting each is written from does not take effect (Specs/CSS.md §1.1), so
    /// Readium CSS ignores it. A preview that shows only what the reader will see leaves them
    /// out.
    ///
    /// ```swift
    /// try editor.set(.imageFilter, .invert)   // with a light theme: not in effect
    /// editor.readiumCSSPropertiesNotInEffect   // ["--USER__invertImages"]
    /// ```
    public var readiumCSSPropertiesNotInEffect: [String] {
        settings.readiumCSS().compactMap { property -> String? in
            let keys = EPUB.settingKeys(ofReadiumCSSProperty: property.name)
            guard !keys.isEmpty else { return nil }
            let inEffect = keys.contains { handle(forKey: $0)?.isEffective ?? true }
            return inEffect ? nil : property.name
        }
    }
}
