import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Number formatting and stepping (Specs/Settings.md §6, §7)")
struct NumberFormattingTests {
    @Test(
        "A decimal is rounded half away from zero to 5 digits and written in its shortest plain form",
        arguments: [
            (1.2, "1.2"),
            (1.0, "1"),
            (16.0 / 15, "1.06667"),
            (2.0 / 3, "0.66667"),
            (-2.0 / 3, "-0.66667"),
            (0.125, "0.125"),
            (-2.5, "-2.5"),
            (0, "0"),
            (-0.0, "0"),
            (-0.000001, "0"),
            (1e-7, "0"),
            (-1e-7, "0"),
            (0.000005, "0.00001"),
            (-0.000005, "-0.00001"),
            (0.123455, "0.12346"),
            (1.234565, "1.23456"),  // 123456.49999999999 in binary64: rounds down
            (1.000015, "1.00002"),
            (2.675, "2.675"),
            (99999.999995, "100000"),
            (123.4, "123.4"),
            (1234567, "1234567"),
            (-1234567.5, "-1234567.5"),
            (10_000_000_000.5, "10000000000.5"),
            (12_345_678_901.234567, "12345678901.23457"),
            (99_999_999_999.999995, "100000000000"),
            (-12_345_678_901.5, "-12345678901.5"),
            (4_503_599_627_370_495.5, "4503599627370495.5"),
            (1e15, "1000000000000000"),
            (1e20, "100000000000000000000"),
            (-1e20, "-100000000000000000000"),
            (1.5e25, "15000000000000000000000000"),
            (1e300, "1" + String(repeating: "0", count: 300)),
            (Double.greatestFiniteMagnitude, "17976931348623157" + String(repeating: "0", count: 292)),
        ] as [(Double, String)])
    func decimal(value: Double, expected: String) {
        #expect(NumberFormatting.decimal(value) == expected)
    }

    @Test(
        "A percentage is the value times 100 rounded half away from zero, never truncated",
        arguments: [
            (1.0, "100%"),
            (1.25, "125%"),
            (0.125, "13%"),
            (-0.125, "-13%"),
            (0.015, "2%"),
            (0.005, "1%"),
            (1.005, "100%"),  // 100.49999999999999 in binary64
            (0.285, "28%"),  // 28.499999999999996 in binary64
            (10, "1000%"),
            (0, "0%"),
            (-0.0, "0%"),
            (-0.004, "0%"),
            (1e17, "10000000000000000000%"),
            (1e20, "10000000000000000000000%"),
            (-1e20, "-10000000000000000000000%"),
            (4_503_599_627_370_496, "450359962737049600%"),
            (4_503_599_627_370_495.5, "450359962737049550%"),
            (1e307, "1" + String(repeating: "0", count: 309) + "%"),
        ] as [(Double, String)])
    func percent(value: Double, expected: String) {
        #expect(NumberFormatting.percent(value) == expected)
    }

    @Test(
        "Non-finite values are written as NaN, Infinity and -Infinity instead of trapping",
        arguments: [(Double.nan, "NaN"), (Double.infinity, "Infinity"), (-Double.infinity, "-Infinity")]
            as [(Double, String)])
    func nonFinite(value: Double, expected: String) {
        #expect(NumberFormatting.decimal(value) == expected)
        #expect(NumberFormatting.percent(value) == expected)
        #expect(NumberFormatting.decimal(value, locale: Locale(identifier: "fr_FR")) == expected)
        #expect(NumberFormatting.percent(value, locale: Locale(identifier: "fr_FR")) == expected)
        #expect(NumberFormatting.fractionDigits(of: value) == 0)
    }

    @Test("The POSIX locale formats exactly like the locale-free formatter")
    func posixLocaleMatches() {
        let posix = Locale(identifier: "en_US_POSIX")
        for value in [1.2, 1.0, 16.0 / 15, 0.125, -2.5, -0.0, 123.4, 0.000005, 1e-7] {
            #expect(NumberFormatting.decimal(value, locale: posix) == NumberFormatting.decimal(value))
        }
        for value in [1.0, 1.25, 0.125, 10, -0.125] {
            #expect(NumberFormatting.percent(value, locale: posix) == NumberFormatting.percent(value))
        }
    }

    @Test("A localized decimal uses the locale's separator, the same rounding and no grouping")
    func localizedDecimal() {
        let french = Locale(identifier: "fr_FR")
        #expect(NumberFormatting.decimal(1.5, locale: french) == "1,5")
        #expect(NumberFormatting.decimal(16.0 / 15, locale: french) == "1,06667")
        #expect(NumberFormatting.decimal(0.123455, locale: french) == "0,12346")
        #expect(NumberFormatting.decimal(1234567.25, locale: french) == "1234567,25")
        #expect(NumberFormatting.decimal(-0.0, locale: french) == "0")
    }

    @Test("A localized percentage rounds half away from zero and never groups digits")
    func localizedPercent() {
        let english = Locale(identifier: "en_US")
        #expect(NumberFormatting.percent(0.125, locale: english) == "13%")
        #expect(NumberFormatting.percent(1.005, locale: english) == "100%")
        #expect(NumberFormatting.percent(100, locale: english) == "10000%")
        let french = NumberFormatting.percent(1.25, locale: Locale(identifier: "fr_FR"))
        #expect(french.hasPrefix("125"))
        #expect(french.hasSuffix("%"))
    }

    @Test(
        "Fraction digits count the shortest round-trip decimal form, exponent expanded",
        arguments: [
            (1.25, 2), (0.1, 1), (3.0, 0), (1e-7, 7), (1.5e-7, 8), (1.3, 1),
            (0.30000000000000004, 17), (100, 0), (1e20, 0), (-0.125, 3), (0, 0), (-0.0, 0),
        ] as [(Double, Int)])
    func fractionDigits(value: Double, expected: Int) {
        #expect(NumberFormatting.fractionDigits(of: value) == expected)
    }

    @Test("Three increments of 0.1 from 1.0 store exactly the double 1.3")
    func threeIncrements() {
        var value = 1.0
        for _ in 0..<3 { value = NumberFormatting.stepped(value, by: 0.1) }
        #expect(value == 1.3)
        // The unrounded sum is what the rounding exists to avoid.
        #expect(1.0 + 0.1 + 0.1 + 0.1 != 1.3)
    }

    @Test(
        "A step is rounded to the larger fraction digit count of its operands",
        arguments: [
            (1.25, 0.1, 1.35),
            (0.35, 0.3, 0.65),
            (1.2, -0.1, 1.1),
            (1.2, 0.1, 1.3),
            (0.7, 0.1, 0.8),
            (0.1, 0.2, 0.3),
            (16, 1, 17),
            (2, -0.25, 1.75),
            (0.1, -0.1, 0),
        ] as [(Double, Double, Double)])
    func stepped(start: Double, amount: Double, expected: Double) {
        #expect(NumberFormatting.stepped(start, by: amount) == expected)
    }

    @Test("Stepping never produces -0 and passes non-finite sums through")
    func steppedEdges() {
        let zero = NumberFormatting.stepped(-0.1, by: 0.1)
        #expect(zero == 0 && zero.sign == .plus)
        let nearZero = NumberFormatting.stepped(-0.04, by: 0.0)
        #expect(nearZero == -0.04)
        #expect(NumberFormatting.stepped(.infinity, by: 0.1) == .infinity)
        #expect(NumberFormatting.stepped(.nan, by: 0.1).isNaN)
        #expect(NumberFormatting.stepped(1e300, by: 0.1) == 1e300)
        // d is capped at 10 digits, so a sum below 0.5e-10 rounds to zero.
        #expect(NumberFormatting.stepped(1e-12, by: 1e-12) == 0)
        #expect(NumberFormatting.stepped(1e-11, by: 1e-11) == 0)
        #expect(NumberFormatting.stepped(1e-10, by: 1e-10) == 2e-10)
    }
}

@Suite("Rounding half away from zero without the C library")
struct RoundingTests {
    @Test("roundedHalfAwayFromZero is rounded(.toNearestOrAwayFromZero), bit for bit")
    func sameAsStandardLibrary() {
        var random = SystemRandomNumberGenerator()
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.49999999999999994, -0.49999999999999994,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496, 9_007_199_254_740_994, .infinity, -.infinity, .nan, .leastNonzeroMagnitude,
            .greatestFiniteMagnitude, 1e-300, 12_345.678_9,
        ]
        for _ in 0..<20_000 {
            values.append(Double(bitPattern: random.next()))
            values.append(Double(Int64.random(in: -1_000_000...1_000_000, using: &random)) / 8)
        }
        for value in values {
            let expected = value.rounded(.toNearestOrAwayFromZero)
            let rounded = NumberFormatting.roundedHalfAwayFromZero(value)
            #expect(
                rounded.bitPattern == expected.bitPattern || (rounded.isNaN && expected.isNaN), "\(value)")
        }
    }
}
