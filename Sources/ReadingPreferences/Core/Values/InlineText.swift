/// Up to 32 bytes of ASCII text held inline, with no allocation: numbers are formatted into it,
/// then copied into an output buffer (JSON, CSS) or made into a `String` only when one is asked
/// for.
///
/// Specs/Preferences.md §3.3: formatting a number for a document must not cost a `String` per number. Every
/// fixed-point form of the package (JSON numbers written as read, Specs/Settings.md §7 decimals and
/// percentages) goes through ``fixedPoint(significand:fractionDigits:isNegative:trimsZeros:suffix:)``.
struct InlineText: Sendable {
    /// The most bytes a text holds.
    static let capacity = 32

    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// The number of bytes.
    private(set) var count = 0

    /// The text's bytes.
    @inline(__always)
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: storage) { raw in
            try body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[..<count]))
        }
    }

    /// Appends an ASCII byte; a full text ignores it (its callers write at most 32 bytes).
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        guard count < Self.capacity else { return }
        withUnsafeMutableBytes(of: &storage) { $0[count] = byte }
        count += 1
    }

    /// The text as a `String` (a small string, so no allocation, up to 15 bytes).
    var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// `[-]integerPart[.fraction][suffix]`, with `fraction` written on exactly `fractionDigits`
    /// digits (`5` on 2 digits is `.05`), or `nil` when the text would not fit.
    ///
    /// With `trimsZeros`, trailing fraction zeros and a trailing point are dropped first (Specs/Settings.md
    /// §7); a number written as read keeps them (`1.50`).
    ///
    /// - Parameters:
    ///   - integerPart: The digits before the point.
    ///   - fraction: The digits after the point, as an integer below 10^`fractionDigits`.
    ///   - fractionDigits: How many digits follow the point (0...22).
    ///   - isNegative: Whether to write a minus sign.
    ///   - trimsZeros: Whether to drop trailing fraction zeros.
    ///   - suffix: ASCII written after the number (`%`, `rem`).
    /// - Returns: The text, or `nil` when it would be longer than ``capacity``.
    static func fixedPoint(
        integerPart: UInt64, fraction: UInt64, fractionDigits: Int, isNegative: Bool, trimsZeros: Bool,
        suffix: StaticString = ""
    ) -> InlineText? {
        var fraction = fraction
        var fractionDigits = Swift.max(fractionDigits, 0)
        if trimsZeros {
            if fraction == 0 { fractionDigits = 0 }
            while fractionDigits > 0, fraction % 10 == 0 {
                fraction /= 10
                fractionDigits -= 1
            }
        }
        var integerCount = 1
        var probe = integerPart
        while probe >= 10 {
            probe /= 10
            integerCount += 1
        }
        let suffixCount = suffix.utf8CodeUnitCount
        let length =
            (isNegative ? 1 : 0) + integerCount + (fractionDigits > 0 ? fractionDigits + 1 : 0) + suffixCount
        guard length <= capacity else { return nil }
        var text = InlineText()
        text.count = length
        withUnsafeMutableBytes(of: &text.storage) { raw in
            var index = length
            let suffixBytes = suffix.utf8Start
            for offset in stride(from: suffixCount - 1, through: 0, by: -1) {
                index -= 1
                raw[index] = suffixBytes[offset]
            }
            if fractionDigits > 0 {
                for _ in 0..<fractionDigits {
                    index -= 1
                    raw[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
                    fraction /= 10
                }
                index -= 1
                raw[index] = UInt8(ascii: ".")
            }
            var remaining = integerPart
            repeat {
                index -= 1
                raw[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            } while remaining > 0 && index > 0
            if isNegative { raw[0] = UInt8(ascii: "-") }
        }
        return text
    }
}
