/// The decimal form of a valid JSON number's text: its sign, its significant digits and the
/// power of ten of the last one, found in one pass whatever the text's length.
///
/// The one reader of number texts beyond the parser's fast path: the correctly rounded `Double`
/// of a long or large number, the exact `Int` of an integral one, and whether a number's value
/// survives a trip through binary64 (for `Codable`) all start here. Exponents are read with
/// saturation far beyond any number a document can hold, so `0.` followed by 100,000 zeros and
/// `2e1000001` is `2e900001` (infinite in binary64), never `2`.
struct JSONDecimalForm {
    /// Whether the text starts with `-`.
    let isNegative: Bool
    /// The significant digits (no leading or trailing zeros) as ASCII bytes, at most
    /// `JSONDecimalForm.maximumDigits`; when the text has more, the rest is summarized by
    /// ``isTruncated``. Empty for zero.
    let digits: [UInt8]
    /// Whether significant digits beyond ``digits`` were dropped (they are never all zero: the
    /// last significant digit is non-zero by definition).
    let isTruncated: Bool
    /// The number of significant digits in the text.
    let significantCount: Int
    /// The power of ten of the first significant digit (`2` for `123`, `-1` for `0.5`).
    let leadingExponent: Int

    /// Enough digits to round any decimal number correctly to binary64: past 767 significant
    /// digits, later digits only tell whether the value is above a halfway point, which one
    /// non-zero "sticky" digit says as well.
    static let maximumDigits = 768

    /// Exponents saturate here: a document's digits cannot move the decimal point further, so
    /// the saturated value keeps the number infinite or zero, and sums cannot overflow `Int`.
    private static let exponentLimit = 1 << 50

    /// Reads a valid JSON number (the caller checked the grammar).
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        var index = 0
        isNegative = count > 0 && bytes[0] == UInt8(ascii: "-")
        if isNegative { index = 1 }
        var digits: [UInt8] = []
        var significant = 0
        var pendingZeros = 0  // zeros after the last non-zero digit seen so far
        // Where the first significant digit is: its position among the integer digits (from the
        // left), or minus its position after the point.
        var firstIntegerPosition: Int?
        var firstFractionPosition = 0
        var integerDigits = 0
        var seenNonZero = false
        var fractionPosition = 0
        var inFraction = false
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
                index += 1
                continue
            }
            guard byte &- 0x30 < 10 else { break }
            if inFraction { fractionPosition += 1 } else { integerDigits += 1 }
            if byte == UInt8(ascii: "0") {
                if seenNonZero { pendingZeros += 1 }
            } else {
                if !seenNonZero {
                    seenNonZero = true
                    if inFraction {
                        firstFractionPosition = fractionPosition
                    } else {
                        firstIntegerPosition = integerDigits - 1
                    }
                }
                // The zeros between two non-zero digits are significant.
                for _ in 0..<pendingZeros where digits.count < Self.maximumDigits { digits.append(0x30) }
                significant += pendingZeros + 1
                pendingZeros = 0
                if digits.count < Self.maximumDigits { digits.append(byte) }
            }
            index += 1
        }
        var exponent = 0
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < count, bytes[index] &- 0x30 < 10 {
                if exponent < Self.exponentLimit { exponent = exponent * 10 + Int(bytes[index] &- 0x30) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        self.digits = digits
        self.significantCount = significant
        self.isTruncated = significant > digits.count
        let leading = firstIntegerPosition.map { integerDigits - 1 - $0 } ?? -firstFractionPosition
        self.leadingExponent = seenNonZero ? leading + exponent : 0
    }

    /// Whether the value is zero (of either sign).
    var isZero: Bool { significantCount == 0 }

    /// The power of ten of the last significant digit.
    var trailingExponent: Int { leadingExponent - (significantCount - 1) }

    /// The correctly rounded `Double`, in time linear in the text and bounded work after it.
    var doubleValue: Double {
        let sign: Double = isNegative ? -1 : 1
        if isZero { return sign * 0 }
        // Beyond these, the value is infinite or zero in binary64 whatever the digits.
        if leadingExponent > 309 { return sign * .infinity }
        if leadingExponent < -400 { return sign * 0 }
        var text = isNegative ? "-" : ""
        text.unicodeScalars.append(contentsOf: digits.map { Unicode.Scalar($0) })
        var lastExponent = leadingExponent - (digits.count - 1)
        if isTruncated {
            text.append("1")
            lastExponent -= 1
        }
        text += "e" + String(lastExponent)
        return Double(text) ?? sign * (leadingExponent > 0 ? .infinity : 0)
    }

    /// The exact `Int`, when the value is integral and fits.
    var integerValue: Int? {
        if isZero { return 0 }
        guard trailingExponent >= 0, leadingExponent <= 18 else { return nil }
        var result = 0
        for power in stride(from: leadingExponent, through: 0, by: -1) {
            let index = leadingExponent - power
            let digit = index < digits.count ? Int(digits[index] &- 0x30) : 0
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                isNegative
                ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            result = next
        }
        return result
    }

    /// Whether two forms are the same decimal value (`1.50` and `1.5e0`), the sign of zero
    /// included.
    func isSameValue(as other: JSONDecimalForm) -> Bool {
        // Past `maximumDigits` the dropped digits are unknown: never claim equality.
        !isTruncated && !other.isTruncated && isNegative == other.isNegative && digits == other.digits
            && significantCount == other.significantCount && leadingExponent == other.leadingExponent
    }
}

extension JSONDecimalForm {
    /// The form of a number's text.
    init(text: String) {
        var copy = text
        self = copy.withUTF8 { JSONDecimalForm($0) }
    }
}
