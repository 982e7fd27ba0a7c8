import Foundation
import Testing

@testable import ReadingPreferences

@Suite("JSON parsing")
struct JSONParsingTests {
    @Test("Every JSON type parses to the matching case")
    func allTypes() throws {
        let value = try JSONValue(
            json: #" {"n":null,"t":true,"f":false,"i":-12,"s":"x","a":[1,[]],"o":{"k":{}}} "#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["n", "t", "f", "i", "s", "a", "o"])
        #expect(object["n"] == .null)
        #expect(object["t"] == .bool(true))
        #expect(object["f"] == .bool(false))
        #expect(object["i"]?.numberValue?.integerValue == -12)
        #expect(object["s"] == .string("x"))
        #expect(object["a"] == .array([1, .array([])]))
        #expect(object["o"] == .object(["k": .object(JSONObject())]))
    }

    @Test(
        "Top-level scalars parse as documents", arguments: ["null", "true", "false", "0", "-0.5e-3", "\"\""])
    func topLevelScalars(text: String) throws {
        let value = try JSONValue(json: text)
        #expect(value.jsonString() == text)
    }

    @Test("String, Data and byte-array inputs parse to the same value")
    func inputKinds() throws {
        let text = #"{"a":[1,"\u00e9",{"b":null}]}"#
        let fromString = try JSONValue(json: text)
        let fromData = try JSONValue(json: Data(text.utf8))
        let fromBytes = try JSONValue(json: Array(text.utf8))
        #expect(fromString == fromData)
        #expect(fromString == fromBytes)
        #expect(fromString.objectValue?["a"]?.arrayValue?[1] == "\u{E9}")
    }

    @Test("A leading UTF-8 byte-order mark is skipped")
    func byteOrderMark() throws {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#" {"theme":"dark"}"#.utf8)
        #expect(try JSONValue(json: input) == ["theme": "dark"])
        #expect(try parseJSONObjectDocument(input).members == [.init(key: "theme", value: "dark")])
        #expect(try JSONValue(json: "\u{FEFF}[1]") == [1])
    }

    @Test("Only space, tab, newline and carriage return count as whitespace")
    func whitespace() throws {
        #expect(try JSONValue(json: " \t\r\n[ 1 ,\n2\t]\r\n ") == [1, 2])
        #expect(jsonParseError("\u{C}1")?.code == .unexpectedCharacter)
        #expect(jsonParseError("[1,\u{B}2]")?.code == .unexpectedCharacter)
    }

    @Test("Escapes decode, including surrogate pairs")
    func escapes() throws {
        let value = try JSONValue(
            json: #"["\"\\\/\b\f\n\r\t", "\u00e9\u00E9", "\ud83d\ude00", "\u0000", "a\u0041b", "\uFFFF"]"#)
        #expect(value == ["\"\\/\u{8}\u{C}\n\r\t", "\u{E9}\u{E9}", "\u{1F600}", "\u{0}", "aAb", "\u{FFFF}"])
    }

    @Test("Raw multi-byte UTF-8 in strings is kept, with and without escapes")
    func rawUTF8() throws {
        let text = "[\"caf\u{E9} \u{65E5}\u{672C} \u{1F600}\", \"\u{1F600}\\n\u{E9}\"]"
        let value = try JSONValue(json: text)
        #expect(value == ["caf\u{E9} \u{65E5}\u{672C} \u{1F600}", "\u{1F600}\n\u{E9}"])
    }

    @Test("Long strings and keys (beyond the small-string size) parse intact")
    func longStrings() throws {
        let long = String(repeating: "abcdefghij", count: 30)
        let value = try JSONValue(json: "{\"\(long)\":\"\(long)\\t\(long)\"}")
        #expect(value.objectValue?[long] == .string(long + "\t" + long))
    }

    @Test("Keys that differ only in normalization are two members")
    func scalarDistinctKeys() throws {
        let result = try parseJSONObjectDocument(#"{"caf\u00e9":1,"cafe\u0301":2}"#)
        #expect(result.members.count == 2)
        #expect(result.duplicateKeys.isEmpty)
        let object = JSONObject(members: result.members)
        #expect(object["caf\u{E9}"] == 1)
        #expect(object["cafe\u{301}"] == 2)
        let raw = try JSONValue(json: "{\"caf\u{E9}\":1,\"cafe\u{301}\":2}")
        #expect(raw.objectValue?.count == 2)
    }

    @Test("A duplicate key keeps the last value at the first position and is reported once")
    func duplicateKeys() throws {
        let result = try parseJSONObjectDocument(#"{"a":1,"b":2,"a":3,"c":4,"a":5,"b":6}"#)
        #expect(result.members.map(\.key) == ["a", "b", "c"])
        #expect(result.members.map(\.value) == [5, 6, 4])
        #expect(result.duplicateKeys == ["a", "b"])
    }

    @Test("A duplicate written with an escape is the same key")
    func duplicateKeyWithEscape() throws {
        let result = try parseJSONObjectDocument(#"{"ab":1,"a\u0062":2}"#)
        #expect(result.members == [.init(key: "ab", value: 2)])
        #expect(result.duplicateKeys == ["ab"])
    }

    @Test("Nested duplicate keys are resolved silently, last value wins")
    func nestedDuplicates() throws {
        let result = try parseJSONObjectDocument(#"{"x":{"k":1,"j":0,"k":2},"y":[{"k":1,"k":3}]}"#)
        #expect(result.duplicateKeys.isEmpty)
        let object = JSONObject(members: result.members)
        #expect(object["x"]?.objectValue?.members == [.init(key: "k", value: 2), .init(key: "j", value: 0)])
        #expect(object["y"] == [["k": 3]])
    }

    @Test("Duplicate detection stays correct in objects past the linear-scan limit")
    func manyKeys() throws {
        var text = "{"
        for index in 0..<200 { text += "\"k\(index)\":\(index)," }
        text += #""k7":"again","k150":"again"}"#
        let result = try parseJSONObjectDocument(text)
        #expect(result.members.count == 200)
        #expect(result.duplicateKeys == ["k7", "k150"])
        #expect(result.members[7] == .init(key: "k7", value: "again"))
        #expect(result.members[150] == .init(key: "k150", value: "again"))
        let nested = try JSONValue(json: "{\"o\":\(text)}")
        #expect(nested.objectValue?["o"]?.objectValue?.count == 200)
    }

    @Test("An empty object document has no members")
    func emptyObject() throws {
        let result = try parseJSONObjectDocument(" { } ")
        #expect(result.members.isEmpty)
        #expect(result.duplicateKeys.isEmpty)
    }

    @Test("Nesting within maxDepth parses; one level more throws tooDeep at the opening bracket")
    func customDepth() throws {
        let options = JSONParsingOptions(maxDepth: 3)
        #expect(try JSONValue(json: "[[{}]]", options: options) == [[.object(JSONObject())]])
        #expect(jsonParseError("[[[[]]]]", options: options) == JSONDecodingError(code: .tooDeep, offset: 3))
        #expect(
            jsonParseError(#"{"a":{"b":{"c":{}}}}"#, options: options) == .init(code: .tooDeep, offset: 15))
        #expect(jsonObjectDocumentError(Array(#"{"a":[[[1]]]}"#.utf8), options: options)?.offset == 7)
        #expect(jsonParseError("1", options: .init(maxDepth: 0)) == nil)
        #expect(jsonParseError("[]", options: .init(maxDepth: 0))?.code == .tooDeep)
        #expect(jsonObjectDocumentError(Array("{}".utf8), options: .init(maxDepth: 0))?.code == .tooDeep)
    }

    @Test("100,000 levels of nesting throw tooDeep at the default limit of 512 without overflowing the stack")
    func hugeNesting() {
        let open = String(repeating: "[", count: 100_000)
        #expect(jsonParseError(open) == JSONDecodingError(code: .tooDeep, offset: 512))
        #expect(jsonParseError(open + String(repeating: "]", count: 100_000))?.offset == 512)
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(jsonParseError(objects) == JSONDecodingError(code: .tooDeep, offset: 512 * 5))
        #expect(
            jsonObjectDocumentError(Array((#"{"a":"# + open).utf8)) == .init(code: .tooDeep, offset: 5 + 511))
        #expect(jsonParseError(open, options: .init(maxDepth: 1_000_000))?.code == .tooDeep)
    }

    @Test("512 levels parse by default")
    func defaultDepth() throws {
        let depth = 512
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let value = try JSONValue(json: text)
        #expect(value.jsonString() == text)
        #expect(jsonParseError("[" + text + "]")?.code == .tooDeep)
    }

    @Test("maxDepth is clamped to the ceiling, and a value at the ceiling is safe on a 512 KiB thread")
    func depthCeiling() throws {
        let ceiling = JSONParsingOptions.depthCeiling
        #expect(ceiling == 1024)
        let options = JSONParsingOptions(maxDepth: 1_000_000)
        let deeper = String(repeating: "[", count: ceiling + 1) + String(repeating: "]", count: ceiling + 1)
        #expect(
            jsonParseError(deeper, options: options) == JSONDecodingError(code: .tooDeep, offset: ceiling))
        let text =
            String(repeating: #"{"k":["#, count: ceiling / 2) + "1"
            + String(repeating: "]}", count: ceiling / 2)
        let outcome = JSONTestMailbox<Bool>()
        runOnJSONTestThread(stackSize: 512 * 1024) {
            guard var first = try? JSONValue(json: text, options: options),
                var second = try? JSONValue(json: text, options: options)
            else { return }
            let written = first.jsonString() == text
            let equal = first == second
            let hashed = first.hashValue == second.hashValue
            first = .null
            second = .null
            outcome.value = written && equal && hashed && first == second
        }
        #expect(outcome.value == true)
    }
}
