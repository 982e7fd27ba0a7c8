// Number parsing: the JSON grammar, the source text, and a correctly rounded Double.

extension JSONParserState {
    /// Parses the number at the cursor, keeping its text.
    @inline(__always)
    mutating func parseNumber() throws(JSONDecodingError) -> JSONNumber {
        let start = position
        guard let scan = JSONParser.scanNumber(bytes, from: start) else {
            throw JSONDecodingError(code: .invalidNumber, offset: start)
        }
        position = scan.end
        // Most numbers are short plain decimals, whose text the fraction-digit count keeps.
        if scan.plainFractionDigits >= 0 {
            return JSONNumber(plainDecimal: scan.value, fractionDigits: scan.plainFractionDigits)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<scan.end]), as: UTF8.self)
        return JSONNumber(validatedText: text, doubleValue: scan.value)
    }
}

/// Exact powers of ten: every 10^n with n <= 22 is exactly representable in binary64.
let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

extension JSONParser {
    /// Scans a JSON number starting at `start`; returns the offset after it, its value, and the
    /// number of digits after its point when it is a plain decimal that `JSONNumber` keeps without
    /// its text (no exponent, below `JSONNumber.plainLimit`; else -1). Returns nil when the bytes
    /// there do not follow the JSON number grammar.
    ///
    /// A digit right after a leading `0` is rejected here ("01"), since no valid document can
    /// continue that way. The value is exact by Clinger's fast path when the significand fits in
    /// 53 bits and the decimal exponent is within ±22 (one correctly rounded multiply or divide
    /// of two exact doubles); other numbers go through `Double(String)`, which rounds correctly.
    @inline(__always)
    static func scanNumber(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> (end: Int, value: Double, plainFractionDigits: Int)? {
        let end = bytes.count
        var index = start
        var negative = false
        if index < end, bytes[index] == JSONByte.minus {
            negative = true
            index += 1
        }
        guard index < end else { return nil }
        var significand: UInt64 = 0
        var exponent = 0
        // Set when digits did not fit the fast path; the value then comes from Double(String).
        var slow = false
        let first = bytes[index]
        if first == JSONByte.zero {
            index += 1
            if index < end, bytes[index] &- 0x30 < 10 { return nil }
        } else if first &- 0x31 < 9 {
            while index < end {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { break }
                if significand < 100_000_000_000_000_000 {
                    significand = significand &* 10 &+ UInt64(digit)
                } else {
                    slow = true
                }
                index += 1
            }
        } else {
            return nil
        }
        if index < end, bytes[index] == JSONByte.period {
            index += 1
            let fractionStart = index
            while index < end {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { break }
                if significand < 100_000_000_000_000_000 {
                    significand = significand &* 10 &+ UInt64(digit)
                    exponent -= 1
                } else {
                    slow = true
                }
                index += 1
            }
            if index == fractionStart { return nil }
        }
        var isPlain = true
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isPlain = false
            index += 1
            var exponentNegative = false
            if index < end, bytes[index] == JSONByte.minus || bytes[index] == JSONByte.plus {
                exponentNegative = bytes[index] == JSONByte.minus
                index += 1
            }
            let exponentStart = index
            var written = 0
            while index < end {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { break }
                // A long exponent goes to the exact slow path, never the fast one below.
                if written < 1_000 { written = written * 10 + Int(digit) } else { slow = true }
                index += 1
            }
            if index == exponentStart { return nil }
            exponent += exponentNegative ? -written : written
        }
        let plainFractionDigits =
            isPlain && !slow && significand < JSONNumber.plainLimit
                && -exponent <= JSONNumber.plainFractionLimit ? -exponent : -1
        if significand == 0 && !slow {
            return (index, negative ? -0.0 : 0.0, plainFractionDigits)
        }
        if !slow, significand <= 1 << 53, exponent >= -22, exponent <= 22 {
            var value = Double(significand)
            if exponent < 0 {
                value /= exactPowersOfTen[-exponent]
            } else {
                value *= exactPowersOfTen[exponent]
            }
            return (index, negative ? -value : value, plainFractionDigits)
        }
        // Long, large or tiny numbers: read the decimal form once (linear in the text) and round
        // at most 769 significant digits.
        return (index, JSONDecimalForm(UnsafeBufferPointer(rebasing: bytes[start..<index])).doubleValue, -1)
    }
}
