/// An opaque RGB color (Specs/Settings.md §2).
///
/// Colors are always opaque: every form that carries an alpha channel is accepted only when the
/// alpha is fully opaque (`FF`), so a value never silently loses transparency.
///
/// ```swift
/// let red = RGBColor(red: 0xFF, green: 0, blue: 0)
/// red.hexString                            // "#FF0000"
/// RGBColor(parsing: "#f00") == red         // true
/// RGBColor(cssName: "Red") == red          // true
/// RGBColor(readiumKotlinARGB: -65536)      // red
/// ```
public struct RGBColor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The red component, 0 to 255.
    public var red: UInt8
    /// The green component, 0 to 255.
    public var green: UInt8
    /// The blue component, 0 to 255.
    public var blue: UInt8

    /// Creates a color from its three components.
    ///
    /// ```swift
    /// RGBColor(red: 0x66, green: 0x33, blue: 0x99).hexString  // "#663399"
    /// ```
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    // MARK: - Integer forms

    /// Creates a color from a Readium Swift integer `0xRRGGBB`; `nil` outside `0...0xFFFFFF`.
    ///
    /// ```swift
    /// RGBColor(rgb: 0xFF0000)    // red
    /// RGBColor(rgb: 0x1000000)   // nil
    /// RGBColor(rgb: -1)          // nil
    /// ```
    public init?(rgb: Int) {
        // Specs/Settings.md §2: only 0 ... 0xFFFFFF is RGB; negative integers are the Kotlin ARGB form.
        guard (0...0xFF_FFFF).contains(rgb) else { return nil }
        self.init(
            red: UInt8(truncatingIfNeeded: rgb >> 16),
            green: UInt8(truncatingIfNeeded: rgb >> 8),
            blue: UInt8(truncatingIfNeeded: rgb))
    }

    /// The color as a Readium Swift integer `0xRRGGBB`.
    ///
    /// ```swift
    /// RGBColor(red: 0xFF, green: 0, blue: 0).rgb  // 0xFF0000 (16711680)
    /// ```
    public var rgb: Int {
        Int(red) << 16 | Int(green) << 8 | Int(blue)
    }

    /// Creates a color from a Readium Kotlin ARGB integer: a negative signed 32-bit value whose
    /// alpha byte is `FF`. Returns `nil` for anything else.
    ///
    /// Kotlin stores `0xFFRRGGBB` in a signed 32-bit `Int`, so an opaque color is always in
    /// `-16777216 ... -1`; a non-negative value or one below `-2^31` is not this form, and a value
    /// with another alpha byte is not opaque.
    ///
    /// ```swift
    /// RGBColor(readiumKotlinARGB: -65536)     // red (0xFFFF0000)
    /// RGBColor(readiumKotlinARGB: -16777216)  // black (0xFF000000)
    /// RGBColor(readiumKotlinARGB: -33554432)  // nil (alpha 0xFE)
    /// ```
    public init?(readiumKotlinARGB: Int) {
        // Specs/Settings.md §2: a negative integer from -2^31 to -1, accepted only with alpha FF.
        guard readiumKotlinARGB < 0, readiumKotlinARGB >= Int(Int32.min) else { return nil }
        let bits = UInt32(bitPattern: Int32(truncatingIfNeeded: readiumKotlinARGB))
        guard bits >> 24 == 0xFF else { return nil }
        self.init(
            red: UInt8(truncatingIfNeeded: bits >> 16),
            green: UInt8(truncatingIfNeeded: bits >> 8),
            blue: UInt8(truncatingIfNeeded: bits))
    }

    /// The color as a Readium Kotlin ARGB integer: the signed 32-bit value of `0xFFRRGGBB`.
    ///
    /// ```swift
    /// RGBColor(red: 0xFF, green: 0, blue: 0).readiumKotlinARGB  // -65536
    /// ```
    public var readiumKotlinARGB: Int {
        Int(Int32(bitPattern: 0xFF00_0000 | UInt32(truncatingIfNeeded: rgb)))
    }

    // MARK: - String forms

    /// The canonical `"#RRGGBB"` form with upper-case hex digits (Specs/Settings.md §2).
    ///
    /// ```swift
    /// RGBColor(red: 0xAB, green: 0xCD, blue: 0xEF).hexString  // "#ABCDEF"
    /// ```
    public var hexString: String { hexText.string }

    /// ``hexString``, inline (no allocation): the form CSS output copies.
    var hexText: InlineText {
        var text = InlineText()
        text.append(UInt8(ascii: "#"))
        for component in [red, green, blue] {
            text.append(Self.upperHexDigit(component >> 4))
            text.append(Self.upperHexDigit(component & 0xF))
        }
        return text
    }

    /// Parses `"#RGB"`, `"#RRGGBB"` (hex digits in either case), or `"#RRGGBBAA"` when the alpha
    /// is `FF`. Everything else, including `"#RGBA"`, other alphas and a missing `#`, is `nil`.
    ///
    /// ```swift
    /// RGBColor(hexString: "#f00")        // red
    /// RGBColor(hexString: "#FF0000FF")   // red
    /// RGBColor(hexString: "#FF000080")   // nil (not opaque)
    /// RGBColor(hexString: "FF0000")      // nil (no "#")
    /// ```
    public init?(hexString: String) {
        let utf8 = Array(hexString.utf8)
        guard utf8.first == UInt8(ascii: "#") else { return nil }
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(8)
        for byte in utf8.dropFirst() {
            guard let nibble = Self.hexValue(of: byte) else { return nil }
            nibbles.append(nibble)
        }
        switch nibbles.count {
        case 3:
            // "#RGB" doubles each digit, as in CSS: "#F00" is "#FF0000".
            self.init(red: nibbles[0] * 0x11, green: nibbles[1] * 0x11, blue: nibbles[2] * 0x11)
        case 6, 8:
            // Specs/Settings.md §2: "#RRGGBBAA" only when fully opaque; "#RGBA" (4 digits) is never accepted.
            if nibbles.count == 8 {
                guard nibbles[6] == 0xF, nibbles[7] == 0xF else { return nil }
            }
            self.init(
                red: nibbles[0] << 4 | nibbles[1],
                green: nibbles[2] << 4 | nibbles[3],
                blue: nibbles[4] << 4 | nibbles[5])
        default:
            return nil
        }
    }

    /// Looks up one of the 148 CSS Color 4 named colors, ignoring ASCII case; `nil` otherwise.
    ///
    /// `transparent` is not a named color here, since colors are opaque.
    ///
    /// ```swift
    /// RGBColor(cssName: "RebeccaPurple")  // #663399
    /// RGBColor(cssName: "transparent")    // nil
    /// ```
    public init?(cssName: String) {
        // Fold ASCII only: a Unicode case mapping would let look-alikes such as the Kelvin sign
        // ("\u{212A}") match "k" in a CSS keyword, which CSS itself does not allow.
        var folded: [UInt8] = []
        folded.reserveCapacity(cssName.utf8.count)
        for byte in cssName.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): folded.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): folded.append(byte + 0x20)
            default: return nil
            }
        }
        guard let color = Self.cssNamedColorsByName[String(decoding: folded, as: UTF8.self)] else {
            return nil
        }
        self = color
    }

    /// Parses any string form of Specs/Settings.md §2: a hex form (see ``init(hexString:)``) or a CSS named
    /// color (see ``init(cssName:)``). No surrounding whitespace is allowed.
    ///
    /// ```swift
    /// RGBColor(parsing: "#FF0000")  // red
    /// RGBColor(parsing: "RED")      // red
    /// RGBColor(parsing: " red")     // nil
    /// ```
    public init?(parsing string: String) {
        if string.utf8.first == UInt8(ascii: "#") {
            self.init(hexString: string)
        } else {
            self.init(cssName: string)
        }
    }

    /// The canonical hex form, as ``hexString``.
    public var description: String { hexString }

    // MARK: - Codable

    /// Decodes a color from a single string in any form accepted by ``init(parsing:)``.
    ///
    /// Throws `DecodingError.dataCorrupted` for an unsupported string, and the decoder's type
    /// mismatch error when the value is not a string (integer forms are handled by the
    /// preferences JSON coder, Specs/Settings.md §2, not here).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let color = RGBColor(parsing: string) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "Unsupported color \"\(string)\" (Specs/Settings.md §2)"))
        }
        self = color
    }

    /// Encodes the color as its canonical `"#RRGGBB"` string (Specs/Settings.md §2).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hexString)
    }

    // MARK: - Private

    private static func upperHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    private static func hexValue(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
