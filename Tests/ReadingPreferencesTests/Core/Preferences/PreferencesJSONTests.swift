import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Preferences JSON: lossless, ordered, typed errors (Specs/Preferences.md §2)")
struct PreferencesJSONTests {
    static let mixed =
        #"{"zeta":1,"theme":"purple","fontSize":"big","$version":2,"alpha":{"n":[1,2.50]},"#
        + #""big":123456789012345678901234567890,"publisherStyles":"true","fontWeight":1e400}"#

    @Test("unknown keys, undecodable values, $ keys, number text and order survive a round trip")
    func roundTrip() throws {
        let preferences = try Preferences(json: Self.mixed)
        #expect(preferences.jsonString() == Self.mixed)
        #expect(
            preferences.keys == [
                "zeta", "theme", "fontSize", "$version", "alpha", "big", "publisherStyles", "fontWeight",
            ])
        #expect(try Preferences(json: preferences.jsonData()).jsonString() == Self.mixed)
    }

    @Test("the three inputs (String, Data, bytes) decode alike")
    func inputs() throws {
        let string = try Preferences(json: Self.mixed)
        #expect(try Preferences(json: Data(Self.mixed.utf8)).jsonString() == Self.mixed)
        #expect(try Preferences(json: Array(Self.mixed.utf8)).jsonString() == Self.mixed)
        #expect(string.jsonBytes() == Array(Self.mixed.utf8))
    }

    @Test("undecodable values read as unset for resolution and are reported")
    func undecodableReadsAsUnset() throws {
        let editor = try EPUB.Editor.epub(Self.mixed)
        #expect(editor.settings[.theme] == .light)
        #expect(editor.settings[.fontSize] == 1.0)
        #expect(editor.settings[.publisherStyles] == true)
        #expect(editor.settings[.fontWeight] == nil)
        let codes = Dictionary(uniqueKeysWithValues: editor.diagnostics.map { ($0.key, $0.code) })
        #expect(codes["theme"] == .unsupportedValue)
        #expect(codes["fontSize"] == .typeMismatch)
        #expect(codes["publisherStyles"] == .typeMismatch)
        #expect(codes["fontWeight"] == .unsupportedValue)
        #expect(codes["zeta"] == .unknownKey)
        #expect(codes["$version"] == nil)
    }

    @Test("editing one key keeps every other key verbatim and in place")
    func editKeepsOthers() throws {
        var editor = try EPUB.Editor.epub(Self.mixed)
        try editor.set(.theme, .dark)
        #expect(
            editor.preferences.jsonString() == Self.mixed.replacingOccurrences(of: "purple", with: "dark"))
    }

    @Test("re-setting a key keeps its position; a new key goes to the end")
    func resetKeepsPosition() throws {
        var preferences = try Preferences(json: #"{"a":1,"b":2,"c":3}"#)
        preferences["b"] = "two"
        preferences["d"] = 4
        #expect(preferences.jsonString() == #"{"a":1,"b":"two","c":3,"d":4}"#)
        preferences["b"] = nil
        preferences["b"] = 2
        #expect(preferences.keys == ["a", "c", "d", "b"])
    }

    @Test("a null value means unset", arguments: [#"{"theme": null}"#, #"{"theme":null,"fontSize":null}"#])
    func nullIsUnset(json: String) throws {
        let preferences = try Preferences(json: json)
        #expect(preferences.isEmpty)
        #expect(preferences == Preferences())
        #expect(preferences.jsonString() == "{}")
    }

    @Test("a null value among others is dropped and the rest keeps its order")
    func nullAmongOthers() throws {
        let preferences = try Preferences(json: #"{"a":1,"theme":null,"b":2}"#)
        #expect(preferences.jsonString() == #"{"a":1,"b":2}"#)
        var assigned = preferences
        assigned["a"] = .null
        #expect(assigned.keys == ["b"])
    }

    @Test("$ keys never produce diagnostics, whatever their value")
    func reservedKeysNoDiagnostics() throws {
        let preferences = try Preferences(json: #"{"$version":"x","$theme":1,"$":[true],"$fontSize":"big"}"#)
        #expect(EPUB.catalogue.diagnostics(for: preferences).isEmpty)
        let duplicated = try EPUB.catalogue.decode(json: Array(#"{"$version":1,"$version":2}"#.utf8))
        #expect(duplicated.diagnostics.isEmpty)
        #expect(duplicated.preferences["$version"] == 2)
    }

    @Test("== ignores order but encoding keeps it")
    func equalityIgnoresOrder() throws {
        let first = try Preferences(json: #"{"a":1,"b":[1,2],"c":{"x":1,"y":2}}"#)
        let second = try Preferences(json: #"{"c":{"y":2,"x":1},"b":[1,2],"a":1.0}"#)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first.jsonString() != second.jsonString())
        #expect(second.jsonString() == #"{"c":{"y":2,"x":1},"b":[1,2],"a":1.0}"#)
        let reordered = try Preferences(json: #"{"a":1,"b":[2,1],"c":{"x":1,"y":2}}"#)
        #expect(first != reordered)
        #expect(first != (try Preferences(json: #"{"a":1,"b":[1,2]}"#)))
    }

    @Test("sorted-keys encoding sorts at every level")
    func sortedKeys() throws {
        let preferences = try Preferences(json: #"{"theme":"dark","$version":1,"b":{"z":1,"a":2},"a":true}"#)
        #expect(
            preferences.jsonString(options: .init(sortedKeys: true))
                == #"{"$version":1,"a":true,"b":{"a":2,"z":1},"theme":"dark"}"#)
        #expect(preferences.jsonString() == #"{"theme":"dark","$version":1,"b":{"z":1,"a":2},"a":true}"#)
    }

    @Test("keys compare by Unicode scalars, not canonical equivalence")
    func scalarKeys() throws {
        let preferences = try Preferences(json: "{\"caf\\u00e9\":1,\"cafe\\u0301\":2}")
        #expect(preferences.count == 2)
        #expect(preferences["caf\u{E9}"] == 1)
        #expect(preferences["cafe\u{301}"] == 2)
    }

    @Test(
        "invalid documents throw a typed error with its code and byte offset",
        arguments: [
            ("", JSONDecodingError.Code.emptyInput, 0),
            ("   \n\t ", .emptyInput, 6),
            ("null", .notAnObject, 0),
            ("  [1,2]", .notAnObject, 2),
            (#""theme""#, .notAnObject, 0),
            ("42", .notAnObject, 0),
            ("true", .notAnObject, 0),
            (#"{"theme":"dark""#, .unexpectedEndOfInput, 15),
            (#"{"theme":"#, .unexpectedEndOfInput, 9),
            ("{", .unexpectedEndOfInput, 1),
            (#"{"a":1,}"#, .unexpectedCharacter, 7),
            (#"{"a":1} x"#, .trailingContent, 8),
            (#"{"a":NaN}"#, .unexpectedCharacter, 5),
            (#"{"a":01}"#, .invalidNumber, 5),
        ])
    func invalidDocuments(json: String, code: JSONDecodingError.Code, offset: Int) {
        do {
            let preferences = try Preferences(json: json)
            Issue.record("decoded \(preferences) from \(json.debugDescription)")
        } catch {
            #expect(error.code == code)
            #expect(error.offset == offset)
        }
    }

    @Test("a leading byte-order mark is skipped")
    func byteOrderMark() throws {
        let preferences = try Preferences(json: [0xEF, 0xBB, 0xBF] + Array(#"{"theme":"dark"}"#.utf8))
        #expect(preferences["theme"] == "dark")
    }

    @Test("Preferences nests in an app's Codable struct through JSONEncoder and JSONDecoder")
    func codable() throws {
        struct AppState: Codable, Equatable {
            var name: String
            var preferences: Preferences
            var perBook: [String: Preferences]
        }
        let state = AppState(
            name: "reader",
            preferences: try Preferences(
                json: #"{"theme":"dark","fontSize":1.25,"x-new":{"a":[1,"b",null]}}"#),
            perBook: ["book-1": try Preferences(json: #"{"language":"ar","$version":1}"#)])
        let data = try JSONEncoder().encode(state)
        let decoded = try JSONDecoder().decode(AppState.self, from: data)
        #expect(decoded == state)
        #expect(decoded.preferences["fontSize"]?.numberValue?.doubleValue == 1.25)
    }

    @Test("decoding a non-object through JSONDecoder throws")
    func codableRejectsNonObject() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Preferences.self, from: Data("[1,2]".utf8))
        }
    }

    @Test("a dictionary literal keeps its order and drops nil")
    func dictionaryLiteral() {
        let preferences: Preferences = ["theme": "dark", "gone": nil, "fontSize": 1.5]
        #expect(preferences.jsonString() == #"{"theme":"dark","fontSize":1.5}"#)
    }

    @Test("sorted keys compare by UTF-8 bytes, not by locale")
    func sortedByBytes() throws {
        let preferences = try Preferences(json: #"{"b":1,"B":2,"a":3,"$v":4,"_":5}"#)
        #expect(
            preferences.jsonString(options: .init(sortedKeys: true)) == #"{"$v":4,"B":2,"_":5,"a":3,"b":1}"#)
    }

    @Test("a null value decoded through JSONDecoder means unset too")
    func codableNull() throws {
        let preferences = try JSONDecoder().decode(
            Preferences.self, from: Data(#"{"theme":null,"a":1}"#.utf8))
        #expect(preferences.keys == ["a"])
    }
}
