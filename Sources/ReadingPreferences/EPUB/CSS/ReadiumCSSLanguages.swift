/// Readium CSS 2's per-language data (`css/vars/i18n.json`): the line-height compensation of
/// scripts whose glyphs are square-ish (CJK, Indic, Ethiopic...), which Readium CSS applies to its
/// default line height and an app must apply to the user's (Specs/CSS.md §4.3).
enum ReadiumCSSLanguages {
    /// The compensation of each language tag that has one other than 1, keys lower-cased. The test
    /// suite checks it against `i18n.json`.
    static let compensations: [String: Double] = [
        "am": 1.167, "bn": 1.067, "chr": 1.167, "gu": 1.167, "he": 1.1, "hi": 1.1, "ja": 1.167,
        "km": 1.067, "kn": 1.1, "ko": 1.167, "ml": 1.067, "or": 1.167, "pa": 1.1, "si": 1.167,
        "ta": 1.067, "th": 1.067, "zh": 1.167, "zh-hant": 1.167, "zh-tw": 1.167, "zh-hk": 1.167,
    ]

    /// The compensation for a BCP-47 tag: the whole tag, then the tag less its last subtag, and so
    /// on down to the primary language (`zh-Hant-TW` → `zh-Hant`), compared case-insensitively
    /// with `_` read as `-`; 1 when none has one (Latin scripts, Arabic...).
    ///
    /// - Parameter tag: The resolved language.
    /// - Returns: The factor to multiply a line height by.
    static func lineHeightCompensation(_ tag: String) -> Double {
        var key = tag.lowercased().replacingOccurrences(of: "_", with: "-")
        while !key.isEmpty {
            if let value = compensations[key] { return value }
            guard let dash = key.lastIndex(of: "-") else { break }
            key = String(key[..<dash])
        }
        return 1
    }
}
