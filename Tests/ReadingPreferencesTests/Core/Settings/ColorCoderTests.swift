import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Colors through the coder (Specs/Settings.md §2)")
struct ColorCoderTests {
    static let red = RGBColor(red: 0xFF, green: 0, blue: 0)

    static let redForms: [String] = [
        ##""#F00""##, ##""#f00""##, ##""#ff0000""##, ##""#FF0000""##, ##""#FF0000FF""##, ##""#ff0000ff""##,
        #""red""#, #""RED""#, #""Red""#, "16711680", "16711680.0", "-65536", "1.6711680e7",
    ]

    @Test("every accepted form decodes to the same color", arguments: redForms)
    func decodesToRed(json: String) throws {
        let value = try JSONValue(json: json)
        #expect(SettingCoder.color.decode(value) == .success(.color(Self.red)))
    }

    @Test("every accepted form is stored canonically as #FF0000 after an edit", arguments: redForms)
    func storedCanonically(json: String) throws {
        var editor = try EPUB.Editor.epub()
        try editor.set(key: "backgroundColor", json: try JSONValue(json: json))
        #expect(editor.preferences["backgroundColor"] == "#FF0000")
        #expect(editor[.backgroundColor].value == Self.red)
    }

    @Test("a stored non-canonical form is read, and kept until edited")
    func storedFormKept() throws {
        var editor = try EPUB.Editor.epub(#"{"textColor":-65536}"#)
        #expect(editor[.textColor].value == Self.red)
        #expect(editor.preferences.jsonString() == #"{"textColor":-65536}"#)
        try editor.set(.textColor, RGBColor(red: 0, green: 0x80, blue: 0))
        #expect(editor.preferences.jsonString() == ##"{"textColor":"#008000"}"##)
    }

    @Test(
        "other forms are rejected with unsupportedValue or typeMismatch",
        arguments: [
            ("1.5", PreferenceError.Code.typeMismatch),
            ("true", .typeMismatch),
            ("[255,0,0]", .typeMismatch),
            (#"{"r":255}"#, .typeMismatch),
            ("16777216", .unsupportedValue),  // 0x1000000
            (#""transparent""#, .unsupportedValue),
            (##""#FF000080""##, .unsupportedValue),
            (##""#F00F""##, .unsupportedValue),
            (##""#GGG""##, .unsupportedValue),
            (#""FF0000""#, .unsupportedValue),
            (#"" red""#, .unsupportedValue),
            (#""""#, .unsupportedValue),
            ("-2130771968", .unsupportedValue),  // 0x80FF0000: alpha 80
            ("-2147483649", .unsupportedValue),  // below -2^31
            ("1e400", .unsupportedValue),
        ])
    func rejected(json: String, code: PreferenceError.Code) throws {
        let value = try JSONValue(json: json)
        let failure: ValueFailure = code == .typeMismatch ? .typeMismatch : .unsupportedValue
        #expect(SettingCoder.color.decode(value) == .failure(failure))

        var editor = try EPUB.Editor.epub(##"{"backgroundColor":"#123456"}"##)
        #expect(editError { try editor.set(key: "backgroundColor", json: value) }?.code == code)
        #expect(editor.preferences.jsonString() == ##"{"backgroundColor":"#123456"}"##)
    }

    @Test("a color encodes as hex by default, or as Readium Swift and Kotlin integers")
    func encodings() {
        let color = SettingValue.color(Self.red)
        #expect(SettingCoder.color.encode(color) == "#FF0000")
        #expect(SettingCoder.color.encode(color, colors: .hex) == "#FF0000")
        #expect(SettingCoder.color.encode(color, colors: .readiumSwift) == 16_711_680)
        #expect(SettingCoder.color.encode(color, colors: .readiumKotlin) == -65536)

        let white = SettingValue.color(RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF))
        #expect(SettingCoder.color.encode(white, colors: .readiumSwift) == 16_777_215)
        #expect(SettingCoder.color.encode(white, colors: .readiumKotlin) == -1)
        let black = SettingValue.color(RGBColor(red: 0, green: 0, blue: 0))
        #expect(SettingCoder.color.encode(black, colors: .readiumKotlin) == -16_777_216)
    }

    @Test(
        "the Readium integer encodings decode back to the same color",
        arguments: [
            RGBColor(red: 0x12, green: 0x34, blue: 0x56), .init(red: 0, green: 0, blue: 0),
            .init(red: 255, green: 255, blue: 255),
        ])
    func integerRoundTrip(color: RGBColor) {
        for encoding in [ColorEncoding.hex, .readiumSwift, .readiumKotlin] {
            let json = SettingCoder.color.encode(.color(color), colors: encoding)
            #expect(SettingCoder.color.decode(json) == .success(.color(color)))
        }
    }

    @Test("hex output is upper-case")
    func upperCaseHex() throws {
        var editor = try EPUB.Editor.epub()
        try editor.set(key: "textColor", json: "#abcdef")
        #expect(editor.preferences["textColor"] == "#ABCDEF")
        try editor.set(key: "textColor", json: "rebeccapurple")
        #expect(editor.preferences["textColor"] == "#663399")
    }
}
