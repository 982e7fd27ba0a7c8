import TestSupport

@testable import ReadingPreferences

/// Seeded generators of inputs for the laws. Documents stay small (a handful of members, values
/// at most three levels deep) so that a thousand cases per law run in well under a second.
enum Gen {
    // MARK: Numbers

    /// Number texts that stress the number model: kept as written, compared by value.
    static let oddNumberTexts = [
        "0", "-0", "0.0", "1.50", "15e-1", "1E+2", "1e400", "-1e400", "1e-400", "4.9e-324",
        "123456789012345678901234567890", "9007199254740993", "-9223372036854775809", "0.1", "2.5e0",
        "1.7976931348623157e308",
    ]

    /// A JSON number: usually an ordinary one, sometimes an odd text.
    static func number(_ random: inout PropertyRandom) -> JSONNumber {
        switch random.below(9) {
        case 0..<3: return JSONNumber(random.int(in: -20...400))
        case 3..<6: return JSONNumber((random.double(in: -3...6) * 1000).rounded() / 1000)
        case 6..<8: return JSONNumber(text: random.pick(oddNumberTexts)) ?? JSONNumber(0)
        default: return JSONNumber(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
        }
    }

    /// A JSON number in text form within `range` (a range setting's valid values).
    static func number(in range: ClosedRange<Double>, _ random: inout PropertyRandom) -> JSONValue {
        let value = random.double(in: range)
        let rounded = random.oneIn(2) ? (value * 100).rounded() / 100 : value
        return .number(JSONNumber(min(max(rounded, range.lowerBound), range.upperBound)))
    }

    // MARK: Strings and keys

    /// Strings that are awkward as keys or values: combining marks and their precomposed twins
    /// (distinct by scalars), invisible characters, escapes, non-BMP scalars, the empty string.
    static let awkwardStrings = [
        "", " ", "caf\u{E9}", "cafe\u{301}", "\u{212B}", "\u{C5}", "A\u{30A}", "e\u{301}\u{301}", "\u{301}",
        "font\u{200B}Size", "fontSize ", "FontSize", "\u{0}", "\u{1F}", "\"", "\\", "\u{7F}", "line\nbreak",
        "\u{1F600}", "\u{FEFF}", "\u{2028}", "a.b", "a\\.b", "\u{10FFFF}", "\u{D7FF}\u{E000}", "ü",
        "u\u{308}",
    ]

    static func string(_ random: inout PropertyRandom) -> String {
        random.weighted([
            (3, { $0.pick(awkwardStrings) }),
            (
                2,
                {
                    $0.pick([
                        "dark", "auto", "1", "2", "left", "justify", "rtl", "en", "ar-EG", "#FFF", "red",
                    ])
                }
            ),
            (
                2,
                { random in
                    String(
                        String.UnicodeScalarView(
                            (0..<random.below(6)).compactMap { _ in
                                Unicode.Scalar(
                                    UInt32(random.pick([0x61, 0x7A, 0xE9, 0x301, 0x4E2D, 0x1F600, 0x20])))
                            }))
                }
            ),
        ])
    }

    // MARK: Values

    /// Any JSON value, nested at most `depth` levels.
    static func value(_ random: inout PropertyRandom, depth: Int = 2) -> JSONValue {
        let scalar: [(Int, (inout PropertyRandom) -> JSONValue)] = [
            (1, { _ in .null }),
            (2, { .bool($0.oneIn(2)) }),
            (4, { .number(number(&$0)) }),
            (4, { .string(string(&$0)) }),
        ]
        guard depth > 0 else { return random.weighted(scalar) }
        return random.weighted(
            scalar + [
                (
                    1,
                    { random in .array((0..<random.below(3)).map { _ in value(&random, depth: depth - 1) }) }
                ),
                (
                    1,
                    { random in
                        .object(
                            JSONObject(
                                members: (0..<random.below(3)).map { _ in
                                    JSONObject.Member(
                                        key: string(&random), value: value(&random, depth: depth - 1))
                                }))
                    }
                ),
            ])
    }
}
