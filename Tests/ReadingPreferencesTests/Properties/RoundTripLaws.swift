import TestSupport
import Testing

@testable import ReadingPreferences

@Suite("Laws: lossless preferences (Specs/Preferences.md §2)")
struct RoundTripLaws {
    @Test(
        "decode(encode(p)) == p, in the same order, for any preferences", arguments: LawConfigurable.allCases)
    func decodeOfEncode(_ configurable: LawConfigurable) {
        Self.decodeOfEncode(configurable.subject)
    }

    static func decodeOfEncode(_ subject: some LawSubject) {
        forAll("decode(encode(p)) == p", subject) { input in
            var editor = subject.editor(try input.document.preferences, input.context)
            let decoded = editor.preferences
            editor.applyIgnoringErrors(input.edits)
            let built = Preferences(members: input.other.members.map { .init(key: $0.key, value: $0.value) })
            for preferences in [decoded, editor.preferences, built] {
                let again = try Preferences(json: preferences.jsonBytes())
                try ensure(
                    LawCheck.identical(again, preferences), "decoded \(again), expected \(preferences)")
                let sorted = try Preferences(json: preferences.jsonData(options: .init(sortedKeys: true)))
                try ensure(sorted == preferences, "sorted encoding decoded to \(sorted)")
                let pretty = try Preferences(
                    json: preferences.jsonString(options: .init(prettyPrinted: true)))
                try ensure(LawCheck.identical(pretty, preferences), "pretty encoding decoded to \(pretty)")
            }
        }
    }

    @Test(
        "encode(decode(bytes)) keeps key order and every number's text", arguments: LawConfigurable.allCases)
    func encodeOfDecode(_ configurable: LawConfigurable) {
        Self.encodeOfDecode(configurable.subject)
    }

    static func encodeOfDecode(_ subject: some LawSubject) {
        forAll("encode(decode(bytes)) keeps key order", subject) { input in
            let decoded = try input.document.preferences
            let expected = input.document.expectedKeys
            try ensure(
                LawCheck.sameKeys(decoded.keys, expected),
                "decoded keys \(decoded.keys), expected \(expected)")
            let encoded = try JSONValue(json: decoded.jsonBytes())
            let keys = encoded.objectValue?.members.map(\.key) ?? []
            try ensure(LawCheck.sameKeys(keys, expected), "encoded keys \(keys), expected \(expected)")
            // The last written value of each key, number text included.
            let members = input.document.members
            for (index, member) in members.enumerated() {
                guard case .number(let written) = member.value,
                    !members[(index + 1)...].contains(where: { $0.key.isScalarEqual(to: member.key) })
                else { continue }
                let stored = decoded[member.key]?.numberValue?.text
                try ensure(
                    stored == written.text,
                    "\(member.key): number \(written.text) stored as \(stored ?? "nil")")
            }
        }
    }

    @Test(
        "decoding reports at most one diagnostic per key, none for $ keys, and duplicateKey for repeats",
        arguments: LawConfigurable.allCases)
    func diagnostics(_ configurable: LawConfigurable) {
        Self.diagnostics(configurable.subject)
    }

    static func diagnostics(_ subject: some LawSubject) {
        forAll("diagnostics: one per key, none for $ keys", subject) { input in
            let decoded = try subject.catalogue.decode(json: Array(input.document.text.utf8))
            let keys = decoded.diagnostics.map(\.key)
            for (index, key) in keys.enumerated() {
                try ensure(!Preferences.isReserved(key), "a diagnostic for the reserved key \(key)")
                try ensure(!LawCheck.contains(Array(keys[..<index]), key), "two diagnostics for \(key)")
            }
            let written = input.document.members.map(\.key)
            for (index, key) in written.enumerated()
            where !Preferences.isReserved(key) && LawCheck.contains(Array(written[..<index]), key) {
                try ensure(
                    decoded.diagnostics.contains {
                        $0.code == .duplicateKey && $0.key.isScalarEqual(to: key)
                    },
                    "no duplicateKey for \(key)")
            }
        }
    }
}
