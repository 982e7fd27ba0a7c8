/// A JSON number that keeps its source text.
///
/// A parsed number remembers exactly how it was written, so re-encoding an unedited document
/// reproduces it: `123456789012345678901234567890`, `1e400`, `-0` and `1.50` all survive a round
/// trip. Arithmetic uses ``doubleValue`` (correctly rounded) or ``integerValue`` (exact).
///
/// Numbers compare and hash by numeric value: `1`, `1.0` and `1e0` are equal, and so are `-0`
/// and `0`.
///
/// ```swift
/// let big = JSONNumber(text: "123456789012345678901234567890")
/// big?.text           // "123456789012345678901234567890"
/// big?.integerValue   // nil: it does not fit in Int
/// JSONNumber(1.5).text   // "1.5"
/// JSONNumber(2.0).text   // "2"
/// ```
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written in the source, or the canonical form of a synthesized number.
    ///
    /// The canonical form of a `Double` is an integer (`"2"`, `"-3"`, `"0"` for `-0.0`) when the
    /// value is integral with a magnitude below 2^53, and Swift's shortest round-trip
    /// `description` otherwise (`"1.3"`, `"1e-05"`). A non-finite `Double` has the text `"inf"`,
    /// `"-inf"` or `"nan"`, which is not JSON: the writer writes such a number as `null`.
    public var text: String {
        switch form {
        case .written(let text): return text
        case .decimal(let fractionDigits):
            return Self.decimalText(doubleValue, fractionDigits: fractionDigits)?.string
                ?? Self.canonicalText(of: doubleValue)
        case .shortest: return Self.canonicalText(of: doubleValue)
        }
    }

    /// The value as a `Double`, correctly rounded from ``text``.
    ///
    /// A magnitude too large for binary64 gives an infinity (`1e400`), and one too small gives
    /// zero (`1e-400`).
    public let doubleValue: Double

    /// How ``text`` is kept.
    private let form: Form

    /// Where a number's text comes from. Most numbers in preferences are short decimals
    /// (`1.2`, `0.05`, `1184274`): their text is rebuilt exactly from the `Double` and a count of
    /// fraction digits, so reading one never makes a `String` (Specs/Preferences.md §2.7, §3.2).
    private enum Form: Sendable {
        /// A synthesized `Double`: the canonical text, made only when written.
        case shortest
        /// A plain decimal with at most 15 significant digits and `fractionDigits` (0...22) digits
        /// after the point, as written (`1.50` keeps its zero): `|doubleValue| × 10^fractionDigits`
        /// rounds back to exactly those digits.
        case decimal(fractionDigits: Int)
        /// Any other text (exponents, long numbers), kept as written.
        case written(String)
    }

    /// Creates the number of a `Double`, with a canonical ``text``.
    ///
    /// - Parameter value: Any `Double`. A non-finite value is kept but is written as `null`.
    public init(_ value: Double) {
        doubleValue = value
        form = .shortest
    }

    /// Creates the number of an `Int`, written in decimal.
    ///
    /// - Parameter value: Any `Int`; ``integerValue`` returns it exactly.
    public init(_ value: Int) {
        doubleValue = Double(value)
        form = value.magnitude < Self.plainLimit ? .decimal(fractionDigits: 0) : .written(String(value))
    }

    /// Creates a number from its JSON text, or returns `nil` when the text is not a JSON number.
    ///
    /// Only the JSON grammar is accepted: no leading `+`, no leading zeros, no bare `.` or
    /// trailing `.`, no surrounding whitespace, no `NaN` or `Infinity`.
    ///
    /// ```swift
    /// JSONNumber(text: "1.50")?.text      // "1.50"
    /// JSONNumber(text: "01")              // nil
    /// ```
    ///
    /// - Parameter text: The candidate number text.
    public init?(text: String) {
        var copy = text
        let parsed: Double? = copy.withUTF8 { bytes in
            guard let scan = JSONParser.scanNumber(bytes, from: 0), scan.end == bytes.count else {
                return nil
            }
            return scan.value
        }
        guard let parsed else { return nil }
        self.form = .written(text)
        self.doubleValue = parsed
    }

    /// Creates a number from text already checked by the parser.
    init(validatedText: String, doubleValue: Double) {
        self.form = .written(validatedText)
        self.doubleValue = doubleValue
    }

    /// Creates a number the parser read as a plain decimal: at most 15 significant digits (below
    /// ``plainLimit``), no exponent, `fractionDigits` (0...22) digits after the point.
    init(plainDecimal value: Double, fractionDigits: Int) {
        self.form = .decimal(fractionDigits: fractionDigits)
        self.doubleValue = value
    }

    /// Plain decimals keep their text only as a fraction-digit count below this many digits
    /// (10^15): then `|value| × 10^k`, rounded, gives back exactly the digits written (two
    /// correctly rounded binary64 operations are off by less than half a unit below 2^51).
    static let plainLimit: UInt64 = 1_000_000_000_000_000

    /// The most fraction digits of a plain decimal (10^22 is the largest exact power of ten).
    static let plainFractionLimit = 22

    /// The text of a plain decimal with `fractionDigits` digits after the point.
    private static func decimalText(_ value: Double, fractionDigits: Int) -> InlineText? {
        guard let significand = plainSignificand(value, fractionDigits: fractionDigits) else { return nil }
        // 10^20 and above do not fit in UInt64, but then the significand (below 10^15) is all fraction.
        let split = fractionDigits < 20
        let unit = split ? UInt64(exactPowersOfTen[fractionDigits]) : 1
        return InlineText.fixedPoint(
            integerPart: split ? significand / unit : 0, fraction: split ? significand % unit : significand,
            fractionDigits: fractionDigits, isNegative: value.sign == .minus, trimsZeros: false)
    }

    /// The digits of a plain decimal, as an integer: `|value| × 10^fractionDigits`, rounded.
    private static func plainSignificand(_ value: Double, fractionDigits: Int) -> UInt64? {
        guard value.isFinite, fractionDigits >= 0, fractionDigits <= plainFractionLimit else { return nil }
        // Within 2^-51 of an integer below 10^15 (see `plainLimit`): adding one half and
        // truncating finds it without a rounding call.
        let scaled = value.magnitude * exactPowersOfTen[fractionDigits] + 0.5
        guard scaled < Double(plainLimit) else { return nil }
        return UInt64(scaled)
    }

    /// Appends the JSON text of the number: its ``text``, or `null` when the text is not JSON (a
    /// synthesized non-finite `Double` such as `inf`). A parsed `1e400` is not finite either,
    /// but its text is JSON and is kept as written.
    func appendJSON(to output: inout TextOutput) {
        switch form {
        case .written(let text):
            output.append(contentsOf: text)
        case .decimal(let fractionDigits):
            if let text = Self.decimalText(doubleValue, fractionDigits: fractionDigits) {
                output.append(text)
            } else {
                output.append(contentsOf: Self.canonicalText(of: doubleValue))
            }
        case .shortest:
            if doubleValue.isFinite {
                output.append(contentsOf: Self.canonicalText(of: doubleValue))
            } else {
                output.append("null")
            }
        }
    }

    /// Whether two numbers are written alike: the same ``text`` (`1.5` and `1.50` are equal
    /// numbers with different texts). Plain decimals compare without making their text.
    package func hasSameText(as other: JSONNumber) -> Bool {
        if case .decimal(let digits) = form, case .decimal(let otherDigits) = other.form {
            return digits == otherDigits && doubleValue.bitPattern == other.doubleValue.bitPattern
        }
        if case .shortest = form, case .shortest = other.form {
            // The canonical text is a function of the value, one text per value (both zeros
            // write `0`), so equal values are written alike without making the text.
            return doubleValue == other.doubleValue || (doubleValue.isNaN && other.doubleValue.isNaN)
        }
        return text == other.text
    }

    /// Whether ``doubleValue`` is finite; `false` for `1e400` and for synthesized infinities.
    public var isFinite: Bool { doubleValue.isFinite }

    /// The exact integral value when it fits in `Int`, else `nil`.
    ///
    /// Computed from the decimal text, not from the rounded `Double`, so it is exact:
    /// `"3"`, `"3.0"`, `"3e2"` and `"16711680.0"` give a value; `"3.5"`, `"1e400"`, `"1e30"` and
    /// `"9223372036854775808"` give `nil`.
    public var integerValue: Int? {
        guard doubleValue.isFinite else { return nil }
        switch form {
        case .shortest:
            return Int(exactly: doubleValue)
        case .decimal(let fractionDigits):
            // Below 10^15, so the Double is the exact integer of the digits written.
            if fractionDigits == 0 { return Int(exactly: doubleValue) }
            guard let digits = Self.plainSignificand(doubleValue, fractionDigits: fractionDigits) else {
                return nil
            }
            let significand = Int(digits)
            // A significand below 10^15 with 16 or more fraction digits is an integer only at 0.
            guard fractionDigits < 16 else { return significand == 0 ? 0 : nil }
            let unit = Int(exactPowersOfTen[fractionDigits])
            guard significand % unit == 0 else { return nil }
            return doubleValue.sign == .minus ? -(significand / unit) : significand / unit
        case .written(var text):
            return text.withUTF8 { Self.exactInteger(in: $0) }
        }
    }

    /// The number's ``text``.
    public var description: String { text }

    /// Two numbers are equal when their values are (`1 == 1.0`, `-0 == 0`, `NaN == NaN`).
    ///
    /// `NaN` is equal to itself here so that `Hashable` stays reflexive.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        lhs.doubleValue == rhs.doubleValue || (lhs.doubleValue.isNaN && rhs.doubleValue.isNaN)
    }

    /// Hashes the numeric value, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        if doubleValue.isNaN {
            hasher.combine(Double.nan.bitPattern)
        } else {
            // Double's own hash already treats -0.0 and 0.0 alike.
            hasher.combine(doubleValue)
        }
    }

    /// The canonical text of a `Double`; see ``text``.
    static func canonicalText(of value: Double) -> String {
        // 2^53: below it every integral Double is exactly an Int64 and prints without exponent.
        if value.rounded(.towardZero) == value, abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }

    /// The exact integer written in `bytes` (a valid JSON number), or nil when it is not
    /// integral or does not fit in `Int`.
    static func exactInteger(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        // The common case, plain digits (a color such as 1184274), without the general form's
        // digit array; 18 digits always fit in an Int.
        let isNegative = bytes.first == UInt8(ascii: "-")
        let digits = UnsafeBufferPointer(rebasing: bytes[(isNegative ? 1 : 0)...])
        if !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 &- 0x30 < 10 }) {
            var value = 0
            for digit in digits { value = value * 10 + Int(digit &- 0x30) }
            return isNegative ? -value : value
        }
        return JSONDecimalForm(bytes).integerValue
    }
}
