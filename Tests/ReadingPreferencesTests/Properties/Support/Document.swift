import TestSupport

@testable import ReadingPreferences

/// A generated preferences document: its members in written order (duplicates allowed), and
/// how to write it (some keys as `\u` escapes, random whitespace).
struct Document: CustomStringConvertible, Sendable {
    struct Member: Sendable {
        var key: String
        var value: JSONValue
        /// Whether the key is written with `\u` escapes for every scalar.
        var escapedKey = false
    }

    var members: [Member] = []
    /// Whitespace written between tokens.
    var spacing = ""

    /// The document as JSON text; numbers are written as their text.
    var text: String {
        let body = members.map { member in
            Self.quoted(member.key, escaped: member.escapedKey) + spacing + ":" + spacing
                + member.value.jsonString()
        }
        return "{" + spacing + body.joined(separator: "," + spacing) + spacing + "}"
    }

    /// The document decoded.
    var preferences: Preferences {
        get throws { try Preferences(json: text) }
    }

    /// The keys in first-occurrence order, with a duplicate key at its first position and a
    /// key whose last value is `null` absent (Specs/Preferences.md §2).
    var expectedKeys: [String] {
        var keys: [String] = []
        var lastValues: [JSONValue] = []
        for member in members {
            if let index = keys.firstIndex(where: { $0.isScalarEqual(to: member.key) }) {
                lastValues[index] = member.value
            } else {
                keys.append(member.key)
                lastValues.append(member.value)
            }
        }
        return zip(keys, lastValues).filter { !$0.1.isNull }.map(\.0)
    }

    var description: String { text }

    static func quoted(_ key: String, escaped: Bool) -> String {
        guard escaped else { return JSONValue.string(key).jsonString() }
        var text = "\""
        for unit in key.utf16 {
            let hex = String(unit, radix: 16, uppercase: false)
            text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        return text + "\""
    }
}

extension Gen {
    /// A preferences document for a catalogue: its known keys with valid, invalid and
    /// out-of-range values, `renamedFrom` aliases, unknown and `$` keys, awkward unicode keys,
    /// nested values, duplicates and nulls.
    static func document(
        for catalogue: SettingCatalogue, _ random: inout PropertyRandom, maxMembers: Int = 6
    ) -> Document {
        var document = Document()
        document.spacing = random.oneIn(4) ? random.pick([" ", "\n", "\t", " \r\n "]) : ""
        for _ in 0..<random.below(maxMembers + 1) {
            let descriptor = random.pick(catalogue.descriptors)
            let member: Document.Member = random.weighted([
                (8, { Document.Member(key: descriptor.key, value: knownValue(for: descriptor, &$0)) }),
                (
                    1,
                    {
                        Document.Member(
                            key: "$" + $0.pick(["version", "", "fontSize", "meta"]), value: value(&$0))
                    }
                ),
                (2, { Document.Member(key: string(&$0), value: value(&$0)) }),
                (
                    1,
                    {
                        Document.Member(
                            key: descriptor.renamedFrom.isEmpty
                                ? descriptor.key : $0.pick(descriptor.renamedFrom),
                            value: knownValue(for: descriptor, &$0))
                    }
                ),
                (1, { _ in Document.Member(key: descriptor.key, value: .null) }),
            ])
            var written = member
            written.escapedKey = random.oneIn(8)
            document.members.append(written)
            if random.oneIn(12), let first = document.members.first {
                // A duplicate of an earlier key.
                document.members.append(
                    Document.Member(key: first.key, value: knownValue(for: descriptor, &random)))
            }
        }
        return document
    }

    /// A value for a known key: usually valid, sometimes out of range, of the wrong type, or an
    /// unsupported value of the right type.
    static func knownValue(for descriptor: SettingDescriptor, _ random: inout PropertyRandom) -> JSONValue {
        if random.oneIn(5) { return value(&random) }
        switch descriptor.kind {
        case .toggle:
            return random.oneIn(6) ? random.pick(["true", 1, []]) : .bool(random.oneIn(2))
        case .range, .percent:
            let range = descriptor.range ?? 0...1
            return random.weighted([
                (6, { number(in: range, &$0) }),
                (2, { .number(number(&$0)) }),
                (1, { _ in .number(JSONNumber(range.upperBound + 1)) }),
                (1, { _ in .number(JSONNumber(range.lowerBound - 1)) }),
                (1, { _ in "1.2" }),
            ])
        case .enumeration:
            let supported = descriptor.supportedValues ?? []
            if !supported.isEmpty && !random.oneIn(4) {
                return descriptor.coder.encode(random.pick(supported))
            }
            if case .enumeration(let cases) = descriptor.coder, !cases.isEmpty, random.oneIn(2) {
                return .string(random.pick(cases))
            }
            return random.oneIn(2) ? .string(string(&random)) : .number(number(&random))
        case .color:
            return random.pick([
                "#FF0000", "#fff", "#12345678", "#abcdefFF", "rebeccapurple", "RED", "transparent", "#GGG",
                16_711_680, -16_777_216, -1, 0x1000000, 1.5, true,
            ])
        case .value:
            switch descriptor.coder {
            case .language:
                return .string(random.pick(languageTags + ["", "zh_Hant", "x-private"]))
            case .stringMap:
                return random.oneIn(4) ? ["en": 1] : ["en": "v1", "caf\u{E9}": "v2", "": ""]
            default:
                return .string(
                    random.oneIn(5) ? "" : random.pick(["Literata", "serif", "Times \"New\" Roman", "a\\b"]))
            }
        }
    }
}
