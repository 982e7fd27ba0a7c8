import Foundation
import Testing

@testable import ReadingPreferences

/// Specs/Resolution.md §4 step 5 and Specs/CSS.md §1.7: the stylesheet variant, the HTML `dir` and the `lang` of the resolved
/// settings.
@Suite("The page layout of resolved settings")
struct CSSPageLayoutTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var languages: [LanguageTag]
        var readingProgression: PublicationReadingProgression = .auto
        var preferences = "{}"
        var stylesheets: EPUB.StylesheetVariant
        var htmlDirection: EPUB.HTMLDirection?
        var language: LanguageTag?

        var testDescription: String {
            "\(languages) \(readingProgression) \(preferences) → \(stylesheets)"
        }
    }

    @Test(
        "the variant follows vertical text, then CJK, then right-to-left; dir is ltr, rtl, ltr or none",
        arguments: [
            Row(languages: ["en"], stylesheets: .default, htmlDirection: .ltr, language: "en"),
            Row(languages: ["ar"], stylesheets: .rtl, htmlDirection: .rtl, language: "ar"),
            Row(languages: ["ar-EG"], stylesheets: .rtl, htmlDirection: .rtl, language: "ar-EG"),
            Row(languages: ["he"], stylesheets: .rtl, htmlDirection: .rtl, language: "he"),
            Row(languages: ["fa"], stylesheets: .rtl, htmlDirection: .rtl, language: "fa"),
            Row(languages: ["ja"], stylesheets: .cjkHorizontal, htmlDirection: .ltr, language: "ja"),
            Row(
                languages: ["ja"], readingProgression: .rtl, stylesheets: .cjkVertical, htmlDirection: nil,
                language: "ja"),
            Row(
                languages: ["ja"], readingProgression: .ltr, stylesheets: .cjkHorizontal, htmlDirection: .ltr,
                language: "ja"),
            Row(
                languages: ["ja"], readingProgression: .rtl, preferences: #"{"readingProgression": "ltr"}"#,
                stylesheets: .cjkHorizontal, htmlDirection: .ltr, language: "ja"),
            Row(
                languages: ["ja"], readingProgression: .rtl, preferences: #"{"verticalText": false}"#,
                stylesheets: .cjkHorizontal, htmlDirection: .ltr, language: "ja"),
            Row(languages: ["zh-TW"], stylesheets: .cjkVertical, htmlDirection: nil, language: "zh-TW"),
            Row(languages: ["zh-Hant"], stylesheets: .cjkVertical, htmlDirection: nil, language: "zh-Hant"),
            Row(
                languages: ["zh-Hant-TW"], stylesheets: .cjkHorizontal, htmlDirection: .ltr,
                language: "zh-Hant-TW"),
            Row(languages: ["zh"], stylesheets: .cjkHorizontal, htmlDirection: .ltr, language: "zh"),
            Row(languages: ["ko"], stylesheets: .cjkHorizontal, htmlDirection: .ltr, language: "ko"),
            Row(
                languages: ["ko"], readingProgression: .rtl, stylesheets: .cjkVertical, htmlDirection: nil,
                language: "ko"),
            Row(
                languages: ["en"], preferences: #"{"verticalText": true}"#, stylesheets: .cjkVertical,
                htmlDirection: nil, language: "en"),
            Row(
                languages: ["en"], preferences: #"{"readingProgression": "rtl"}"#, stylesheets: .rtl,
                htmlDirection: .rtl, language: "en"),
            Row(
                languages: ["en"], preferences: #"{"language": "ar"}"#, stylesheets: .rtl,
                htmlDirection: .rtl,
                language: "ar"),
            Row(
                languages: ["ar"], preferences: #"{"language": "en"}"#, stylesheets: .default,
                htmlDirection: .ltr, language: "en"),
            Row(
                languages: ["ar"], readingProgression: .ltr, stylesheets: .default, htmlDirection: .ltr,
                language: "ar"),
            Row(languages: [], stylesheets: .default, htmlDirection: .ltr, language: nil),
        ])
    func layout(row: Row) throws {
        let settings = try CSSFixture.settings(
            row.preferences, languages: row.languages, readingProgression: row.readingProgression)
        let layout = settings.pageLayout
        #expect(layout.stylesheets == row.stylesheets)
        #expect(layout.htmlDirection == row.htmlDirection)
        #expect(layout.language == row.language)
    }

    @Test("the layout language comes from an app default when nothing else gives one")
    func languageFromDefaults() throws {
        let settings = try CSSFixture.settings(languages: [], defaults: #"{"language": "he"}"#)
        #expect(settings.pageLayout.language == "he")
        #expect(settings.pageLayout.stylesheets == .rtl)
        #expect(settings.pageLayout.htmlDirection == .rtl)
    }

    @Test("vertical text forces scroll, so the view property is scroll")
    func verticalTextScrolls() throws {
        let css = try CSSFixture.css(#"{"scroll": false}"#, languages: ["ja"], readingProgression: .rtl)
        #expect(css["--USER__view"] == "readium-scroll-on")
    }

    @Test("a screen reader forces scroll, so the view property is scroll")
    func forcedScroll() throws {
        let css = try CSSFixture.css(environment: ReadingEnvironment(forceScroll: true))
        #expect(css["--USER__view"] == "readium-scroll-on")
    }
}
