import Foundation
import ReadingPreferences
import Testing

/// One hostile input and the outcome Specs/Preferences.md §2 gives it: a typed error, or a decode with the
/// right diagnostics. Large inputs are generated in memory when a test asks for them.
package struct HostileInput: Sendable, CustomTestStringConvertible {
    package enum Outcome: Sendable {
        /// Decoding throws this error.
        case error(JSONDecodingError.Code)
        /// Decoding succeeds with these diagnostics, as `(key, code)`.
        case decodes([String: PreferenceDiagnostic.Code])
    }

    package var name: String
    package var outcome: Outcome
    package var bytes: @Sendable () -> [UInt8]

    package var testDescription: String { name }

    /// The exit status of `readingprefs validate`: 1 for errors and for diagnostics other than
    /// `unknownKey`.
    package var validateExitStatus: Int32 {
        switch outcome {
        case .error: return 1
        case .decodes(let diagnostics): return diagnostics.values.allSatisfy { $0 == .unknownKey } ? 0 : 1
        }
    }

    package init(_ name: String, _ outcome: Outcome, _ bytes: @escaping @Sendable () -> [UInt8]) {
        self.name = name
        self.outcome = outcome
        self.bytes = bytes
    }

    package init(_ name: String, _ outcome: Outcome, text: String) {
        self.init(name, outcome) { Array(text.utf8) }
    }

    package static let depth = 100_000
    package static let stringLength = 10 * 1024 * 1024
    package static let documentSize = 50 * 1024 * 1024

    /// The list of the issue, in its order.
    package static let all: [HostileInput] = [
        HostileInput("100,000 levels of nesting", .error(.tooDeep)) {
            Array(#"{"a":"#.utf8) + Array(repeating: UInt8(ascii: "["), count: depth)
                + Array(repeating: UInt8(ascii: "]"), count: depth) + [UInt8(ascii: "}")]
        },
        HostileInput("a 50 MB document", .error(.tooLarge)) {
            var bytes = Array(#"{"padding":""#.utf8)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "x"), count: documentSize))
            bytes.append(contentsOf: Array(#""}"#.utf8))
            return bytes
        },
        HostileInput("a 10 MB string value", .decodes([:])) {
            var bytes = Array(#"{"fontFamily":""#.utf8)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "a"), count: stringLength))
            bytes.append(contentsOf: Array(#""}"#.utf8))
            return bytes
        },
        HostileInput("invalid UTF-8", .error(.invalidUTF8)) {
            Array(#"{"theme":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        },
        HostileInput("an overlong UTF-8 encoding", .error(.invalidUTF8)) {
            Array(#"{"theme":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
        },
        HostileInput("a UTF-8 byte-order mark", .decodes([:])) {
            [0xEF, 0xBB, 0xBF] + Array(#"{"theme":"dark"}"#.utf8)
        },
        HostileInput("a lone high surrogate escape", .error(.loneSurrogate), text: #"{"theme":"\ud800"}"#),
        HostileInput("a lone low surrogate escape", .error(.loneSurrogate), text: #"{"theme":"\udc00x"}"#),
        HostileInput(
            "duplicate keys", .decodes(["theme": .duplicateKey]), text: #"{"theme":"dark","theme":"sepia"}"#),
        HostileInput("1e400", .decodes(["fontSize": .unsupportedValue]), text: #"{"fontSize":1e400}"#),
        HostileInput("-0", .decodes(["fontSize": .outOfRange]), text: #"{"fontSize":-0}"#),
        HostileInput("1e-400", .decodes(["fontSize": .outOfRange]), text: #"{"fontSize":1e-400}"#),
        HostileInput(
            "123456789012345678901234567890", .decodes(["fontSize": .outOfRange]),
            text: #"{"fontSize":123456789012345678901234567890}"#),
        HostileInput("a NaN token", .error(.unexpectedCharacter), text: #"{"fontSize":NaN}"#),
        HostileInput("an Infinity token", .error(.unexpectedCharacter), text: #"{"fontSize":Infinity}"#),
        HostileInput("a -Infinity token", .error(.invalidNumber), text: #"{"fontSize":-Infinity}"#),
        HostileInput(
            "a trailing comma in an object", .error(.unexpectedCharacter), text: #"{"theme":"dark",}"#),
        HostileInput(
            "a trailing comma in an array", .error(.unexpectedCharacter), text: #"{"voices":["a",]}"#),
        HostileInput(
            "a line comment", .error(.unexpectedCharacter), text: "// settings\n{\"theme\":\"dark\"}"),
        HostileInput("a block comment", .error(.unexpectedCharacter), text: #"{"theme":"dark" /* night */}"#),
        HostileInput("a raw control character in a string", .error(.controlCharacterInString)) {
            Array(#"{"theme":"da"#.utf8) + [0x01] + Array(#"rk"}"#.utf8)
        },
        HostileInput(
            "a raw newline in a key", .error(.controlCharacterInString), text: "{\"the\nme\":\"dark\"}"),
        HostileInput("an empty file", .error(.emptyInput), text: ""),
        HostileInput("a file of whitespace only", .error(.emptyInput), text: " \n\t\r\n  "),
        HostileInput("a byte-order mark alone", .error(.emptyInput)) { [0xEF, 0xBB, 0xBF] },
        HostileInput("a top-level array", .error(.notAnObject), text: #"[{"theme":"dark"}]"#),
        HostileInput("a top-level string", .error(.notAnObject), text: #""{\"theme\":\"dark\"}""#),
        HostileInput("a top-level number", .error(.notAnObject), text: "42"),
    ]
}
