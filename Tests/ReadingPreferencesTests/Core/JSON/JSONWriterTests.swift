import Foundation
import Testing

@testable import ReadingPreferences

@Suite("JSON writing")
struct JSONWriterTests {
    static let roundTrips = [
        #"{"b":1,"a":[true,false,null,"x"],"c":{"z":123456789012345678901234567890,"y":1e400,"x":-0,"w":1.50}}"#,
        #"{"theme":"dark","$version":1,"unknownFutureKey":{"nested":[{"deep":[[],{}]}]},"fontSize":1.2}"#,
        #"[]"#, #"{}"#, #"[{},[],"",0]"#, #""caf\u00e9""#.replacingOccurrences(of: "\\u00e9", with: "\u{E9}"),
        "{\"\u{1F600}\":\"\u{65E5}\u{672C}\"}",
    ]

    @Test(
        "Compact output reproduces an unedited document exactly, order and number text included",
        arguments: roundTrips)
    func roundTrip(text: String) throws {
        let value = try JSONValue(json: text)
        #expect(value.jsonString() == text)
        #expect(value.jsonData() == Data(text.utf8))
        #expect(try JSONValue(json: value.jsonData()) == value)
    }

    @Test("Object documents round-trip through the writer's object entry point")
    func objectDocumentRoundTrip() throws {
        let text = #"{"z":1,"a":{"y":2,"b":3},"m":[1e400,-0,1.50]}"#
        let members = try parseJSONObjectDocument(text).members
        #expect(JSONWriter.writeObject(members, options: .init()) { $0.string() } == text)
    }

    @Test("Strings escape only quote, backslash and control characters")
    func stringEscaping() {
        let value: JSONValue = .string(
            "a\"b\\c/d\n\t\r\u{8}\u{C}\u{0}\u{1}\u{1F}\u{7F}\u{E9}\u{1F600}\u{2028}")
        #expect(
            value.jsonString()
                == "\"a\\\"b\\\\c/d\\n\\t\\r\\b\\f\\u0000\\u0001\\u001f\u{7F}\u{E9}\u{1F600}\u{2028}\"")
        var output = TextOutput(capacity: 0)
        JSONWriter.writeString("k\"", into: &output)
        #expect(output.bytes() == Array(#""k\"""#.utf8))
    }

    @Test("Output past the first estimate grows, and Data, bytes and text all hold the same JSON")
    func growingOutput() throws {
        var text = ""
        for index in 0..<20_000 { text += index % 7 == 0 ? "\"\n\u{0}" : "x\u{E9}" }
        let preferences: Preferences = [
            "k": .string(text), "n": [1, 2.5, "\u{1}", ["deep": [.string(text)]]],
        ]
        let data = preferences.jsonData()
        #expect(try Preferences(json: data) == preferences)
        #expect(data == Data(preferences.jsonString().utf8))
        #expect(data == Data(preferences.jsonBytes()))
        #expect(Preferences().jsonData() == Data("{}".utf8))
        #expect(JSONValue.array([]).jsonData() == Data("[]".utf8))
    }

    @Test("Every escaped string parses back to the same scalars")
    func escapeRoundTrip() throws {
        var text = ""
        for scalar in (0..<0x80).compactMap(Unicode.Scalar.init) { text.unicodeScalars.append(scalar) }
        text += "caf\u{E9} cafe\u{301} \u{1F600}"
        let value: JSONValue = [text: .string(text)]
        #expect(try JSONValue(json: value.jsonString()) == value)
    }

    @Test("Sorted keys order members by UTF-8 bytes at every level")
    func sortedKeys() {
        let value: JSONValue = [
            "b": 1, "a": ["z": 1, "y": [["d": 1, "c": 2]]], "B": 2, "\u{E9}": 3, "z": 4,
        ]
        #expect(
            value.jsonString(options: .init(sortedKeys: true))
                == #"{"B":2,"a":{"y":[{"c":2,"d":1}],"z":1},"b":1,"z":4,"é":3}"#)
        #expect(value.jsonString() == #"{"b":1,"a":{"z":1,"y":[{"d":1,"c":2}]},"B":2,"é":3,"z":4}"#)
    }

    @Test("Pretty printing indents by two spaces with \"key\": value and keeps empty containers short")
    func prettyPrinted() {
        let value: JSONValue = ["a": 1, "b": [true, nil], "c": [:], "d": [], "e": ["f": "g"]]
        let expected = """
            {
              "a": 1,
              "b": [
                true,
                null
              ],
              "c": {},
              "d": [],
              "e": {
                "f": "g"
              }
            }
            """
        #expect(value.jsonString(options: .init(prettyPrinted: true)) == expected)
        let sorted: JSONValue = ["b": 1, "a": 2]
        #expect(
            sorted.jsonString(options: .init(sortedKeys: true, prettyPrinted: true))
                == "{\n  \"a\": 2,\n  \"b\": 1\n}")
        #expect(JSONValue.array([]).jsonString(options: .init(prettyPrinted: true)) == "[]")
    }

    @Test("Writer output is accepted by JSONSerialization")
    func foundationAcceptsOutput() throws {
        let value: JSONValue = ["s": "x\u{1}\"\\", "n": [1.5, -0, 1e-05], "o": ["k": nil]]
        for options in [JSONEncodingOptions(), .init(sortedKeys: true, prettyPrinted: true)] {
            let object = try JSONSerialization.jsonObject(with: value.jsonData(options: options))
            #expect(object is NSDictionary)
        }
    }

    @Test("Options default to compact, insertion order")
    func defaultOptions() {
        let options = JSONEncodingOptions()
        #expect(!options.sortedKeys)
        #expect(!options.prettyPrinted)
        #expect(JSONParsingOptions().maxDepth == 512)
    }
}
