import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Descriptor formatting and accessibility labels (Specs/Settings.md §7)")
struct SettingFormatTests {
    static let multiplier = Setting<TestSchema, Double>.range("zoom", range: 0.5...4, format: .multiplier)
    static let points = Setting<TestSchema, Double>.range(
        "pointSize", range: 6...72, format: .unit(symbol: "pt", spokenName: "points"))

    @Test(
        "percent formats round half away from zero and never truncate",
        arguments: [
            (1.2, "120%"), (1.0, "100%"), (1.25, "125%"), (0.125, "13%"), (10.0, "1000%"), (0.0, "0%"),
            (0.005, "1%"), (2.5, "250%"),
        ])
    func percent(value: Double, expected: String) {
        #expect(EPUB.fontSize.format(value) == expected)
        #expect(EPUB.wordSpacing.format(value) == expected)
    }

    @Test(
        "decimal formats keep at most five fraction digits",
        arguments: [(16.0 / 15, "1.06667"), (1.2, "1.2"), (1.0, "1"), (1.5, "1.5"), (1.618, "1.618")])
    func decimal(value: Double, expected: String) {
        #expect(EPUB.lineHeight.format(value) == expected)
        #expect(EPUB.typeScale.format(value) == expected)
    }

    @Test("multiplier and unit formats append their symbol")
    func multiplierAndUnit() {
        #expect(Self.multiplier.format(1.5) == "1.5×")
        #expect(Self.multiplier.format(2) == "2×")
        #expect(Self.points.format(16) == "16 pt")
        #expect(Self.points.format(10.5) == "10.5 pt")
    }

    @Test("accessibility labels spell the unit out")
    func accessibilityLabels() {
        #expect(EPUB.fontSize.descriptor.accessibilityLabel(.number(1.2)) == "120 percent")
        #expect(EPUB.fontSize.descriptor.accessibilityLabel(.number(0.125)) == "13 percent")
        #expect(Self.multiplier.descriptor.accessibilityLabel(.number(1.5)) == "1.5 times")
        #expect(Self.points.descriptor.accessibilityLabel(.number(16)) == "16 points")
        #expect(EPUB.textAlign.descriptor.accessibilityLabel(.string("justify")) == "Justify")
    }

    @Test("a locale is used only when passed")
    func locale() {
        let french = Locale(identifier: "fr_FR")
        #expect(Self.multiplier.format(1.5) == "1.5×")
        #expect(Self.multiplier.format(1.5, locale: french) == "1,5×")
        #expect(EPUB.lineHeight.format(1.5, locale: french) == "1,5")
        #expect(EPUB.lineHeight.format(1.5) == "1.5")
        #expect(EPUB.lineHeight.format(1.5, locale: Locale(identifier: "en_US")) == "1.5")
    }

    @Test("an enum value is labelled by its declared label or its capitalized raw value")
    func enumLabels() {
        #expect(EPUB.textAlign.format(.justify) == "Justify")
        #expect(EPUB.theme.format(.sepia) == "Sepia")
        #expect(EPUB.readingProgression.format(.rtl) == "Right to left")
        #expect(EPUB.columnCount.format(.two) == "2")
        #expect(EPUB.columnCount.descriptor.label("auto") == "Auto")
    }

    @Test("integers format without a fraction")
    func integers() {
        #expect(TestSchema.count.format(3) == "3")
    }

    @Test("plain formats write toggles as On or Off and colors as their text")
    func plain() {
        #expect(EPUB.scroll.format(true) == "On")
        #expect(EPUB.scroll.format(false) == "Off")
        #expect(EPUB.scroll.descriptor.accessibilityLabel(.bool(true)) == "on")
        #expect(EPUB.backgroundColor.format(RGBColor(red: 0xAB, green: 0xCD, blue: 0xEF)) == "#ABCDEF")
    }
}
