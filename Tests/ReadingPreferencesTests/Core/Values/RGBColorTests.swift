import Foundation
import Testing

@testable import ReadingPreferences

@Suite("RGB colors (Specs/Settings.md §2)")
struct RGBColorTests {
    private static let red = RGBColor(red: 0xFF, green: 0, blue: 0)

    @Test(
        "Every accepted string form of red parses to the same color",
        arguments: [
            "#F00", "#f00", "#ff0000", "#FF0000", "#Ff0000", "#FF0000FF", "#ff0000ff", "red", "RED", "Red",
        ])
    func redStringForms(text: String) {
        #expect(RGBColor(parsing: text) == Self.red)
    }

    @Test("The integer forms of red decode to the same color")
    func redIntegerForms() {
        #expect(RGBColor(rgb: 0xFF0000) == Self.red)
        #expect(RGBColor(readiumKotlinARGB: -65536) == Self.red)
        #expect(RGBColor(readiumKotlinARGB: Int(Int32(bitPattern: 0xFFFF_0000))) == Self.red)
    }

    @Test(
        "Unsupported strings are rejected",
        arguments: [
            "#F00F", "#FF000080", "#FF000000", "#FF0000F", "transparent", "TRANSPARENT", "#GGG",
            "FF0000", "F00", "", "#", "#FF00", "#FF00000", "#FF0000FFF", " red", "red ", " #FF0000",
            "#FF0000 ", "reds", "blac\u{212A}", "rgb(255,0,0)", "##F00", "#+F0000",
        ])
    func rejectedStrings(text: String) {
        #expect(RGBColor(parsing: text) == nil)
    }

    @Test("Readium Swift integers are accepted only from 0 to 0xFFFFFF")
    func rgbRange() {
        #expect(RGBColor(rgb: 0) == RGBColor(red: 0, green: 0, blue: 0))
        #expect(RGBColor(rgb: 0xFF_FFFF) == RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF))
        #expect(RGBColor(rgb: 0x12_3456) == RGBColor(red: 0x12, green: 0x34, blue: 0x56))
        #expect(RGBColor(rgb: 0x100_0000) == nil)
        #expect(RGBColor(rgb: -1) == nil)
        #expect(RGBColor(rgb: Int.max) == nil)
    }

    @Test("Readium Kotlin integers are accepted only when negative 32-bit with alpha FF")
    func kotlinRange() {
        #expect(RGBColor(readiumKotlinARGB: -1) == RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF))
        #expect(RGBColor(readiumKotlinARGB: -16_777_216) == RGBColor(red: 0, green: 0, blue: 0))
        // 0x00FF0000 and 0x80FF0000: alpha 00 and 80.
        #expect(RGBColor(readiumKotlinARGB: 0x00FF_0000) == nil)
        #expect(RGBColor(readiumKotlinARGB: Int(Int32(bitPattern: 0x80FF_0000))) == nil)
        #expect(RGBColor(readiumKotlinARGB: -16_777_217) == nil)  // 0xFEFFFFFF
        #expect(RGBColor(readiumKotlinARGB: Int(Int32.min)) == nil)  // 0x80000000
        #expect(RGBColor(readiumKotlinARGB: Int(Int32.min) - 1) == nil)  // not 32-bit
        #expect(RGBColor(readiumKotlinARGB: -65536 - (1 << 32)) == nil)  // red's low 32 bits, but not 32-bit
        #expect(RGBColor(readiumKotlinARGB: 0) == nil)
        #expect(RGBColor(readiumKotlinARGB: 0xFF_0000) == nil)  // an RGB integer is not the Kotlin form
    }

    @Test("Integer accessors round-trip through the initializers")
    func integerRoundTrip() {
        for (_, color) in RGBColor.cssNamedColors {
            #expect(RGBColor(rgb: color.rgb) == color)
            #expect(RGBColor(readiumKotlinARGB: color.readiumKotlinARGB) == color)
            #expect(color.readiumKotlinARGB < 0)
            #expect(RGBColor(hexString: color.hexString) == color)
        }
        #expect(Self.red.rgb == 0xFF0000)
        #expect(Self.red.readiumKotlinARGB == -65536)
        #expect(RGBColor(red: 0, green: 0, blue: 0).readiumKotlinARGB == -16_777_216)
    }

    @Test("Hex output is #RRGGBB with upper-case digits, and is the description")
    func hexOutput() {
        let color = RGBColor(red: 0xAB, green: 0x0C, blue: 0xEF)
        #expect(color.hexString == "#AB0CEF")
        #expect(color.description == "#AB0CEF")
        #expect(RGBColor(parsing: "#abcdef")?.hexString == "#ABCDEF")
        #expect(RGBColor(parsing: "#a1b")?.hexString == "#AA11BB")
        #expect(RGBColor(red: 0, green: 0, blue: 0).hexString == "#000000")
    }

    @Test("There are 148 named colors, lower-case, alphabetical and unique")
    func namedColorList() {
        let names = RGBColor.cssNamedColors.map(\.name)
        #expect(names.count == 148)
        #expect(names == names.sorted())
        #expect(Set(names).count == 148)
        #expect(names.allSatisfy { $0 == $0.lowercased() })
        #expect(!names.contains("transparent"))
    }

    @Test(
        "Named colors carry their CSS values, including both gray spellings and rebeccapurple",
        arguments: [
            ("rebeccapurple", "#663399"), ("gray", "#808080"), ("grey", "#808080"), ("green", "#008000"),
            ("lime", "#00FF00"), ("maroon", "#800000"), ("purple", "#800080"), ("aliceblue", "#F0F8FF"),
            ("yellowgreen", "#9ACD32"), ("darkslategrey", "#2F4F4F"), ("lightgoldenrodyellow", "#FAFAD2"),
            ("cyan", "#00FFFF"), ("aqua", "#00FFFF"), ("fuchsia", "#FF00FF"), ("magenta", "#FF00FF"),
            ("WhiteSmoke", "#F5F5F5"),
        ])
    func namedColorValues(name: String, hex: String) {
        #expect(RGBColor(cssName: name)?.hexString == hex)
    }

    @Test("Codable writes the hex string and reads every string form")
    func codable() throws {
        let data = try JSONEncoder().encode([Self.red])
        #expect(String(decoding: data, as: UTF8.self) == ##"["#FF0000"]"##)
        let decoded = try JSONDecoder().decode(
            [RGBColor].self, from: Data(##"["red","#f00","#FF0000FF"]"##.utf8))
        #expect(decoded == [Self.red, Self.red, Self.red])
    }

    @Test(
        "Decoding an unsupported string throws dataCorrupted",
        arguments: ["transparent", "#FF000080", "#F00F"])
    func codableRejects(text: String) {
        let json = Data("[\"\(text)\"]".utf8)
        #expect {
            try JSONDecoder().decode([RGBColor].self, from: json)
        } throws: { error in
            guard case DecodingError.dataCorrupted = error else { return false }
            return true
        }
    }
}
