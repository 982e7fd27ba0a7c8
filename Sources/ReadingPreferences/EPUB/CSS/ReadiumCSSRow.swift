extension EPUB {
    /// SPEC 8's table, one row per Readium CSS property: the property's name and how its value
    /// comes from the resolved settings. Adding a setting with CSS output adds its row here.
    ///
    /// Rows are data (no closures), sorted by name once, and read their slot from the catalogue
    /// by key, so a row can never read another setting's value.
    static let readiumCSSRows: [ReadiumCSSRow] = [
        ReadiumCSSRow("--USER__view", .flag(slot(scroll), on: "readium-scroll-on", off: "readium-paged-on")),
        ReadiumCSSRow("--USER__colCount", .text(slot(columnCount))),
        ReadiumCSSRow("--USER__pageMargins", .number(slot(pageMargins))),
        ReadiumCSSRow(
            "--USER__appearance",
            .choice(slot(theme), [("dark", "readium-night-on"), ("sepia", "readium-sepia-on")])),
        ReadiumCSSRow("--USER__darkenImages", .choice(slot(imageFilter), [("darken", "readium-darken-on")])),
        ReadiumCSSRow("--USER__invertImages", .choice(slot(imageFilter), [("invert", "readium-invert-on")])),
        ReadiumCSSRow("--USER__textColor", .color(slot(textColor))),
        ReadiumCSSRow("--USER__backgroundColor", .color(slot(backgroundColor))),
        ReadiumCSSRow(
            "--USER__fontOverride",
            .fontOverride(family: slot(fontFamily), normalization: slot(textNormalization))),
        ReadiumCSSRow("--USER__fontFamily", .fontStack(slot(fontFamily))),
        ReadiumCSSRow("--USER__fontSize", .number(slot(fontSize), scale: 100, unit: "%")),
        ReadiumCSSRow(
            "--USER__advancedSettings", .flag(slot(publisherStyles), on: nil, off: "readium-advanced-on")),
        ReadiumCSSRow("--USER__typeScale", .number(slot(typeScale))),
        ReadiumCSSRow("--USER__textAlign", .text(slot(textAlign))),
        ReadiumCSSRow("--USER__lineHeight", .number(slot(lineHeight))),
        ReadiumCSSRow("--USER__paraSpacing", .number(slot(paragraphSpacing), unit: "rem")),
        ReadiumCSSRow("--USER__paraIndent", .number(slot(paragraphIndent), unit: "rem")),
        ReadiumCSSRow("--USER__wordSpacing", .number(slot(wordSpacing), unit: "rem")),
        ReadiumCSSRow("--USER__letterSpacing", .number(slot(letterSpacing), scale: 0.5, unit: "rem")),
        ReadiumCSSRow("--USER__bodyHyphens", .flag(slot(hyphens), on: "auto", off: "none")),
        ReadiumCSSRow("--USER__ligatures", .flag(slot(ligatures), on: "common-ligatures", off: "none")),
        ReadiumCSSRow(
            "--USER__a11yNormalize", .flag(slot(textNormalization), on: "readium-a11y-on", off: nil)),
        ReadiumCSSRow("font-weight", .fontWeight(slot(fontWeight))),
    ].sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }

    private static func slot<Value>(_ setting: Setting<EPUB, Value>) -> Int {
        catalogue.slot(of: setting) ?? -1
    }
}

/// One Readium CSS property and the rule that computes its value from resolved EPUB settings
/// (SPEC 8).
///
/// A class, immutable: reading a row out of the table then costs one retain, where a struct
/// copied its name and every string of its rule.
final class ReadiumCSSRow: Sendable {
    /// How a property's value comes from a slot's resolved value; `nil` (no property) when the
    /// slot resolved to none or the rule emits nothing for its value.
    enum Rule: Sendable {
        /// A string value as is (`--USER__colCount: 2`).
        case text(Int)
        /// A string value mapped to a flag; other values emit nothing. A list, not a
        /// dictionary: one or two pairs are found faster by comparing than by hashing.
        case choice(Int, [(value: String, flag: String)])
        /// A toggle: `on` for true, `off` for false (`nil` emits nothing).
        case flag(Int, on: String?, off: String?)
        /// A number times `scale`, as a CSS number with a unit (`150%`, `0.5rem`).
        case number(Int, scale: Double = 1, unit: String = "")
        /// A color as `#RRGGBB`.
        case color(Int)
        /// A font family and its registered alternates (`--USER__fontFamily`).
        case fontStack(Int)
        /// `readium-font-on` when a font family is set or text is normalized.
        case fontOverride(family: Int, normalization: Int)
        /// `400 × value`, rounded half away from zero, clamped to 1...1000.
        case fontWeight(Int)
    }

    /// The property name, such as `--USER__fontSize`.
    let name: String
    /// How the value is computed.
    let rule: Rule

    init(_ name: String, _ rule: Rule) {
        self.name = name
        self.rule = rule
    }

    /// The property's value for resolved values, or `nil` when the property is absent.
    func value(in values: SlotStorage, fonts: FontFamilyRegistry) -> String? {
        switch rule {
        case .text(let slot):
            return values[slot]?.stringValue
        case .choice(let slot, let mapping):
            guard let value = values[slot]?.stringValue else { return nil }
            return mapping.first { $0.value == value }?.flag
        case .flag(let slot, let on, let off):
            return values[slot]?.boolValue.flatMap { $0 ? on : off }
        case .number(let slot, let scale, let unit):
            return values[slot]?.doubleValue.map { NumberFormatting.decimal($0 * scale) + unit }
        case .color(let slot):
            return values[slot]?.colorValue?.hexString
        case .fontStack(let slot):
            return values[slot]?.stringValue.map { fonts.cssValue(for: $0) }
        case .fontOverride(let family, let normalization):
            let isOn = values[family] != nil || values[normalization]?.boolValue == true
            return isOn ? "readium-font-on" : nil
        case .fontWeight(let slot):
            return values[slot]?.doubleValue.map(Self.fontWeight)
        }
    }

    /// `400 × value`, rounded half away from zero, clamped to 1...1000.
    static func fontWeight(_ value: Double) -> String {
        let weight = (400 * value).rounded(.toNearestOrAwayFromZero)
        guard weight.isFinite else { return weight > 0 ? "1000" : "1" }
        return String(Int(min(max(weight, 1), 1000)))
    }
}
