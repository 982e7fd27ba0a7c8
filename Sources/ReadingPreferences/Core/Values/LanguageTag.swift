/// A BCP-47 language tag and the predicates of SPEC 5.2.
///
/// The tag is kept as given, except that every `_` becomes `-` (SPEC 3.1), so `"zh_TW"` is stored
/// and encoded as `"zh-TW"`. The tag is never validated: an empty or malformed tag is simply
/// neither right-to-left nor CJK.
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

    /// Creates a language from a BCP-47 tag, replacing every `_` with `-`.
    ///
    /// ```swift
    /// LanguageTag(code: "pt_BR").code  // "pt-BR"
    /// ```
    public init(code: String) {
        // SPEC 3.1: "_" is accepted as a separator and normalized to "-".
        self.code = String(code.map { $0 == "_" ? "-" : $0 })
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
        subtags.first.map { Self.asciiLowercased($0) } ?? ""
    }

    /// The script subtag: four ASCII letters right after the primary subtag, title-cased.
    ///
    /// ```swift
    /// LanguageTag(code: "zh-hant-TW").scriptSubtag  // "Hant"
    /// LanguageTag(code: "en-US").scriptSubtag       // nil
    /// ```
    public var scriptSubtag: String? {
        let parts = subtags
        guard parts.count >= 2 else { return nil }
        let candidate = parts[1]
        guard candidate.count == 4, candidate.allSatisfy(Self.isASCIILetter) else { return nil }
        let lower = Self.asciiLowercased(candidate)
        return lower.prefix(1).uppercased() + lower.dropFirst()
    }

    /// Whether text in this language is laid out right to left (SPEC 5.2).
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
        classification.isRightToLeft
    }

    /// Whether this is a Chinese, Japanese or Korean language or script (SPEC 5.2).
    ///
    /// ```swift
    /// LanguageTag(code: "ja-JP").isCJK    // true
    /// LanguageTag(code: "ja-Latn").isCJK  // false (script decides)
    /// LanguageTag(code: "en-Hani").isCJK  // true (script decides)
    /// ```
    public var isCJK: Bool {
        classification.isCJK
    }

    /// The tag, as ``code``.
    public var description: String { code }

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

    // MARK: - SPEC 5.2

    private static let rightToLeftScripts: Set<String> = [
        "arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg",
    ]
    private static let cjkScripts: Set<String> = ["hani", "hans", "hant", "jpan", "kore"]
    private static let rightToLeftLanguages: Set<String> = [
        "ar", "fa", "he", "iw", "ur", "ps", "sd", "ug", "yi", "ji", "dv", "ckb",
    ]
    private static let cjkLanguages: Set<String> = ["zh", "ja", "ko"]

    /// The subtags of the code, empty ones kept so that "zh--Hant" does not read as "zh-Hant".
    private var subtags: [Substring] {
        code.split(separator: "-", omittingEmptySubsequences: false)
    }

    private var classification: (isRightToLeft: Bool, isCJK: Bool) {
        let parts = subtags.map { Self.asciiLowercased($0) }
        guard let primary = parts.first, !primary.isEmpty, primary.allSatisfy(Self.isASCIILetter)
        else {
            // An empty or malformed primary subtag ("", "-", " ar", "12") is neither.
            return (false, false)
        }
        let script: String? =
            parts.count >= 2 && parts[1].count == 4 && parts[1].allSatisfy(Self.isASCIILetter)
            ? parts[1] : nil

        // Rule 3 (primary subtag), overridden by rule 2 (script subtag) when present.
        var isRightToLeft = Self.rightToLeftLanguages.contains(primary)
        var isCJK = Self.cjkLanguages.contains(primary)
        if let script {
            isRightToLeft = Self.rightToLeftScripts.contains(script)
            isCJK = Self.cjkScripts.contains(script)
        }
        // Rule 1: Chinese is right-to-left (vertical) only for exactly zh-Hant or zh-TW, whatever
        // the script rule says, as in Readium.
        if primary == "zh" {
            isRightToLeft = parts == ["zh", "hant"] || parts == ["zh", "tw"]
        }
        return (isRightToLeft, isCJK)
    }

    private static func isASCIILetter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(ascii | 0x20)
    }

    private static func asciiLowercased(_ text: Substring) -> String {
        // ASCII only: tags are ASCII, and a Unicode mapping could make a non-ASCII tag match.
        String(
            decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 },
            as: UTF8.self)
    }
}
