import Foundation
import TestSupport
import Testing

@testable import ReadingPreferences

@Suite("JSON numbers")
struct JSONNumberTests {
    static let keptTexts = [
        "123456789012345678901234567890", "1e400", "-1e400", "1e-400", "-0", "1.50", "0.0", "1E+2", "1e-7",
        "-0.000", "9007199254740993", "0.30000000000000004", "2.2250738585072014e-308", "4.9e-324",
        "1.7976931348623157e308", "100000000000000000000000", "0e999999999999999999",
    ]

    @Test("A parsed number keeps its text exactly through a round trip", arguments: keptTexts)
    func textKept(text: String) throws {
        let number = try #require(JSONNumber(text: text))
        #expect(number.text == text)
        #expect(number.description == text)
        let document = "{\"n\":\(text),\"a\":[\(text)]}"
        #expect(try JSONValue(json: document).jsonString() == document)
        let parsed = try parseJSONObjectDocument(document)
        #expect(parsed.members[0].value.numberValue?.text == text)
    }

    static let doubles: [(String, Double)] = [
        ("0", 0), ("1", 1), ("-1", -1), ("0.1", 0.1), ("1.5", 1.5), ("1.2", 1.2), ("1184274", 1_184_274),
        ("123456789012345678901234567890", 123_456_789_012_345_678_901_234_567_890.0),
        ("9007199254740993", 9_007_199_254_740_992), ("0.30000000000000004", 0.30000000000000004),
        ("1e22", 1e22), ("1e23", 1e23), ("1e-22", 1e-22), ("123456789e-30", 123_456_789e-30),
        ("2.2250738585072014e-308", 2.2250738585072014e-308), ("4.9e-324", .leastNonzeroMagnitude),
        ("1.7976931348623157e308", .greatestFiniteMagnitude), ("1e400", .infinity), ("-1e400", -.infinity),
        ("1e-400", 0), ("17976931348623159e292", .infinity), ("0.000001", 0.000001),
        ("3.14159265358979323846264338327950288", 3.141592653589793),
    ]

    @Test(
        "doubleValue is correctly rounded, infinite past the binary64 range and zero below it",
        arguments: doubles)
    func doubleValues(text: String, expected: Double) throws {
        let number = try #require(JSONNumber(text: text))
        #expect(number.doubleValue == expected)
        #expect(number.isFinite == expected.isFinite)
    }

    @Test("-0 keeps its text and sign but equals 0")
    func negativeZero() throws {
        let number = try #require(JSONNumber(text: "-0"))
        #expect(number.doubleValue.sign == .minus)
        #expect(number == JSONNumber(0))
        #expect(number.hashValue == JSONNumber(0).hashValue)
        #expect(number.integerValue == 0)
    }

    @Test("Random doubles survive shortest-text round trips exactly")
    func randomRoundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let number = try #require(JSONNumber(text: JSONNumber(value).text))
            #expect(number.doubleValue == value)
        }
    }

    @Test("Random decimal texts round like Double(String)")
    func randomDecimals() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let digits = Int.random(in: 1...25, using: &generator)
            var text = String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &generator)) }
            if Bool.random(using: &generator) {
                let point = Int.random(in: 1...text.count, using: &generator)
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
                if text.hasSuffix(".") { text += "0" }
            }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -330...310, using: &generator))" }
            let number = try #require(JSONNumber(text: text))
            #expect(number.doubleValue == Double(text), "\(text)")
        }
    }

    static let integers: [(String, Int?)] = [
        ("3", 3), ("3.0", 3), ("3e2", 300), ("3E+2", 300), ("16711680.0", 16_711_680), ("-5", -5),
        ("0.5e1", 5),
        ("1500e-2", 15), ("-0", 0), ("0e5", 0), ("0.000", 0), ("9223372036854775807", .max),
        ("-9223372036854775808", .min), ("92233720368547758.07e2", .max),
        ("3.5", nil), ("1e400", nil), ("1e30", nil), ("9223372036854775808", nil),
        ("-9223372036854775809", nil),
        ("0.1", nil), ("1e-1", nil), ("1e-400", nil), ("9007199254740993", 9_007_199_254_740_993),
    ]

    @Test("integerValue is the exact integral value when it fits Int, else nil", arguments: integers)
    func integerValues(text: String, expected: Int?) throws {
        let number = try #require(JSONNumber(text: text))
        #expect(number.integerValue == expected)
    }

    static let plainTexts = [
        "0", "-0", "0.0", "-0.0", "0.05", "1.50", "100", "1184274", "999999999999999", "-999999999999999",
        "99999999999999.9", "0.0000000000000000000001", "-0.0000000000000000000010", "3.000",
        "123456789012345", "0.123456789012345", "1.2", "0.1", "0.30", "7.0000000000000000000000",
        // Past a plain decimal's limits: kept as written.
        "1234567890123456", "0.00000000000000000000001", "123456789012345.5", "1e2", "1E-2",
    ]

    @Test(
        "A number read from a document keeps its exact text, value and integer value", arguments: plainTexts)
    func parsedNumberText(text: String) throws {
        let document = "{\"n\":\(text)}"
        let preferences = try Preferences(json: document)
        let number = try #require(preferences["n"]?.numberValue)
        let reference = try #require(JSONNumber(text: text))
        #expect(number.text == text)
        #expect(number.doubleValue == reference.doubleValue)
        #expect(number.doubleValue.sign == reference.doubleValue.sign)
        #expect(number.integerValue == reference.integerValue)
        #expect(preferences.jsonString() == document)
        #expect(preferences.jsonData() == Data(document.utf8))
    }

    @Test("Random plain decimals read from documents are written back byte for byte")
    func randomPlainDecimals() throws {
        var generator = PropertyRandom(seed: 14)
        for _ in 0..<5000 {
            var text = generator.next() % 4 == 0 ? "-" : ""
            let integerDigits = Int(generator.next() % 16)
            if integerDigits == 0 {
                text += "0"
            } else {
                text += String(1 + generator.next() % 9)
                for _ in 1..<integerDigits { text += String(generator.next() % 10) }
            }
            let fractionDigits = Int(generator.next() % 24)
            if fractionDigits > 0 {
                text += "."
                for _ in 0..<fractionDigits { text += String(generator.next() % 10) }
            }
            let document = "{\"n\":\(text),\"a\":[\(text)]}"
            let value = try JSONValue(json: document)
            #expect(value.jsonString() == document)
            let number = try #require(try Preferences(json: document)["n"]?.numberValue)
            #expect(number.text == text)
            #expect(number.doubleValue == Double(text), "\(text)")
            #expect(number.integerValue == JSONNumber(text: text)?.integerValue, "\(text)")
        }
    }

    static let invalidTexts = [
        "", "01", "+1", ".5", "1.", "-", "1e", "1e+", "NaN", "Infinity", "-Infinity", " 1", "1 ", "0x10",
        "--1",
        "1.0.0", "1e5.0", "١", "1,0", "00",
    ]

    @Test("JSONNumber(text:) accepts only the JSON number grammar", arguments: invalidTexts)
    func rejectsInvalidText(text: String) {
        #expect(JSONNumber(text: text) == nil)
    }

    static let canonical: [(Double, String)] = [
        (2, "2"), (-3, "-3"), (-0.0, "0"), (0, "0"), (1.3, "1.3"), (0.65, "0.65"), (1.35, "1.35"),
        (1e-5, "1e-05"), (1e20, "1e+20"), (9_007_199_254_740_991, "9007199254740991"),
        (9_007_199_254_740_992, "9007199254740992.0"), (1e16, "1e+16"), (-1.5, "-1.5"),
        (0.1 + 0.2, "0.30000000000000004"),
    ]

    @Test(
        "A synthesized Double has canonical text: integers without fraction, else the shortest form",
        arguments: canonical)
    func canonicalText(value: Double, text: String) throws {
        let number = JSONNumber(value)
        #expect(number.text == text)
        // The canonical text is valid JSON and reads back as the same Double.
        #expect(JSONNumber(text: text)?.doubleValue == value)
        #expect(JSONValue.number(number).jsonString() == text)
    }

    @Test("An Int keeps its exact value")
    func intInit() {
        #expect(JSONNumber(42).text == "42")
        #expect(JSONNumber(Int.min).integerValue == .min)
        #expect(JSONNumber(Int.max).integerValue == .max)
        #expect(JSONNumber(-7).doubleValue == -7)
    }

    @Test("Non-finite synthesized numbers are written as null")
    func nonFiniteWritten() {
        #expect(JSONValue.number(JSONNumber(.infinity)).jsonString() == "null")
        #expect(JSONValue.number(JSONNumber(-.infinity)).jsonString() == "null")
        #expect(JSONValue.array([.number(JSONNumber(.nan)), 1]).jsonString() == "[null,1]")
        #expect(JSONNumber(.infinity).isFinite == false)
        #expect(JSONNumber(.infinity).integerValue == nil)
    }

    @Test("Numbers compare and hash by value: 1 == 1.0 == 1e0")
    func numericEquality() throws {
        let one = try #require(JSONNumber(text: "1"))
        let oneFraction = try #require(JSONNumber(text: "1.0"))
        let oneExponent = try #require(JSONNumber(text: "1e0"))
        #expect(one == oneFraction)
        #expect(one == oneExponent)
        #expect(one.hashValue == oneFraction.hashValue)
        #expect(one != JSONNumber(text: "1.0000001"))
        #expect(JSONNumber(text: "1e400") == JSONNumber(text: "2e400"))
        #expect(JSONNumber(.nan) == JSONNumber(.nan))
        #expect(Set([one, oneFraction, oneExponent, JSONNumber(1)]).count == 1)
    }
}
