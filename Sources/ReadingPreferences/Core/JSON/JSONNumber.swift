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
    public var text: String { source ?? Self.canonicalText(of: doubleValue) }

    /// The source text; `nil` for a synthesized `Double`, whose canonical text is only made when
    /// it is written (an editor's increment never formats a number).
    private let source: String?

    /// The value as a `Double`, correctly rounded from ``text``.
    ///
    /// A magnitude too large for binary64 gives an infinity (`1e400`), and one too small gives
    /// zero (`1e-400`).
    public let doubleValue: Double

    /// Creates the number of a `Double`, with a canonical ``text``.
    ///
    /// - Parameter value: Any `Double`. A non-finite value is kept but is written as `null`.
    public init(_ value: Double) {
        doubleValue = value
        source = nil
    }

    /// Creates the number of an `Int`, written in decimal.
    ///
    /// - Parameter value: Any `Int`; ``integerValue`` returns it exactly.
    public init(_ value: Int) {
        doubleValue = Double(value)
        source = String(value)
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
        self.source = text
        self.doubleValue = parsed
    }

    /// Creates a number from text already checked by the parser.
    init(validatedText: String, doubleValue: Double) {
        self.source = validatedText
        self.doubleValue = doubleValue
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
        guard var copy = source else { return Int(exactly: doubleValue) }
        return copy.withUTF8 { Self.exactInteger(in: $0) }
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
