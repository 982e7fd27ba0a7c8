import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Editor set: validation, coercion and removal (Specs/Settings.md §5, §8)")
struct EditorSetTests {
    static let stored = #"{"mode":"compact","size":1.5,"x-future":[1,2],"$version":3}"#

    @Test(
        "a rejected value throws its code and leaves the old value and the whole preferences unchanged",
        arguments: [
            ("mode", "\"spacious\"", PreferenceError.Code.unsupportedValue),
            ("mode", "\"huge\"", .unsupportedValue),
            ("mode", "1", .typeMismatch),
            ("flag", "\"true\"", .typeMismatch),
            ("flag", "1", .typeMismatch),
            ("size", "\"big\"", .typeMismatch),
            ("size", "true", .typeMismatch),
            ("size", "1e400", .notANumber),
            ("count", "2.5", .unsupportedValue),
            ("tint", "\"#GGG\"", .unsupportedValue),
            ("tint", "1.5", .typeMismatch),
        ])
    func rejectedJSONValue(key: String, json: String, code: PreferenceError.Code) throws {
        var editor = try TestEditor.test(Self.stored)
        let before = editor.preferences.jsonString()
        let value = try JSONValue(json: json)
        let error = editError { try editor.set(key: key, json: value) }
        #expect(error == PreferenceError(code, key: key))
        #expect(editor.preferences.jsonString() == before)
    }

    @Test("an enum value outside supportedValues is unsupportedValue and changes nothing")
    func restrictedEnum() throws {
        var editor = try TestEditor.test(Self.stored)
        let before = editor.preferences
        let error = editError { try editor.set(.mode, .spacious) }
        #expect(error?.code == .unsupportedValue)
        #expect(editor.preferences == before)
        #expect(editor[.mode].value == .compact)
        #expect(editor.settings[.mode] == .compact)
    }

    @Test(
        "NaN and infinities are notANumber and change nothing",
        arguments: [Double.nan, .infinity, -.infinity])
    func notANumber(value: Double) throws {
        var editor = try TestEditor.test(Self.stored)
        let before = editor.preferences.jsonString()
        #expect(editError { try editor.set(.size, value) }?.code == .notANumber)
        #expect(editError { try editor.set(.opacity, value) }?.code == .notANumber)
        #expect(editError { try editor.adjust(.size, by: value) }?.code == .notANumber)
        #expect(editor.preferences.jsonString() == before)
        #expect(editor[.size].value == 1.5)
    }

    @Test("a value outside the range is stored coerced to the nearest bound")
    func coercion() throws {
        var editor = try TestEditor.test()
        try editor.set(.size, 7)
        #expect(editor.preferences.number("size")?.doubleValue == 5.0)
        try editor.set(.size, -3)
        #expect(editor.preferences.number("size")?.doubleValue == 0.1)
        try editor.set(.count, 42)
        #expect(editor.preferences.number("count")?.text == "10")
    }

    @Test("EPUB font size 7 is stored as 5.0")
    func epubFontSizeCoercion() throws {
        var editor = try EPUB.Editor.epub()
        try editor.set(.fontSize, 7)
        #expect(editor.preferences.number("fontSize")?.doubleValue == 5.0)
        #expect(editor[.fontSize].value == 5.0)
    }

    @Test("set nil removes the key and only that key")
    func setNilRemoves() throws {
        var editor = try TestEditor.test(Self.stored)
        try editor.set(.size, nil)
        #expect(editor.preferences.keys == ["mode", "x-future", "$version"])
        #expect(editor[.size].value == nil)
        #expect(editor[.size].effectiveValue == 1.0)
        try editor.set(key: "mode", json: .null)
        #expect(editor.preferences.keys == ["x-future", "$version"])
    }

    @Test("re-setting a stored key keeps its position")
    func resetKeepsPosition() throws {
        var editor = try TestEditor.test(Self.stored)
        try editor.set(.mode, .regular)
        #expect(
            editor.preferences.jsonString() == #"{"mode":"regular","size":1.5,"x-future":[1,2],"$version":3}"#
        )
    }

    @Test("an explicit edit replaces an undecodable stored value in place")
    func editReplacesUndecodable() throws {
        var editor = try TestEditor.test(#"{"size":"big","mode":"compact"}"#)
        #expect(editor[.size].value == nil)
        #expect(editor[.size].storedJSON == "big")
        try editor.set(.size, 2)
        #expect(editor.preferences.jsonString() == #"{"size":2,"mode":"compact"}"#)
    }

    @Test("an unknown key is unknownKey for every edit")
    func unknownKey() throws {
        var editor = try TestEditor.test(Self.stored)
        let before = editor.preferences.jsonString()
        let stranger = Setting<TestSchema, Bool>.toggle("stranger")
        let strangerRange = Setting<TestSchema, Double>.range("strangerRange", range: 0...1)
        let errors: [PreferenceError?] = [
            editError { try editor.set(stranger, true) },
            editError { try editor.toggle(stranger) },
            editError { try editor.increment(strangerRange) },
            editError { try editor.activate(stranger) },
            editError { try editor.set(key: "x-future", json: 1) },
            editError { try editor.toggle(key: "nope") },
            editError { try editor.increment(key: "nope") },
            editError { try editor.decrement(key: "nope") },
            editError { try editor.adjust(key: "nope", by: 1) },
            editError { try editor.clear(key: "nope") },
            editError { try editor.activate(key: "nope") },
        ]
        for error in errors { #expect(error?.code == .unknownKey) }
        #expect(editor.preferences.jsonString() == before)
    }

    @Test("a successful set updates the stored value, the handle and the resolved settings")
    func setReResolves() throws {
        var editor = try TestEditor.test()
        try editor.set(.mode, .compact)
        #expect(editor.preferences["mode"] == "compact")
        #expect(editor[.mode].value == .compact)
        #expect(editor.settings[.mode] == .compact)
    }

    @Test("a language is stored as given with _ replaced by -")
    func languageNormalized() throws {
        var editor = try EPUB.Editor.epub()
        try editor.set(key: "language", json: "ar_EG")
        #expect(editor.preferences.jsonString() == #"{"language":"ar-EG"}"#)
        #expect(editor.settings[.readingProgression] == .rtl)
    }

    // Specs/Settings.md §3: the range validator "never rejects a finite number"; Specs/Settings.md §2: an Int decodes "a
    // number with zero fraction". So an integral 1e30 is coerced to the upper bound, not rejected.
    @Test("setting an Int range to a huge finite integral number stores the bound")
    func hugeIntegerCoerced() throws {
        var editor = try TestEditor.test()
        let error = editError { try editor.set(key: "count", json: try JSONValue(json: "1e30")) }
        #expect(error == nil)
        #expect(editor.preferences.number("count")?.text == "10")
    }
}
