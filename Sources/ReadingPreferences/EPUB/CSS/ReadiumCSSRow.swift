extension EPUB {
    /// The table of Specs/CSS.md §1.3, one row per Readium CSS property: the property's name and how its value
    /// comes from the resolved settings. Adding a setting with CSS output adds its row here.
    ///
    /// Rows are plain data (no closures, no references), sorted by name once, and read their slot
    /// from the catalogue by key, so a row can never read another setting's value.
    static let readiumCSS = ReadiumCSSTable { table in
        table.flag("--USER__view", slot(scroll), on: "readium-scroll-on", off: "readium-paged-on")
        table.text("--USER__colCount", slot(columnCount))
        table.number("--USER__pageMargins", slot(pageMargins))
        table.choice(
            "--USER__appearance", slot(theme), ["dark": "readium-night-on", "sepia": "readium-sepia-on"])
        table.choice("--USER__darkenImages", slot(imageFilter), ["darken": "readium-darken-on"])
        table.choice("--USER__invertImages", slot(imageFilter), ["invert": "readium-invert-on"])
        table.color("--USER__textColor", slot(textColor))
        table.color("--USER__backgroundColor", slot(backgroundColor))
        table.fontOverride(
            "--USER__fontOverride", family: slot(fontFamily), normalization: slot(textNormalization))
        table.fontStack("--USER__fontFamily", slot(fontFamily))
        table.number("--USER__fontSize", slot(fontSize), scale: 100, unit: "%")
        table.flag("--USER__advancedSettings", slot(publisherStyles), on: nil, off: "readium-advanced-on")
        table.number("--USER__typeScale", slot(typeScale))
        table.text("--USER__textAlign", slot(textAlign))
        table.number("--USER__lineHeight", slot(lineHeight))
        table.number("--USER__paraSpacing", slot(paragraphSpacing), unit: "rem")
        table.number("--USER__paraIndent", slot(paragraphIndent), unit: "rem")
        table.number("--USER__wordSpacing", slot(wordSpacing), unit: "rem")
        table.number("--USER__letterSpacing", slot(letterSpacing), scale: 0.5, unit: "rem")
        table.flag("--USER__bodyHyphens", slot(hyphens), on: "auto", off: "none")
        table.flag("--USER__ligatures", slot(ligatures), on: "common-ligatures", off: "none")
        table.flag("--USER__a11yNormalize", slot(textNormalization), on: "readium-a11y-on", off: nil)
        table.fontWeight("font-weight", slot(fontWeight))
    }

    private static func slot<Value>(_ setting: Setting<EPUB, Value>) -> Int {
        catalogue.slot(of: setting) ?? -1
    }
}

/// The rows of a Readium CSS table, sorted by property name, and the value-to-flag pairs of its
/// choice rows (Specs/CSS.md §1.3).
///
/// Everything in it is plain data (names and flags are static strings), so writing a style reads
/// the rows without copying or counting references; an immutable class, so the table is shared.
final class ReadiumCSSTable: Sendable {
    /// The rows, sorted by the bytes of their names.
    let rows: [ReadiumCSSRow]
    /// The pairs the choice rows map values with, each row's a run of them.
    let choices: [ReadiumCSSRow.Choice]
    /// For each slot below 64, the rows that read it, as a mask of row positions; empty when
    /// the table has more than 64 rows or reads a slot beyond 64 (then every row is visited).
    let rowsReadingSlot: [UInt64]

    /// Builds a table; `declare` adds the rows in any order.
    init(_ declare: (inout Builder) -> Void) {
        var builder = Builder()
        declare(&builder)
        rows = builder.rows.sorted { Self.bytes($0.name).lexicographicallyPrecedes(Self.bytes($1.name)) }
        choices = builder.choices
        var rowsReadingSlot = Array(repeating: UInt64(0), count: 64)
        var masked = rows.count <= 64
        for (position, row) in rows.enumerated() where masked {
            for slot in [row.slot, row.otherSlot] where slot >= 0 {
                guard slot < 64 else {
                    masked = false
                    break
                }
                rowsReadingSlot[slot] |= 1 << UInt64(position)
            }
        }
        self.rowsReadingSlot = masked ? rowsReadingSlot : []
    }

    /// The positions of the rows that may have a value: those reading a slot that holds one.
    /// Rows whose slots all resolved to none are absent, so only these are visited.
    func rowsToVisit(_ values: SlotStorage) -> UInt64? {
        let (setSlots, isPartial) = values.setSlotMask
        guard !rowsReadingSlot.isEmpty, !isPartial else { return nil }
        var rows: UInt64 = 0
        var slots = setSlots
        while slots != 0 {
            rows |= rowsReadingSlot[slots.trailingZeroBitCount]
            slots &= slots &- 1
        }
        return rows
    }

    private static func bytes(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Declares the rows of a table.
    struct Builder {
        fileprivate var rows: [ReadiumCSSRow] = []
        fileprivate var choices: [ReadiumCSSRow.Choice] = []

        /// A string value as is (`--USER__colCount: 2`).
        mutating func text(_ name: StaticString, _ slot: Int) { rows.append(.init(name, .text, slot: slot)) }

        /// A string value mapped to a flag; other values emit nothing.
        mutating func choice(
            _ name: StaticString, _ slot: Int, _ mapping: KeyValuePairs<StaticString, StaticString>
        ) {
            let start = choices.count
            for (value, flag) in mapping { choices.append(.init(value: value, flag: flag)) }
            var row = ReadiumCSSRow(name, .choice, slot: slot)
            row.choices = start..<choices.count
            rows.append(row)
        }

        /// A toggle: `on` for true, `off` for false (`nil` emits nothing).
        mutating func flag(_ name: StaticString, _ slot: Int, on: StaticString?, off: StaticString?) {
            var row = ReadiumCSSRow(name, .flag, slot: slot)
            row.on = on
            row.off = off
            rows.append(row)
        }

        /// A number times `scale`, as a CSS number with a unit (`150%`, `0.5rem`).
        mutating func number(_ name: StaticString, _ slot: Int, scale: Double = 1, unit: StaticString = "") {
            var row = ReadiumCSSRow(name, .number, slot: slot)
            row.scale = scale
            row.unit = unit
            rows.append(row)
        }

        /// A color as `#RRGGBB`.
        mutating func color(_ name: StaticString, _ slot: Int) {
            rows.append(.init(name, .color, slot: slot))
        }

        /// A font family and its registered alternates.
        mutating func fontStack(_ name: StaticString, _ slot: Int) {
            rows.append(.init(name, .fontStack, slot: slot))
        }

        /// `readium-font-on` when a font family is set or text is normalized.
        mutating func fontOverride(_ name: StaticString, family: Int, normalization: Int) {
            var row = ReadiumCSSRow(name, .fontOverride, slot: family)
            row.otherSlot = normalization
            rows.append(row)
        }

        /// `400 × value`, rounded half away from zero, clamped to 1...1000.
        mutating func fontWeight(_ name: StaticString, _ slot: Int) {
            rows.append(.init(name, .fontWeight, slot: slot))
        }

        /// A color as `#RRGGBB`, or when it is unset the color `themes` maps the theme to.
        mutating func colorOrTheme(
            _ name: StaticString, _ slot: Int, theme: Int, _ themes: KeyValuePairs<StaticString, StaticString>
        ) {
            let start = choices.count
            for (value, flag) in themes { choices.append(.init(value: value, flag: flag)) }
            var row = ReadiumCSSRow(name, .colorOrTheme, slot: slot)
            row.otherSlot = theme
            row.choices = start..<choices.count
            rows.append(row)
        }

        /// A line height times the compensation Readium CSS 2 gives the language in `language`.
        mutating func compensatedLineHeight(_ name: StaticString, _ slot: Int, language: Int) {
            var row = ReadiumCSSRow(name, .compensatedLineHeight, slot: slot)
            row.auxiliarySlot = language
            rows.append(row)
        }

        /// Makes the row declared last write only while the gate holds.
        mutating func gate(_ gate: ReadiumCSSRow.Gate) {
            guard !rows.isEmpty else { return }
            rows[rows.count - 1].gate = gate
        }
    }
}

/// One Readium CSS property and the rule that computes its value from resolved EPUB settings
/// (Specs/CSS.md §1.3).
///
/// Flat plain data: the slot a row reads is a field, so the writer tests the slot's bit in the
/// resolved values' mask before anything else, and most rows (whose setting resolved to none)
/// cost that test alone.
struct ReadiumCSSRow: Sendable {
    /// How a property's value comes from a slot's resolved value; no property when the slot
    /// resolved to none or the rule emits nothing for its value.
    enum Rule: Sendable {
        /// A string value as is.
        case text
        /// A string value mapped to a flag by the table's ``choices``.
        case choice
        /// A toggle: ``on`` for true, ``off`` for false (`nil` emits nothing).
        case flag
        /// A number times ``scale``, as a CSS number followed by ``unit``.
        case number
        /// A color as `#RRGGBB`.
        case color
        /// A font family and its registered alternates.
        case fontStack
        /// `readium-font-on` when a font family is set (``slot``) or text is normalized
        /// (``otherSlot``).
        case fontOverride
        /// `400 × value`, rounded half away from zero, clamped to 1...1000.
        case fontWeight
        /// A color as `#RRGGBB`; when unset, the theme's (``otherSlot``) color by ``choices``.
        case colorOrTheme
        /// A number times the line-height compensation of the language in ``auxiliarySlot``.
        case compensatedLineHeight
    }

    /// A condition on another slot for a row to write anything: Readium CSS 2 has no flag that
    /// keeps a value from applying, so the output itself leaves out what is not in effect.
    enum Gate: Sendable {
        /// Always written.
        case none
        /// Written while the slot holds this string.
        case string(slot: Int, StaticString)
        /// Written while the slot holds this boolean.
        case bool(slot: Int, Bool)
    }

    /// A choice row's value and the flag it maps to.
    struct Choice: Sendable {
        let value: StaticString
        let flag: StaticString
    }

    /// The property name, such as `--USER__fontSize`.
    let name: StaticString
    /// How the value is computed.
    let rule: Rule
    /// The slot the value comes from.
    let slot: Int
    /// A second slot the rule reads (`fontOverride`'s normalization), or -1.
    var otherSlot = -1
    /// A flag's values.
    var on: StaticString?
    var off: StaticString?
    /// A number's factor and unit.
    var scale: Double = 1
    var unit: StaticString = ""
    /// A choice's pairs in the table.
    var choices: Range<Int> = 0..<0
    /// A slot the rule reads that does not make the property present (a language), or -1.
    var auxiliarySlot = -1
    /// What must hold for the row to write.
    var gate = Gate.none {
        didSet {
            if case .none = gate { isGated = false } else { isGated = true }
        }
    }
    /// Whether ``gate`` is not ``Gate/none``: one test of a flag for the rows of Readium CSS 1,
    /// which have none.
    private(set) var isGated = false

    init(_ name: StaticString, _ rule: Rule, slot: Int) {
        self.name = name
        self.rule = rule
        self.slot = slot
    }

    /// Whether the slots the rule reads all resolved to none, so the property is absent: a test of
    /// the values' mask.
    @inline(__always)
    func isAbsent(in values: SlotStorage) -> Bool {
        !values.isSet(slot) && (otherSlot < 0 || !values.isSet(otherSlot))
    }

    /// Appends the property's value for resolved values; returns `false`, having written nothing,
    /// when the property is absent.
    @inline(__always)
    func writeValue(
        in values: SlotStorage, fonts: FontFamilyRegistry?, choices table: [Choice],
        into output: inout TextOutput
    ) -> Bool {
        if isGated, !gate.holds(in: values) { return false }
        switch rule {
        case .text:
            guard case .string(let text) = values[slot] else { return false }
            output.append(contentsOf: text)
        case .choice:
            guard case .string(let value) = values[slot], let flag = Self.choice(value, choices, table) else {
                return false
            }
            output.append(flag)
        case .flag:
            guard case .bool(let flag) = values[slot], let text = flag ? on : off else { return false }
            output.append(text)
        case .number:
            guard let number = values[slot]?.doubleValue else { return false }
            if let text = NumberFormatting.decimalText(number * scale, suffix: unit) {
                output.append(text)
            } else {
                output.append(contentsOf: NumberFormatting.decimal(number * scale))
                output.append(unit)
            }
        case .color:
            guard case .color(let color) = values[slot] else { return false }
            output.append(color.hexText)
        case .fontStack:
            guard case .string(let family) = values[slot] else { return false }
            // Without a registry, a family's stack is its name alone.
            output.append(contentsOf: fonts?.cssValue(for: family) ?? FontFamilyRegistry.cssName(family))
        case .fontOverride:
            guard values.isSet(slot) || values[otherSlot]?.boolValue == true else { return false }
            output.append("readium-font-on")
        case .fontWeight:
            guard let weight = values[slot]?.doubleValue else { return false }
            output.append(Self.fontWeightText(weight))
        case .colorOrTheme:
            if case .color(let color) = values[slot] {
                output.append(color.hexText)
            } else {
                guard case .string(let theme) = values[otherSlot],
                    let flag = Self.choice(theme, choices, table)
                else { return false }
                output.append(flag)
            }
        case .compensatedLineHeight:
            guard let number = values[slot]?.doubleValue else { return false }
            let compensation =
                values[auxiliarySlot]?.stringValue.map(ReadiumCSSLanguages.lineHeightCompensation) ?? 1
            output.append(contentsOf: NumberFormatting.decimal(number * compensation))
        }
        return true
    }

    /// The flag `choices` maps `value` to, or `nil`.
    @inline(__always)
    private static func choice(_ value: String, _ choices: Range<Int>, _ table: [Choice]) -> StaticString? {
        var copy = value
        return copy.withUTF8 { bytes in
            for index in choices where JSONByteScan.equal(Self.bytes(table[index].value), bytes) {
                return table[index].flag
            }
            return nil
        }
    }

    static func bytes(_ text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// `400 × value`, rounded half away from zero, clamped to 1...1000.
    static func fontWeight(_ value: Double) -> String { fontWeightText(value).string }

    /// ``fontWeight(_:)``, inline.
    static func fontWeightText(_ value: Double) -> InlineText {
        let weight = NumberFormatting.roundedHalfAwayFromZero(400 * value)
        let clamped: UInt64 = weight.isFinite ? UInt64(min(max(weight, 1), 1000)) : (weight > 0 ? 1000 : 1)
        return InlineText.fixedPoint(
            integerPart: clamped, fraction: 0, fractionDigits: 0, isNegative: false, trimsZeros: false)
            ?? InlineText()
    }
}

extension ReadiumCSSRow.Gate {
    /// Whether the slot holds the gate's value.
    @inline(__always)
    func holds(in values: SlotStorage) -> Bool {
        switch self {
        case .none: return true
        case .string(let slot, let text):
            guard case .string(let value) = values[slot] else { return false }
            var copy = value
            return copy.withUTF8 { JSONByteScan.equal(ReadiumCSSRow.bytes(text), $0) }
        case .bool(let slot, let flag):
            return values[slot]?.boolValue == flag
        }
    }
}
