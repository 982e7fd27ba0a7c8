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

    @Test("every Readium CSS row reads a slot of the catalogue, and rows are sorted by name")
    func cssRows() {
        let names = EPUB.readiumCSSRows.map(\.name)
        #expect(names == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(names).count == names.count)
        for row in EPUB.readiumCSSRows {
            switch row.rule {
            case .text(let slot), .choice(let slot, _), .flag(let slot, _, _), .number(let slot, _, _),
                .color(let slot), .fontStack(let slot), .fontWeight(let slot):
                #expect(EPUB.catalogue.descriptor(atSlot: slot) != nil, "\(row.name)")
            case .fontOverride(let family, let normalization):
                #expect(EPUB.catalogue.descriptor(atSlot: family)?.key == "fontFamily")
                #expect(EPUB.catalogue.descriptor(atSlot: normalization)?.key == "textNormalization")
            }
        }
    }

    @Test("PDF and TTS resolve their rule settings by key")
    func otherConfigurables() {
        #expect(PDF.catalogue.descriptor(atSlot: PDF.readingProgressionSlot)?.key == "readingProgression")
        #expect(TTS.catalogue.descriptor(atSlot: TTS.languageSlot)?.key == "language")
    }
}
