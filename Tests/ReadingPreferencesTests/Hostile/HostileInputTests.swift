import Foundation
import TestSupport
import Testing

@testable import ReadingPreferences

/// The hostile inputs of Specs/Preferences.md §2, through the public decoding path (`catalogue.decode(json:)`,
/// as the CLI and apps use it). The parser's own cases are in `JSON/`; this suite checks the
/// outcome a caller sees, and that the engine then edits and resolves what it decoded.
@Suite("Hostile input (Specs/Preferences.md §2)")
struct HostileInputTests {
    @Test(
        "each hostile input has the outcome Specs/Preferences.md §2 gives: a typed error, or a decode with the right diagnostics",
        arguments: HostileInput.all)
    func outcome(_ input: HostileInput) throws {
        let bytes = input.bytes()
        switch input.outcome {
        case .error(let code):
            #expect(throws: JSONDecodingError.self) { try EPUB.catalogue.decode(json: bytes) }
            do throws(JSONDecodingError) {
                _ = try EPUB.catalogue.decode(json: bytes)
            } catch {
                #expect(error.code == code)
                #expect(!error.description.contains("\n"))
            }
        case .decodes(let expected):
            let (preferences, diagnostics) = try EPUB.catalogue.decode(json: bytes)
            let found = Dictionary(
                diagnostics.map { ($0.key, $0.code) }, uniquingKeysWith: { first, _ in first })
            #expect(found == expected)
            #expect(diagnostics.count == expected.count)
            // What decodes can be edited, resolved and written without trouble.
            var editor = EPUB.Editor(preferences: preferences, resolver: EPUB.Resolver())
            try editor.increment(.fontSize)
            _ = editor.settings.readiumCSS().inlineStyle
            #expect(try Preferences(json: editor.preferences.jsonData()) == editor.preferences)
        }
    }

    @Test("100,000 levels throw tooDeep whatever maxDepth asks, without overflowing a 512 KiB stack")
    func deepNesting() {
        let bytes = HostileInput.all[0].bytes()
        let result = JSONTestMailbox<[JSONDecodingError.Code]>()
        runOnJSONTestThread(stackSize: 512 * 1024) {
            var codes: [JSONDecodingError.Code] = []
            for options in [
                JSONParsingOptions(), JSONParsingOptions(maxDepth: .max), JSONParsingOptions(maxDepth: -1),
            ] {
                do throws(JSONDecodingError) {
                    _ = try Preferences(json: bytes, options: options)
                } catch {
                    codes.append(error.code)
                }
                do throws(JSONDecodingError) {
                    _ = try JSONValue(json: Array(bytes.dropFirst(5).dropLast()), options: options)
                } catch {
                    codes.append(error.code)
                }
            }
            result.value = codes
        }
        #expect(result.value == Array(repeating: .tooDeep, count: 6))
    }

    @Test("a value nested to the depth ceiling is released on a 512 KiB stack")
    func releaseAtCeiling() {
        let depth = 1_024
        let text = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
        let parsed = JSONTestMailbox<Bool>()
        runOnJSONTestThread(stackSize: 512 * 1024) {
            var preferences = try? Preferences(json: #"{"a":"# + text + "}", options: .init(maxDepth: .max))
            parsed.value = preferences != nil
            preferences = nil  // released here, on the small stack
        }
        #expect(parsed.value == true)
    }

    @Test("the size limit is checked before parsing and is the caller's to raise")
    func sizeLimit() throws {
        let small = Array(#"{"theme":"dark"}"#.utf8)
        #expect(throws: JSONDecodingError(code: .tooLarge, offset: 8)) {
            try Preferences(json: small, options: .init(maxSize: 8))
        }
        #expect(try Preferences(json: small, options: .init(maxSize: small.count))["theme"] == "dark")
    }

    @Test("a 10 MB string value decodes intact and re-encodes byte for byte")
    func longString() throws {
        let bytes = HostileInput.all[2].bytes()
        let preferences = try Preferences(json: bytes)
        #expect(preferences["fontFamily"]?.stringValue?.utf8.count == HostileInput.stringLength)
        #expect(preferences.jsonBytes() == bytes)
    }

    @Test("odd numbers are kept as written through decode, an edit and encode")
    func oddNumbers() throws {
        let text =
            #"{"big":123456789012345678901234567890,"huge":1e400,"tiny":1e-400,"negativeZero":-0,"#
            + #""fontSize":1e400,"pageMargins":-0,"lineHeight":1.50}"#
        var editor = EPUB.Editor(preferences: try Preferences(json: text), resolver: EPUB.Resolver())
        #expect(editor.settings[.fontSize] == 1.0)  // 1e400 reads as unset (Specs/Preferences.md §2)
        #expect(editor.settings[.pageMargins] == 0.0)
        try editor.set(.theme, .dark)
        #expect(editor.preferences.jsonString() == String(text.dropLast()) + #","theme":"dark"}"#)
    }

    @Test("a duplicate key keeps its last value at its first position")
    func duplicates() throws {
        let (preferences, diagnostics) = try EPUB.catalogue.decode(
            json: Array(#"{"theme":"dark","fontSize":1.2,"theme":"sepia","x":1,"x":null}"#.utf8))
        #expect(preferences.keys == ["theme", "fontSize"])
        #expect(preferences["theme"] == "sepia")
        #expect(diagnostics.map(\.code) == [.duplicateKey, .duplicateKey])
    }

    @Test("a byte-order mark is skipped: the same preferences as without it")
    func byteOrderMark() throws {
        let plain = Array(#"{"theme":"dark","fontSize":1.2}"#.utf8)
        let marked = try Preferences(json: [0xEF, 0xBB, 0xBF] + plain)
        #expect(LawCheck.identical(marked, try Preferences(json: plain)))
        #expect(marked.jsonBytes() == plain)
    }
}
