/// A BCP-47 language tag and the predicates of Specs/Resolution.md §3.
///
/// The tag is kept as given, except that every `_` becomes `-` (Specs/Settings.md §2), so `"zh_TW"` is stored
/// and encoded as `"zh-TW"`. A language setting accepts only well-formed tags
/// (``isWellFormed``); a malformed tag built in code is neither right-to-left nor CJK.
///
/// ```swift
/// let language: LanguageTag = "ar-EG"
/// language.primarySubtag   // "ar"
/// language.isRightToLeft   // true
/// LanguageTag(code: "zh_Hant").isRightToLeft  // true (vertical Chinese, as in Readium)
/// ```
public struct LanguageTag: Sendable, Hashable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The tag as given, with every `_` replaced by `-`; letter case is kept.
    public let code: String
    /// What Specs/Settings.md §2 and Specs/Resolution.md §3 say of the tag, worked out once when it is made: resolution asks on
    /// every call, and a publication's tags are made once per book.
    private let traits: Traits

    /// Creates a language from a BCP-47 tag, replacing every `_` with `-`.
    ///
    /// ```swift
    /// LanguageTag(code: "pt_BR").code  // "pt-BR"
    /// ```
    public init(code: String) {
        // Specs/Settings.md §2: "_" is accepted as a separator and normalized to "-".
        let code = code.utf8.contains(UInt8(ascii: "_")) ? String(code.map { $0 == "_" ? "-" : $0 }) : code
        self.code = code
        traits = Traits(code)
    }

    /// Creates a language from a string literal, as ``init(code:)``.
    ///
    /// ```swift
    /// let language: LanguageTag = "en-US"
    /// ```
    public init(stringLiteral value: String) {
        self.init(code: value)
    }

    /// The first subtag, lower-cased (`"zh"` for `"ZH-Hant"`); empty for an empty tag.
    public var primarySubtag: String {
        Self.asciiLowercased(code.split(separator: "-", omittingEmptySubsequences: false).first ?? "")
    }

    /// The script subtag: four ASCII letters right after the primary subtag, title-cased.
    ///
    /// ```swift
    /// LanguageTag(code: "zh-hant-TW").scriptSubtag  // "Hant"
    /// LanguageTag(code: "en-US").scriptSubtag       // nil
    /// ```
    public var scriptSubtag: String? {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        let candidate = parts[1]
        guard candidate.utf8.count == 4, candidate.utf8.allSatisfy(Self.isLetter) else { return nil }
        let lower = Self.asciiLowercased(candidate)
        return lower.prefix(1).uppercased() + lower.dropFirst()
    }

    /// Whether the tag is well formed (Specs/Settings.md §2): subtags of 1 to 8 ASCII letters or digits
    /// joined by `-`, the first of letters only. A language setting rejects any other string
    /// (`unsupportedValue`), so what reaches an HTML `lang` attribute is always a tag.
    ///
    /// ```swift
    /// LanguageTag(code: "sr-Latn-RS").isWellFormed      // true
    /// LanguageTag(code: "en\" onload=\"x").isWellFormed  // false
    /// ```
    public var isWellFormed: Bool {
        traits.contains(.wellFormed)
    }

    /// Whether text in this language is laid out right to left (Specs/Resolution.md §3).
    ///
    /// Traditional Chinese written exactly as `zh-Hant` or `zh-TW` counts as right to left, as in
    /// Readium, because it selects the vertical, right-to-left page progression.
    ///
    /// ```swift
    /// LanguageTag(code: "he-IL").isRightToLeft       // true
    /// LanguageTag(code: "az-Arab").isRightToLeft     // true (script decides)
    /// LanguageTag(code: "ar-Latn").isRightToLeft     // false (script decides)
    /// LanguageTag(code: "zh-Hant-TW").isRightToLeft  // false (only exactly zh-Hant / zh-TW)
    /// ```
    public var isRightToLeft: Bool {
        traits.contains(.rightToLeft)
    }

    /// Whether this is a Chinese, Japanese or Korean language or script (Specs/Resolution.md §3).
    ///
    /// ```swift
    /// LanguageTag(code: "ja-JP").isCJK    // true
    /// LanguageTag(code: "ja-Latn").isCJK  // false (script decides)
    /// LanguageTag(code: "en-Hani").isCJK  // true (script decides)
    /// ```
    public var isCJK: Bool {
        traits.contains(.cjk)
    }

    /// The tag, as ``code``.
    public var description: String { code }

    /// Two tags are equal when their codes are (the traits follow from the code).
    public static func == (lhs: LanguageTag, rhs: LanguageTag) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// Decodes a language from a single string, normalizing `_` to `-`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(code: try container.decode(String.self))
    }

    /// Encodes the language as its ``code`` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    // MARK: - Specs/Resolution.md §3

    /// What the predicates answer, as bits.
    private struct Traits: OptionSet, Sendable {
        let rawValue: UInt8
        static let wellFormed = Traits(rawValue: 1)
        static let rightToLeft = Traits(rawValue: 2)
        static let cjk = Traits(rawValue: 4)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Classifies a code in two passes over its bytes, allocating nothing.
        init(_ code: String) {
            var code = code
            self = code.withUTF8 { bytes in
                var traits: Traits = LanguageTag.isWellFormed(bytes) ? .wellFormed : []
                let (isRightToLeft, isCJK) = LanguageTag.classify(bytes)
                if isRightToLeft { traits.insert(.rightToLeft) }
                if isCJK { traits.insert(.cjk) }
                return traits
            }
        }
    }

    private static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var subtagLength = 0
        var isFirst = true
        for byte in bytes {
            if byte == UInt8(ascii: "-") {
                guard subtagLength > 0 else { return false }
                subtagLength = 0
                isFirst = false
                continue
            }
            guard isLetter(byte) || (!isFirst && isDigit(byte)), subtagLength < 8 else {
                return false
            }
            subtagLength += 1
        }
        return subtagLength > 0
    }

    private static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> (isRightToLeft: Bool, isCJK: Bool) {
        // The primary subtag: up to the first "-".
        var primaryEnd = 0
        while primaryEnd < bytes.count, bytes[primaryEnd] != UInt8(ascii: "-") { primaryEnd += 1 }
        let primary = UnsafeBufferPointer(rebasing: bytes[0..<primaryEnd])
        // An empty or malformed primary subtag ("", "-", " ar", "12") is neither.
        guard !primary.isEmpty, primary.allSatisfy(isLetter) else { return (false, false) }
        // The second subtag, and whether there is a third.
        var second = UnsafeBufferPointer(rebasing: bytes[primaryEnd..<primaryEnd])
        var hasThird = false
        if primaryEnd < bytes.count {
            let start = primaryEnd + 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "-") { end += 1 }
            second = UnsafeBufferPointer(rebasing: bytes[start..<end])
            hasThird = end < bytes.count
        }
        let hasScript = second.count == 4 && second.allSatisfy(isLetter)

        // Rule 3 (primary subtag), overridden by rule 2 (script subtag) when present.
        var isRightToLeft = rightToLeftLanguages.contains { equalsLowercased(primary, $0) }
        var isCJK = cjkLanguages.contains { equalsLowercased(primary, $0) }
        if hasScript {
            isRightToLeft = rightToLeftScripts.contains { equalsLowercased(second, $0) }
            isCJK = cjkScripts.contains { equalsLowercased(second, $0) }
        }
        // Rule 1: Chinese is right-to-left (vertical) only for exactly zh-Hant or zh-TW, whatever
        // the script rule says, as in Readium.
        if equalsLowercased(primary, "zh") {
            isRightToLeft =
                primaryEnd < bytes.count && !hasThird
                && (equalsLowercased(second, "hant") || equalsLowercased(second, "tw"))
        }
        return (isRightToLeft, isCJK)
    }

    private static let rightToLeftScripts: [StaticString] = [
        "arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg",
    ]
    private static let cjkScripts: [StaticString] = ["hani", "hans", "hant", "jpan", "kore"]
    private static let rightToLeftLanguages: [StaticString] = [
        "ar", "fa", "he", "iw", "ur", "ps", "sd", "ug", "yi", "ji", "dv", "ckb",
    ]
    private static let cjkLanguages: [StaticString] = ["zh", "ja", "ko"]

    /// Whether ASCII `bytes` equal the lower-case `name`, ignoring the case of letters.
    private static func equalsLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let lowered = isLetter(byte) ? byte | 0x20 : byte
            guard lowered == expected[index] else { return false }
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func asciiLowercased(_ text: Substring) -> String {
        // ASCII only: tags are ASCII, and a Unicode mapping could make a non-ASCII tag match.
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
