import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Languages (Specs/Resolution.md §3)")
struct LanguageTests {
    @Test(
        "Right-to-left and CJK follow the Chinese rule, then the script, then the primary subtag",
        arguments: [
            // (tag, isRightToLeft, isCJK)
            // Primary subtag decides; regions never matter.
            ("ar", true, false), ("ar-EG", true, false), ("AR", true, false), ("fa", true, false),
            ("he", true, false), ("he-IL", true, false), ("iw", true, false), ("ur", true, false),
            ("ps", true, false), ("sd", true, false), ("ug", true, false), ("yi", true, false),
            ("ji", true, false), ("dv", true, false), ("ckb", true, false), ("ckb-IQ", true, false),
            ("ja", false, true), ("ja-JP", false, true), ("ko", false, true), ("ko-KR", false, true),
            ("en", false, false), ("en-US", false, false), ("ar-", true, false),
            // Chinese: right-to-left (vertical) only for exactly zh-Hant or zh-TW.
            ("zh", false, true), ("zh-HK", false, true), ("zh-Hans", false, true), ("zh-CN", false, true),
            ("zh-Hant", true, true), ("zh-TW", true, true), ("zh_TW", true, true), ("ZH-hant", true, true),
            ("zh_hant", true, true), ("zh-tw", true, true), ("zh-Hant-TW", false, true),
            ("zh-Hant-HK", false, true), ("zh-TW-x-private", false, true), ("zh--Hant", false, true),
            // A script subtag decides when present.
            ("az-Arab", true, false), ("az-arab-IR", true, false), ("en-Arab", true, false),
            ("ar-Latn", false, false), ("ja-Latn", false, false), ("en-Hani", false, true),
            ("ko-Kore", false, true), ("sr-Latn", false, false), ("ms-Arab", true, false),
            ("dv-Thaa", true, false), ("ff-Adlm", true, false), ("en-Hebr", true, false),
            // Empty or malformed tags are neither.
            ("", false, false), ("-", false, false), ("_", false, false), ("--", false, false),
            ("-ar", false, false), (" ar", false, false), ("ar ", false, false), ("12-Arab", false, false),
            ("\u{0627}\u{0644}", false, false),
        ] as [(String, Bool, Bool)])
    func predicates(tag: String, isRightToLeft: Bool, isCJK: Bool) {
        let language = LanguageTag(code: tag)
        #expect(language.isRightToLeft == isRightToLeft)
        #expect(language.isCJK == isCJK)
    }

    @Test("The code keeps its case and replaces every underscore with a hyphen")
    func codeNormalization() {
        #expect(LanguageTag(code: "zh_Hant_TW").code == "zh-Hant-TW")
        #expect(LanguageTag(code: "EN_us").code == "EN-us")
        #expect(LanguageTag(code: "_").code == "-")
        let literal: LanguageTag = "pt_BR"
        #expect(literal == LanguageTag(code: "pt-BR"))
        #expect(literal.description == "pt-BR")
    }

    @Test(
        "The primary subtag is lower-cased and the script subtag title-cased",
        arguments: [
            ("ZH-hant-TW", "zh", "Hant"), ("en-US", "en", nil), ("az_ARAB", "az", "Arab"), ("ja", "ja", nil),
            ("", "", nil), ("-", "", nil), ("en-1234", "en", nil), ("sr-Latn-RS", "sr", "Latn"),
        ] as [(String, String, String?)])
    func subtags(tag: String, primary: String, script: String?) {
        let language = LanguageTag(code: tag)
        #expect(language.primarySubtag == primary)
        #expect(language.scriptSubtag == script)
    }

    @Test("Codable uses a single string, normalizing underscores")
    func codable() throws {
        let decoded = try JSONDecoder().decode([LanguageTag].self, from: Data(#"["zh_TW","en"]"#.utf8))
        #expect(decoded == [LanguageTag(code: "zh-TW"), LanguageTag(code: "en")])
        let encoded = try JSONEncoder().encode(decoded)
        #expect(String(decoding: encoded, as: UTF8.self) == #"["zh-TW","en"]"#)
    }
}
