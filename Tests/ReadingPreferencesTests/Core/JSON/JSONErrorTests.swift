import Testing

@testable import ReadingPreferences

@Suite("JSON decoding errors")
struct JSONErrorTests {
    static let textCases: [(String, JSONDecodingError.Code, Int)] = [
        ("", .emptyInput, 0),
        ("   \n\t", .emptyInput, 5),
        (#"{"a":1,}"#, .unexpectedCharacter, 7),
        ("[1,]", .unexpectedCharacter, 3),
        ("[1,,2]", .unexpectedCharacter, 3),
        (#"{"a":1} // note"#, .trailingContent, 8),
        (#"{/* note */"a":1}"#, .unexpectedCharacter, 1),
        (#"{"a":1}{}"#, .trailingContent, 7),
        ("1 2", .trailingContent, 2),
        ("true x", .trailingContent, 5),
        ("NaN", .unexpectedCharacter, 0),
        (#"{"a":NaN}"#, .unexpectedCharacter, 5),
        (#"{"a":Infinity}"#, .unexpectedCharacter, 5),
        (#"{"a":-Infinity}"#, .invalidNumber, 5),
        (#"{"a":01}"#, .invalidNumber, 5),
        (#"{"a":-01}"#, .invalidNumber, 5),
        (#"{"a":+1}"#, .unexpectedCharacter, 5),
        (#"{"a":.5}"#, .unexpectedCharacter, 5),
        (#"{"a":1.}"#, .invalidNumber, 5),
        (#"{"a":1.e3}"#, .invalidNumber, 5),
        (#"{"a":1e}"#, .invalidNumber, 5),
        (#"{"a":1e+}"#, .invalidNumber, 5),
        (#"{"a":-}"#, .invalidNumber, 5),
        (#"{"a":0x10}"#, .unexpectedCharacter, 6),
        (#"{"a":"\x"}"#, .invalidEscape, 6),
        (#"{"a":"\u12G4"}"#, .invalidEscape, 6),
        (#"{"a":"ok\'"}"#, .invalidEscape, 8),
        (#"{"a":"\ud800"}"#, .loneSurrogate, 6),
        (#"{"a":"\udc00"}"#, .loneSurrogate, 6),
        (#"{"a":"\ud800\u0041"}"#, .loneSurrogate, 6),
        (#"{"a":"\ud800x"}"#, .loneSurrogate, 6),
        (#"{"a":"\ud83d\ud83d"}"#, .loneSurrogate, 6),
        (#"{"a":"\ude00\ud83d"}"#, .loneSurrogate, 6),
        ("{\"a\":\"x\ny\"}", .controlCharacterInString, 7),
        ("{\"a\":\"x\ty\"}", .controlCharacterInString, 7),
        ("{\"a\\u0000\":\"\u{1}\"}", .controlCharacterInString, 12),
        ("{\"a\":\"\\n\u{1F}\"}", .controlCharacterInString, 8),
        (#"{"a":1"#, .unexpectedEndOfInput, 6),
        (#"{"a":"abc"#, .unexpectedEndOfInput, 9),
        (#"{"a""#, .unexpectedEndOfInput, 4),
        (#"{"a":"\"#, .unexpectedEndOfInput, 7),
        (#"{"a":"\u12"#, .unexpectedEndOfInput, 10),
        ("[", .unexpectedEndOfInput, 1),
        (#"{"a":tru}"#, .unexpectedCharacter, 8),
        (#"{"a":tru"#, .unexpectedEndOfInput, 8),
        (#"{"a":nul"#, .unexpectedEndOfInput, 8),
        (#"{"a":True}"#, .unexpectedCharacter, 5),
        ("{'a':1}", .unexpectedCharacter, 1),
        (#"{"a" 1}"#, .unexpectedCharacter, 5),
        (#"{"a":1 "b":2}"#, .unexpectedCharacter, 7),
        (#"{a:1}"#, .unexpectedCharacter, 1),
        ("[1 2]", .unexpectedCharacter, 3),
        ("[1}", .unexpectedCharacter, 2),
        (#"{"a":1]"#, .unexpectedCharacter, 6),
        ("{\"a\":1}\u{0}", .trailingContent, 7),
        ("\u{A0}1", .unexpectedCharacter, 0),
    ]

    @Test(
        "Each malformed document throws its error code at the byte offset of the problem",
        arguments: textCases)
    func malformedText(input: String, code: JSONDecodingError.Code, offset: Int) {
        let error = jsonParseError(input)
        #expect(error?.code == code)
        #expect(error?.offset == offset)
    }

    static let byteCases: [([UInt8], JSONDecodingError.Code, Int)] = [
        (jsonTestBytes(#"{"a":""#, [0xFF], #""}"#), .invalidUTF8, 6),
        (jsonTestBytes(#"{"a":"ok"#, [0x80], #""}"#), .invalidUTF8, 8),
        (jsonTestBytes(#"{"a":""#, [0xC0, 0xAF], #""}"#), .invalidUTF8, 6),  // overlong "/"
        (jsonTestBytes(#"{"a":""#, [0xE0, 0x80, 0xAF], #""}"#), .invalidUTF8, 6),  // overlong
        (jsonTestBytes(#"{"a":""#, [0xED, 0xA0, 0x80], #""}"#), .invalidUTF8, 6),  // encoded surrogate
        (jsonTestBytes(#"{"a":""#, [0xF4, 0x90, 0x80, 0x80], #""}"#), .invalidUTF8, 6),  // above U+10FFFF
        (jsonTestBytes(#"{"a":""#, [0xE2, 0x82], #""}"#), .invalidUTF8, 6),  // truncated
        (jsonTestBytes(#"{"a":""#, [0xC3], ""), .invalidUTF8, 6),  // truncated at the end
        (jsonTestBytes(#"{"a":"\n"#, [0xFE], #""}"#), .invalidUTF8, 8),  // after an escape
        (jsonTestBytes(#"{""#, [0x80], #"":1}"#), .invalidUTF8, 2),  // in a key
        (jsonTestBytes(#"{"a":1}"#, [0xFF], ""), .trailingContent, 7),
        ([0xFF], .invalidUTF8, 0),
        ([0xEF, 0xBB, 0xBF], .emptyInput, 3),
        ([0xEF, 0xBB, 0xBF, 0x20], .emptyInput, 4),
        ([0xEF, 0xBB, 0xBF] + Array("[1,]".utf8), .unexpectedCharacter, 6),
        ([0xEF, 0xBB], .invalidUTF8, 0),
    ]

    @Test(
        "Invalid UTF-8 is rejected, never repaired, and offsets count a byte-order mark", arguments: byteCases
    )
    func malformedBytes(input: [UInt8], code: JSONDecodingError.Code, offset: Int) {
        let error = jsonParseError(input)
        #expect(error?.code == code)
        #expect(error?.offset == offset)
    }

    static let notObjectCases: [(String, Int)] = [
        ("[1]", 0), ("  \"x\"", 2), ("1", 0), ("-1", 0), ("null", 0), ("true", 0), ("\u{FEFF}[]", 3),
    ]

    @Test(
        "An object document whose top level is another JSON value throws notAnObject",
        arguments: notObjectCases)
    func notAnObject(input: String, offset: Int) {
        let error = jsonObjectDocumentError(Array(input.utf8))
        #expect(error == JSONDecodingError(code: .notAnObject, offset: offset))
    }

    @Test("An object document that starts with garbage reports the character, not notAnObject")
    func objectDocumentGarbage() {
        #expect(
            jsonObjectDocumentError(Array("/".utf8))
                == JSONDecodingError(code: .unexpectedCharacter, offset: 0))
        #expect(jsonObjectDocumentError([]) == JSONDecodingError(code: .emptyInput, offset: 0))
        #expect(
            jsonObjectDocumentError(Array(#"{"a":1} x"#.utf8))
                == JSONDecodingError(code: .trailingContent, offset: 8))
    }

    @Test("Input larger than maxSize throws tooLarge before parsing, at the first byte past the limit")
    func tooLarge() {
        let input = #"{"a":"0123"}"#  // 12 bytes
        #expect(
            jsonParseError(input, options: .init(maxSize: 11))
                == JSONDecodingError(code: .tooLarge, offset: 11))
        #expect(jsonParseError(input, options: .init(maxSize: 12)) == nil)
        // Checked before parsing: even a broken document reports tooLarge.
        #expect(jsonParseError("[[[[", options: .init(maxSize: 3))?.code == .tooLarge)
        #expect(jsonObjectDocumentError(Array(input.utf8), options: .init(maxSize: 4))?.code == .tooLarge)
    }

    @Test("The default size limit is 16 MiB")
    func defaultSizeLimit() {
        #expect(JSONParsingOptions().maxSize == 16 * 1024 * 1024)
        let big = [UInt8](repeating: 0x20, count: 16 * 1024 * 1024 + 1)
        #expect(jsonParseError(big)?.code == .tooLarge)
    }

    @Test("Descriptions are one line naming the problem and its byte offset")
    func descriptions() {
        #expect(jsonParseError("{/")?.description == "unexpected character '/' at byte 1")
        #expect(jsonParseError("[\u{1}]")?.description == "unexpected character U+0001 at byte 1")
        #expect(jsonParseError("\u{E9}")?.description == "unexpected character '\u{E9}' at byte 0")
        #expect(jsonParseError("")?.description == "empty input at byte 0")
        #expect(
            JSONDecodingError(code: .tooDeep, offset: nil).description == "nesting exceeds the depth limit")
        for code in JSONDecodingError.Code.allCases {
            let text = JSONDecodingError(code: code, offset: 3).description
            #expect(!text.contains("\n"))
            #expect(text.hasSuffix(" at byte 3"))
        }
    }

    @Test("Errors compare by code and offset only")
    func errorEquality() {
        let thrown = jsonParseError("{/")
        #expect(thrown == JSONDecodingError(code: .unexpectedCharacter, offset: 1))
        #expect(thrown?.hashValue == JSONDecodingError(code: .unexpectedCharacter, offset: 1).hashValue)
        #expect(thrown != JSONDecodingError(code: .unexpectedCharacter, offset: 2))
    }
}
