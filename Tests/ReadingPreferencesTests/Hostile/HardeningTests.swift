import Foundation
import Testing

@testable import ReadingPreferences

/// The findings of the hostile-input review (issue 11), one test each: every one failed before
/// its fix.
@Suite("Hardening: the findings of the hostile-input review")
struct HardeningTests {
    // MARK: Finding 5: Codable never loses data silently

    struct Row: Codable, Equatable {
        var id: Int
        var preferences: Preferences
    }

    @Test(
        "numbers survive JSONEncoder and JSONDecoder with their value, and -0 keeps its sign",
        arguments: [
            "123456789012345678901234567890", "-0", "1.50", "0.1000000000000000000001", "1e-5",
            "12345678901234567890",
        ])
    func codableKeepsNumbers(text: String) throws {
        let row = Row(id: 1, preferences: try Preferences(json: #"{"n":\#(text)}"#))
        let data = try JSONEncoder().encode(row)
        let back = try JSONDecoder().decode(Row.self, from: data)
        let original = try #require(row.preferences["n"]?.numberValue)
        let decoded = try #require(back.preferences["n"]?.numberValue)
        // The exact decimal value, not only the binary64 one.
        #expect(JSONDecimalForm(text: decoded.text).isSameValue(as: JSONDecimalForm(text: original.text)))
        #expect(decoded.doubleValue.sign == original.doubleValue.sign)
    }

    @Test("a number no encoder form can carry exactly throws a clear EncodingError instead of vanishing")
    func codableThrowsForInfinity() throws {
        let row = Row(id: 1, preferences: try Preferences(json: #"{"n":1e400,"m":1}"#))
        do {
            _ = try JSONEncoder().encode(row)
            Issue.record("1e400 was encoded")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.debugDescription.contains("1e400"))
            #expect(context.debugDescription.contains("jsonData()"))
        }
        // The lossless path keeps it.
        #expect(row.preferences.jsonString() == #"{"n":1e400,"m":1}"#)
    }

    @Test("with another encoder, a number binary64 cannot hold throws too")
    func codablePropertyList() throws {
        let row = Row(id: 1, preferences: try Preferences(json: #"{"n":123456789012345678901234567890}"#))
        #expect(throws: EncodingError.self) { try PropertyListEncoder().encode(row) }
        let exact = Row(id: 1, preferences: try Preferences(json: #"{"n":-0,"m":2.5}"#))
        let back = try PropertyListDecoder().decode(Row.self, from: PropertyListEncoder().encode(exact))
        #expect(back == exact)
    }

    // MARK: Finding 6: long fractions and exponents are read exactly

    static let longNumberCases: [(String, Double)] = {
        let zeros = { (count: Int) in String(repeating: "0", count: count) }
        return [
            ("0." + zeros(99_999) + "2e1000001", Double.infinity),
            ("0." + zeros(990) + "2e1000001", Double.infinity),
            ("2e1000001", Double.infinity),
            ("0." + zeros(99_999) + "2e100000", 2),
            ("0." + zeros(99_999) + "2e100001", 20),
            ("1" + zeros(100_000) + "e-100000", 1),
            ("2e-1000001", 0),
            ("0e99999999999999999999", 0),
            ("1" + zeros(400) + "e-400", 1),
            ("-0." + zeros(5_000) + "1e4990", -1e-11),
        ]
    }()

    @Test(
        "the number parser decides infinity and zero for any length of fraction and exponent",
        arguments: Self.longNumberCases)
    func longNumbers(text: String, expected: Double) throws {
        let number = try #require(JSONNumber(text: text))
        #expect(number.doubleValue == expected)
        let preferences = try Preferences(json: #"{"fontSize":\#(text)}"#)
        let size = EPUB.Resolver().resolve(preferences)[EPUB.fontSize]
        if expected.isFinite {
            #expect(size == min(max(expected, 0.1), 5.0))
        } else {
            #expect(size == 1.0)  // unusable: the fallback
            #expect(EPUB.catalogue.diagnostics(for: preferences).map(\.code) == [.unsupportedValue])
        }
    }

    @Test("a long integral number is an exact integer only when it fits")
    func longIntegers() throws {
        let five = "0." + String(repeating: "0", count: 1_500_000) + "5e1500001"
        #expect(JSONNumber(text: five)?.integerValue == 5)
        #expect(JSONNumber(text: "9223372036854775807")?.integerValue == Int.max)
        #expect(JSONNumber(text: "9223372036854775808")?.integerValue == nil)
        #expect(JSONNumber(text: "-9223372036854775808")?.integerValue == Int.min)
    }

    // MARK: Finding 7: NaN through public API

    @Test("defaults reject NaN and infinities, so they never reach the CSS")
    func defaultsRejectNaN() {
        var defaults = EPUB.Defaults()
        defaults[slot: EPUB.catalogue.slot(forKey: "fontSize") ?? -1] = .number(.nan)
        defaults[.pageMargins] = .infinity
        #expect(defaults[.fontSize] == nil)
        #expect(defaults[.pageMargins] == nil)
        let css = EPUB.Resolver(defaults: defaults).resolve(Preferences()).readiumCSS()
        #expect(css["--USER__fontSize"] == "100%")
        #expect(!css.inlineStyle.contains("NaN"))
        defaults[slot: EPUB.catalogue.slot(forKey: "fontSize") ?? -1] = .number(9)
        #expect(defaults[.fontSize] == 5.0)  // coerced like every write
    }

    @Test("a non-finite number is notANumber on every path: typed, by key and by edit")
    func notANumberEverywhere() throws {
        var editor = EPUB.Editor(resolver: EPUB.Resolver())
        #expect(throws: PreferenceError(.notANumber, key: "fontSize")) { try editor.set(.fontSize, .nan) }
        #expect(throws: PreferenceError(.notANumber, key: "fontSize")) {
            try editor.set(key: "fontSize", json: try JSONValue(json: "1e400"))
        }
        #expect(throws: PreferenceError(.notANumber, key: "fontSize")) {
            try editor.apply(.set(key: "fontSize", value: .number(JSONNumber(-Double.infinity))))
        }
        #expect(editor.preferences.isEmpty)
    }

    // MARK: Finding 8: honest reasons

    @Test(
        "when scroll is forced, columnCount says forcedScroll, and activation says it cannot help",
        arguments: [
            (PublicationContext(languages: ["ja"], readingProgression: .rtl), ReadingEnvironment()),
            (PublicationContext(languages: ["en"]), ReadingEnvironment(forceScroll: true)),
        ])
    func forcedScroll(publication: PublicationContext, environment: ReadingEnvironment) {
        var editor = EPUB.Editor(resolver: EPUB.Resolver(publication: publication, environment: environment))
        #expect(editor[.columnCount].reasons == [.forcedScroll])
        #expect(!editor[.columnCount].canActivate)
        #expect(throws: PreferenceError(.notActivatable, key: "columnCount")) {
            try editor.activate(.columnCount)
        }
        let row = editor.form().rows.first { $0.key == "columnCount" }
        #expect(row?.canActivate == false)
        #expect(row?.reasons.map(\.code) == ["forcedScroll"])
    }

    @Test("columnCount in scroll mode can be activated, and the form says so")
    func activatableColumnCount() throws {
        let editor = EPUB.Editor(preferences: ["scroll": true], resolver: EPUB.Resolver())
        #expect(editor[.columnCount].reasons == [.requiresPreference(key: "scroll", value: .bool(false))])
        #expect(editor[.columnCount].canActivate)
        #expect(editor.form().rows.first { $0.key == "columnCount" }?.canActivate == true)
        #expect(editor.form().rows.first { $0.key == "fontSize" }?.canActivate == false)  // effective already
    }

    @Test("a PDF background color supplied only by an app default is effective")
    func pdfDefaultBackground() {
        var defaults = PDF.Defaults()
        defaults[.backgroundColor] = RGBColor(red: 0x33, green: 0x33, blue: 0x33)
        let editor = PDF.Editor(resolver: PDF.Resolver(defaults: defaults))
        #expect(editor[.backgroundColor].isEffective)
        #expect(!PDF.Editor(resolver: PDF.Resolver())[.backgroundColor].isEffective)
    }
}
