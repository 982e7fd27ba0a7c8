import Foundation

/// Locale-independent number formatting and decimal stepping (Specs/Settings.md §6, §7).
///
/// `decimal(_:)` and `percent(_:)` run for every value written to the CSS output, so they build
/// their digits with integer arithmetic instead of `String(format:)` or a `NumberFormatter`.
///
/// Non-finite values never trap: every formatter writes them as `"NaN"`, `"Infinity"` and
/// `"-Infinity"` (without a `%` sign for percentages), which makes a bad value visible instead of
/// crashing a reader.
enum NumberFormatting {
    /// Formats a value for display and CSS (Specs/Settings.md §7): rounded half away from zero to 5 fraction
    /// digits, shortest form, trailing zeros and point removed, `-0` as `0`, no grouping, no
    /// exponent.
    ///
    /// ```swift
    /// NumberFormatting.decimal(1.2)        // "1.2"
    /// NumberFormatting.decimal(16.0 / 15)  // "1.06667"
    /// NumberFormatting.decimal(1e20)       // "100000000000000000000"
    /// NumberFormatting.decimal(1e-7)       // "0"
    /// ```
    static func decimal(_ value: Double) -> String {
        if let text = decimalText(value) { return text.string }
        guard value.isFinite else { return nonFinite(value) }
        return plainDecimal(value)
    }

    /// ``decimal(_:)`` followed by `suffix`, formatted inline (no allocation): the form CSS and
    /// JSON output copy from. `nil` for a non-finite value or one of 2^52 or more, whose digits
    /// ``decimal(_:)`` writes in full.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - suffix: ASCII written after the number (`rem`).
    /// - Returns: The text, or `nil` when ``decimal(_:)`` must write it.
    static func decimalText(_ value: Double, suffix: StaticString = "") -> InlineText? {
        guard value.isFinite else { return nil }
        let scaled = roundedHalfAwayFromZero(value * 100_000)
        // Below 10^15 the rounded integer n has at most 15 significant digits, so the decimal
        // n / 10^5 is exactly the shortest form of the binary64 quotient (DBL_DIG is 15): writing
        // n's digits is the specified result, without dividing or printing a Double. A negative n is
        // at most -1, so "-0" never comes out.
        if scaled.magnitude < 1e15 {
            let magnitude = UInt64(scaled.magnitude)
            return .fixedPoint(
                integerPart: magnitude / 100_000, fraction: magnitude % 100_000, fractionDigits: 5,
                isNegative: scaled < 0, trimsZeros: true, suffix: suffix)
        }
        // From 2^52 on every Double is an integer, so rounding to 5 fraction digits changes
        // nothing; the literal `* 10^5 / 10^5` would only add binary noise (1e20 would print as
        // 100000000000000020000). Those digits can be many: ``decimal(_:)`` writes them.
        if value.magnitude >= 4_503_599_627_370_496 { return nil }
        // 10^10 <= |value| < 2^52: split off the integer part (exact), then round the fraction
        // half away from zero. Same rounding rule, without the product's rounding error.
        let integerPart = value.magnitude.rounded(.towardZero)
        var fraction = roundedHalfAwayFromZero((value.magnitude - integerPart) * 100_000)
        var wholePart = UInt64(integerPart)
        if fraction >= 100_000 {
            fraction = 0
            wholePart += 1
        }
        return .fixedPoint(
            integerPart: wholePart, fraction: UInt64(fraction), fractionDigits: 5, isNegative: value < 0,
            trimsZeros: true, suffix: suffix)
    }

    /// Formats a ratio as a percentage (Specs/Settings.md §7): `(value * 100)` rounded half away from zero,
    /// then `%`; no truncation of large values, no grouping, no exponent.
    ///
    /// ```swift
    /// NumberFormatting.percent(1.25)   // "125%"
    /// NumberFormatting.percent(0.125)  // "13%"
    /// NumberFormatting.percent(10)     // "1000%"
    /// ```
    static func percent(_ value: Double) -> String {
        if let text = percentText(value) { return text.string }
        guard value.isFinite else { return nonFinite(value) }
        // From 2^52 on the value is an integer: append "00" to its digits in decimal, which is
        // exact and cannot overflow, unlike the binary64 product.
        return plainDecimal(value) + "00%"
    }

    /// ``percent(_:)``, formatted inline (no allocation); `nil` for a non-finite value or one of
    /// 2^52 or more.
    static func percentText(_ value: Double) -> InlineText? {
        guard value.isFinite, value.magnitude < 4_503_599_627_370_496 else { return nil }
        let scaled = roundedHalfAwayFromZero(value * 100)
        if scaled.magnitude < 9_007_199_254_740_992 {
            // Specs/Settings.md §7 literally: the binary64 product, rounded.
            return .fixedPoint(
                integerPart: UInt64(scaled.magnitude), fraction: 0, fractionDigits: 0, isNegative: scaled < 0,
                trimsZeros: false, suffix: "%")
        }
        // 2^53 / 100 <= |value| < 2^52: the product is no longer exact, so scale the integer part
        // exactly and round only the fraction (same rule, no binary noise). Fits in UInt64.
        let integerPart = value.magnitude.rounded(.towardZero)
        let fraction = roundedHalfAwayFromZero((value.magnitude - integerPart) * 100)
        return .fixedPoint(
            integerPart: UInt64(integerPart) * 100 + UInt64(fraction), fraction: 0, fractionDigits: 0,
            isNegative: value < 0, trimsZeros: false, suffix: "%")
    }

    /// Formats a value as ``decimal(_:)`` does (same rounding, at most 5 fraction digits, no
    /// grouping), with the decimal separator, digits and signs of `locale`.
    ///
    /// ```swift
    /// NumberFormatting.decimal(1.5, locale: Locale(identifier: "fr_FR"))  // "1,5"
    /// ```
    static func decimal(_ value: Double, locale: Locale) -> String {
        guard value.isFinite else { return nonFinite(value) }
        // Round first with the rule of Specs/Settings.md §7 so the formatter's own (half-even) rounding never decides.
        var rounded = (value * 100_000).rounded(.toNearestOrAwayFromZero) / 100_000
        if rounded == 0 { rounded = 0 }  // Specs/Settings.md §7: "-0" is written "0".
        let formatter = localeFormatter(locale, style: .decimal, maximumFractionDigits: 5)
        return formatter.string(from: NSNumber(value: rounded)) ?? decimal(value)
    }

    /// Formats a ratio as ``percent(_:)`` does (same rounding, no grouping), with the percent
    /// pattern, digits and signs of `locale` (for example `"125 %"` in French).
    static func percent(_ value: Double, locale: Locale) -> String {
        guard value.isFinite else { return nonFinite(value) }
        var rounded = (value * 100).rounded(.toNearestOrAwayFromZero)
        if rounded == 0 { rounded = 0 }  // No "-0 %".
        let formatter = localeFormatter(locale, style: .percent, maximumFractionDigits: 0)
        // The formatter multiplies by 100 itself; `rounded / 100 * 100` is within an ulp of the
        // integer `rounded`, so formatting it with no fraction digits gives back `rounded`.
        return formatter.string(from: NSNumber(value: rounded / 100)) ?? percent(value)
    }

    /// A formatter for `locale` with the choices of Specs/Settings.md §7: no grouping, half-up rounding, up to
    /// `maximumFractionDigits` digits (the value is already rounded to them).
    private static func localeFormatter(
        _ locale: Locale, style: NumberFormatter.Style, maximumFractionDigits: Int
    ) -> NumberFormatter {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = style
        formatter.usesGroupingSeparator = false
        formatter.minimumFractionDigits = 0
        formatter.maximumFractionDigits = maximumFractionDigits
        formatter.roundingMode = .halfUp
        return formatter
    }

    /// The number of fraction digits in the shortest round-trip decimal form of `value` (Swift's
    /// `description`, with its exponent form expanded); 0 for non-finite values.
    ///
    /// ```swift
    /// NumberFormatting.fractionDigits(of: 1.25)  // 2
    /// NumberFormatting.fractionDigits(of: 3.0)   // 0
    /// NumberFormatting.fractionDigits(of: 1e-7)  // 7
    /// ```
    static func fractionDigits(of value: Double) -> Int {
        guard value.isFinite else { return 0 }
        let parts = ShortestDecimal(value)
        return max(0, parts.digits.count - parts.pointPosition)
    }

    /// `start + amount`, rounded to the fraction digits of its operands (Specs/Settings.md §6), so repeated
    /// steps of 0.1 land on the doubles a person would type.
    ///
    /// `d` is the larger of the fraction digits of `start` and `amount`, capped at 10, and the sum
    /// is rounded as `(x * 10^d).rounded(.toNearestOrAwayFromZero) / 10^d` in binary64.
    ///
    /// ```swift
    /// NumberFormatting.stepped(1.2, by: 0.1)   // 1.3, not 1.3000000000000003
    /// NumberFormatting.stepped(0.35, by: 0.3)  // 0.65
    /// ```
    /// `min(10, fractionDigits(of: value))` without formatting the number: the first `k` for
    /// which the nearest `k`-digit decimal converts back to `value`. A `k`-digit decimal that
    /// round-trips is by definition no longer than the shortest form, so the two agree.
    static func cappedFractionDigits(of value: Double) -> Int {
        guard value.isFinite else { return 0 }
        for digits in 0..<10 {
            let scale = powersOfTen[digits]
            let scaled = value * scale
            guard scaled.magnitude < 9_007_199_254_740_992 else { return digits }
            if roundedHalfAwayFromZero(scaled) / scale == value { return digits }
        }
        return 10
    }

    static func stepped(_ start: Double, by amount: Double) -> Double {
        let sum = start + amount
        guard sum.isFinite else { return sum }
        let digits = max(cappedFractionDigits(of: start), cappedFractionDigits(of: amount))
        let scale = powersOfTen[digits]
        let scaled = sum * scale
        // Rounding cannot help once the scaled sum is beyond the exact-integer range of binary64.
        guard scaled.magnitude < 9_007_199_254_740_992 else { return sum }
        let result = roundedHalfAwayFromZero(scaled) / scale
        return result == 0 ? 0 : result  // Never store -0.
    }

    /// `value.rounded(.toNearestOrAwayFromZero)`, bit for bit (the sign of zero included),
    /// without a call into the C library: below 2^52 the integer part fits an `Int64` and the
    /// fraction `value - integer part` is exact; from 2^52 on every `Double` is an integer.
    @inline(__always)
    static func roundedHalfAwayFromZero(_ value: Double) -> Double {
        let magnitude = value.magnitude
        guard magnitude < 4_503_599_627_370_496 else { return value }  // also NaN and infinities
        let whole = Double(Int64(magnitude))
        let rounded = magnitude - whole >= 0.5 ? whole + 1 : whole
        return value.sign == .minus ? -rounded : rounded
    }

    // MARK: - Private

    /// 10^0 ... 10^10, all exact in binary64.
    private static let powersOfTen: [Double] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000,
    ]

    private static func nonFinite(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        return value < 0 ? "-Infinity" : "Infinity"
    }

    /// The shortest round-trip form of a finite value written without exponent, trailing
    /// fraction zeros or a trailing point, and zero written without a sign.
    private static func plainDecimal(_ value: Double) -> String {
        let parts = ShortestDecimal(value)
        if parts.digits.isEmpty { return "0" }
        var bytes: [UInt8] = parts.isNegative ? [UInt8(ascii: "-")] : []
        if parts.pointPosition <= 0 {
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -parts.pointPosition))
            bytes.append(contentsOf: parts.digits)
        } else if parts.pointPosition >= parts.digits.count {
            bytes.append(contentsOf: parts.digits)
            bytes.append(
                contentsOf: repeatElement(
                    UInt8(ascii: "0"), count: parts.pointPosition - parts.digits.count))
        } else {
            bytes.append(contentsOf: parts.digits[..<parts.pointPosition])
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: parts.digits[parts.pointPosition...])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The shortest round-trip decimal form of a finite Double, read from Swift's `description`
/// ("1.25", "3.0", "1e-07", "1.5e+20") as significant digits and a point position.
///
/// The value is `0.d1d2d3... * 10^pointPosition`, with neither leading nor trailing zeros in
/// `digits`; zero has no digits.
private struct ShortestDecimal {
    var isNegative = false
    var digits: [UInt8] = []
    var pointPosition = 0

    init(_ value: Double) {
        var mantissa = Substring(value.description)
        var exponent = 0
        if let marker = mantissa.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(mantissa[mantissa.index(after: marker)...]) ?? 0
            mantissa = mantissa[..<marker]
        }
        if mantissa.first == "-" {
            isNegative = true
            mantissa = mantissa.dropFirst()
        }
        var integerCount = 0
        var seenPoint = false
        for byte in mantissa.utf8 {
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits.append(byte)
                if !seenPoint { integerCount += 1 }
            }
        }
        pointPosition = integerCount + exponent
        // Leading zeros ("0.125") move the point left; trailing zeros ("3.0", "100.0") carry no
        // fraction digits.
        while digits.first == UInt8(ascii: "0") {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
        }
        if digits.isEmpty {
            pointPosition = 0
        }
    }
}
