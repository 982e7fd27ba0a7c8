import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Diagnostics of decoded preferences (Specs/Settings.md §8)")
struct PreferenceDiagnosticTests {
    static func diagnostics(_ json: String) throws -> [PreferenceDiagnostic] {
        try EPUB.catalogue.decode(json: Array(json.utf8)).diagnostics
    }

    @Test(
        "a stored value that cannot be used gives one diagnostic with its code",
        arguments: [
            (#"{"publisherStyles":"true"}"#, "publisherStyles", PreferenceDiagnostic.Code.typeMismatch),
            (#"{"scroll":1}"#, "scroll", .typeMismatch),
            (#"{"theme":1}"#, "theme", .typeMismatch),
            (#"{"columnCount":2}"#, "columnCount", .typeMismatch),
            (#"{"fontSize":"1.2"}"#, "fontSize", .typeMismatch),
            (#"{"fontSize":[1]}"#, "fontSize", .typeMismatch),
            (#"{"theme":"purple"}"#, "theme", .unsupportedValue),
            (#"{"theme":"Dark"}"#, "theme", .unsupportedValue),
            (##"{"backgroundColor":"#GGG"}"##, "backgroundColor", .unsupportedValue),
            (#"{"textColor":true}"#, "textColor", .typeMismatch),
            (#"{"fontSize":1e400}"#, "fontSize", .unsupportedValue),
            (#"{"wordSpacing":-1e400}"#, "wordSpacing", .unsupportedValue),
            (#"{"x-newer":true}"#, "x-newer", .unknownKey),
        ])
    func singleDiagnostic(json: String, key: String, code: PreferenceDiagnostic.Code) throws {
        let diagnostics = try Self.diagnostics(json)
        // The rejected value is reported with the diagnostic (issue 11); an unknown key's is not.
        let value = code == .unknownKey ? nil : try Preferences(json: json)[key]
        #expect(diagnostics == [PreferenceDiagnostic(code, key: key, value: value)])
        #expect(diagnostics.first?.code.rawValue == code.rawValue)
    }

    @Test("the kept value of an undecodable key is encoded back verbatim")
    func keptVerbatim() throws {
        let json = #"{"fontSize":1e400,"theme":"purple"}"#
        let decoded = try EPUB.catalogue.decode(json: Array(json.utf8))
        #expect(decoded.preferences.jsonString() == json)
    }

    @Test(
        "a value out of range is outOfRange with the stored value and what it resolves to",
        arguments: [
            (#"{"fontSize":7}"#, "fontSize", JSONValue(7), JSONValue(5)),
            (#"{"fontSize":0.01}"#, "fontSize", 0.01, 0.1),
            (#"{"lineHeight":3.5}"#, "lineHeight", 3.5, 2),
            (#"{"letterSpacing":-0.5}"#, "letterSpacing", -0.5, 0),
        ])
    func outOfRange(json: String, key: String, value: JSONValue, coercedTo: JSONValue) throws {
        let diagnostics = try Self.diagnostics(json)
        #expect(diagnostics.count == 1)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.code == .outOfRange)
        #expect(diagnostic.key == key)
        #expect(diagnostic.value == value)
        #expect(diagnostic.coercedTo == coercedTo)
    }

    @Test("an out-of-range value stays stored as written")
    func outOfRangeKept() throws {
        let decoded = try EPUB.catalogue.decode(json: Array(#"{"fontSize":7.00}"#.utf8))
        #expect(decoded.preferences.jsonString() == #"{"fontSize":7.00}"#)
    }

    @Test("a value within range, or a valid one, gives no diagnostic")
    func noDiagnostic() throws {
        let json =
            ##"{"fontSize":5,"theme":"sepia","backgroundColor":"#abc","columnCount":"2","language":"ar_EG","##
            + ##""fontFamily":"Literata","publisherStyles":false,"typeScale":1.333}"##
        #expect(try Self.diagnostics(json).isEmpty)
    }

    @Test("a duplicate key: the last value wins at the first position, with duplicateKey")
    func duplicateKey() throws {
        let decoded = try EPUB.catalogue.decode(json: Array(#"{"theme":"dark","theme":"sepia"}"#.utf8))
        #expect(decoded.preferences.jsonString() == #"{"theme":"sepia"}"#)
        #expect(decoded.diagnostics == [PreferenceDiagnostic(.duplicateKey, key: "theme")])

        let spread = try EPUB.catalogue.decode(
            json: Array(#"{"theme":"dark","fontSize":1.2,"theme":"sepia","scroll":true}"#.utf8))
        #expect(spread.preferences.jsonString() == #"{"theme":"sepia","fontSize":1.2,"scroll":true}"#)
        #expect(spread.diagnostics.map(\.code) == [.duplicateKey])
    }

    @Test("the plain decoder also keeps the last duplicate at the first position")
    func duplicateKeyPlain() throws {
        let preferences = try Preferences(json: #"{"a":1,"b":2,"a":3}"#)
        #expect(preferences.jsonString() == #"{"a":3,"b":2}"#)
    }

    @Test("there is at most one diagnostic per key")
    func atMostOnePerKey() throws {
        let json =
            #"{"fontSize":7,"fontSize":"big","theme":"purple","theme":1,"x":1,"x":2,"scroll":"yes","#
            + #""lineHeight":9}"#
        let diagnostics = try Self.diagnostics(json)
        let keys = diagnostics.map(\.key)
        #expect(keys.count == Set(keys).count)
        #expect(Set(keys) == ["fontSize", "theme", "x", "scroll", "lineHeight"])
    }

    @Test("diagnostics follow the stored order of the keys")
    func diagnosticsOrder() throws {
        let diagnostics = try Self.diagnostics(#"{"zzz":1,"theme":"purple","aaa":2,"fontSize":"x"}"#)
        #expect(diagnostics.map(\.key) == ["zzz", "theme", "aaa", "fontSize"])
    }

    @Test("codes have stable strings", arguments: PreferenceDiagnostic.Code.allCases)
    func stableCodes(code: PreferenceDiagnostic.Code) {
        let expected = [
            "typeMismatch", "unsupportedValue", "outOfRange", "unknownKey", "duplicateKey", "renamedKey",
        ]
        #expect(expected.contains(code.rawValue))
    }

    @Test("an unknown key is informational; the others are not")
    func informational() {
        #expect(PreferenceDiagnostic(.unknownKey, key: "x").isInformational)
        #expect(!PreferenceDiagnostic(.typeMismatch, key: "x").isInformational)
    }

    @Test("a renamedFrom alias that supplies the value is reported as renamedKey")
    func renamedKey() throws {
        let preferences = try Preferences(json: #"{"textSize":2}"#)
        let diagnostics = TestSchema.catalogue.diagnostics(for: preferences)
        #expect(diagnostics == [PreferenceDiagnostic(.renamedKey, key: "textSize", newKey: "size")])
    }

    @Test("the editor reports the diagnostics of its preferences, and an edit clears the key's one")
    func editorDiagnostics() throws {
        var editor = try EPUB.Editor.epub(#"{"theme":"purple","fontSize":7}"#)
        #expect(editor.diagnostics.map(\.code) == [.unsupportedValue, .outOfRange])
        try editor.set(.theme, .dark)
        #expect(editor.diagnostics.map(\.code) == [.outOfRange])
    }

    @Test("an Int setting reports outOfRange with an integer, and a fraction as unsupportedValue")
    func integerDiagnostics() throws {
        let diagnostics = TestSchema.catalogue.diagnostics(
            for: try Preferences(json: #"{"count":42,"scale":2.5e0}"#))
        #expect(diagnostics == [PreferenceDiagnostic(.outOfRange, key: "count", value: 42, coercedTo: 10)])
        #expect(diagnostics.first?.coercedTo?.numberValue?.text == "10")
        let fraction = TestSchema.catalogue.diagnostics(for: try Preferences(json: #"{"count":2.5}"#))
        #expect(fraction == [PreferenceDiagnostic(.unsupportedValue, key: "count", value: 2.5)])
        #expect(fraction.first?.description == "count: unsupported value 2.5; the value is kept but ignored")
    }

    // Specs/Settings.md §2: an Int "also decodes a number with zero fraction"; Specs/Settings.md §3: the range validator
    // "never rejects a finite number"; Specs/Settings.md §8: outOfRange is "the value decodes and the range
    // validator coerces it". An integral number beyond Int's range is finite, so it is coerced.
    @Test(
        "a finite integral number beyond Int's range is outOfRange for an Int range, not unsupported",
        arguments: [("1e30", 10), ("-1e30", 1), ("9223372036854775808", 10)])
    func hugeIntegerIsOutOfRange(json: String, bound: Int) throws {
        let preferences = try Preferences(json: #"{"count":\#(json)}"#)
        let diagnostics = TestSchema.catalogue.diagnostics(for: preferences)
        #expect(diagnostics.map(\.code) == [.outOfRange])
        #expect(diagnostics.first?.coercedTo == .number(JSONNumber(bound)))
    }

    // Specs/Preferences.md §2: "A duplicate key: the last value wins, at the position of the first occurrence,
    // with the diagnostic duplicateKey." The null makes the key unset, but it was still duplicated.
    @Test("a duplicate key whose last value is null is still reported as duplicateKey")
    func duplicateKeyEndingInNull() throws {
        let decoded = try EPUB.catalogue.decode(json: Array(#"{"theme":"dark","theme":null,"a":1}"#.utf8))
        #expect(decoded.preferences.jsonString() == #"{"a":1}"#)
        #expect(decoded.diagnostics.contains(PreferenceDiagnostic(.duplicateKey, key: "theme")))
    }
}
