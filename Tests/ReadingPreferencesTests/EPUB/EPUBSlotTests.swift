import Testing

@testable import ReadingPreferences

/// Slots come from the catalogue by key, so a rule or a CSS row can never read another setting
/// (issue 10: one declaration per setting).
@Suite("EPUB slots are looked up by key")
struct EPUBSlotTests {
    @Test("every slot a resolution rule reads holds the setting of that name")
    func ruleSlots() {
        let slots = EPUB.slots
        let expected: [(Int, String)] = [
            (slots.language, "language"), (slots.readingProgression, "readingProgression"),
            (slots.verticalText, "verticalText"), (slots.scroll, "scroll"), (slots.theme, "theme"),
            (slots.fontFamily, "fontFamily"), (slots.textAlign, "textAlign"), (slots.hyphens, "hyphens"),
            (slots.backgroundColor, "backgroundColor"), (slots.textColor, "textColor"),
        ]
        for (slot, key) in expected {
            #expect(EPUB.catalogue.descriptor(atSlot: slot)?.key == key)
        }
    }

    @Test(
        "every Readium CSS row reads a slot of the catalogue, and rows are sorted by name",
        arguments: ReadiumCSSVersion.allCases)
    func cssRows(version: ReadiumCSSVersion) {
        let table = EPUB.readiumCSSTable(version)
        let names = table.rows.map { "\($0.name)" }
        #expect(names == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(names).count == names.count)
        func key(_ slot: Int) -> String? { EPUB.catalogue.descriptor(atSlot: slot)?.key }
        for row in table.rows {
            #expect(key(row.slot) != nil, "\(row.name)")
            switch row.rule {
            case .choice:
                #expect(!row.choices.isEmpty && row.choices.upperBound <= table.choices.count)
            case .fontOverride:
                #expect(key(row.slot) == "fontFamily")
                #expect(key(row.otherSlot) == "textNormalization")
            case .colorOrTheme:
                #expect(key(row.otherSlot) == "theme", "\(row.name)")
                #expect(!row.choices.isEmpty && row.choices.upperBound <= table.choices.count)
            case .compensatedLineHeight:
                #expect(key(row.slot) == "lineHeight")
                #expect(key(row.auxiliarySlot) == "language")
            case .text, .flag, .number, .color, .fontStack, .fontWeight:
                #expect(row.otherSlot == -1, "\(row.name)")
            }
            switch row.gate {
            case .none: break
            case .string(let slot, _), .bool(let slot, _): #expect(key(slot) != nil, "\(row.name)")
            }
        }
    }

    @Test("PDF and TTS resolve their rule settings by key")
    func otherConfigurables() {
        #expect(PDF.catalogue.descriptor(atSlot: PDF.readingProgressionSlot)?.key == "readingProgression")
        #expect(TTS.catalogue.descriptor(atSlot: TTS.languageSlot)?.key == "language")
    }
}
