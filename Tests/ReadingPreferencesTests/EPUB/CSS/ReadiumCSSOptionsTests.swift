import Foundation
import Testing

@testable import ReadingPreferences

/// Specs/CSS.md §1.6: reading-system properties are merged first, app overrides win last (an override of
/// `null` removes the property), and a fixed-layout publication gets no properties at all.
@Suite("Reading-system properties, overrides and fixed layout")
struct ReadiumCSSOptionsTests {
    @Test("reading-system properties are added to the user properties")
    func readingSystemPropertiesAdded() throws {
        let options = ReadiumCSSOptions(readingSystemProperties: [
            "--RS__backgroundColor": "#FFFFFF", "--RS__maxLineLength": "40rem",
        ])
        let css = try CSSFixture.css(options: options)
        #expect(css["--RS__backgroundColor"] == "#FFFFFF")
        #expect(css["--RS__maxLineLength"] == "40rem")
        #expect(css.count == CSSFixture.baseline.count + 2)
    }

    @Test("a user property wins over a reading-system property of the same name, merged before it")
    func userPropertyBeatsReadingSystem() throws {
        let options = ReadiumCSSOptions(readingSystemProperties: ["--USER__fontSize": "50%"])
        let css = try CSSFixture.css(#"{"fontSize": 1.5}"#, options: options)
        #expect(css["--USER__fontSize"] == "150%")
        #expect(css.names.filter { $0 == "--USER__fontSize" }.count == 1)
    }

    @Test("an override replaces a user property")
    func overrideReplaces() throws {
        let options = ReadiumCSSOptions(overrides: ["--USER__fontSize": "200%"])
        let css = try CSSFixture.css(#"{"fontSize": 1.5}"#, options: options)
        #expect(css["--USER__fontSize"] == "200%")
        #expect(css.names.filter { $0 == "--USER__fontSize" }.count == 1)
    }

    @Test("an override of null removes a user property")
    func overrideNullRemovesUserProperty() throws {
        let options = ReadiumCSSOptions(overrides: ["--USER__view": nil, "--USER__appearance": nil])
        let css = try CSSFixture.css(#"{"theme": "dark"}"#, options: options)
        #expect(css["--USER__view"] == nil)
        #expect(css["--USER__appearance"] == nil)
        #expect(css.names == ["--USER__colCount", "--USER__fontSize", "--USER__pageMargins"])
    }

    @Test("an override of null removes a reading-system property, and an override replaces one")
    func overrideAppliesToReadingSystem() throws {
        let options = ReadiumCSSOptions(
            readingSystemProperties: ["--RS__backgroundColor": "#FFFFFF", "--RS__textColor": "#121212"],
            overrides: ["--RS__backgroundColor": nil, "--RS__textColor": "#333333"])
        let css = try CSSFixture.css(options: options)
        #expect(css["--RS__backgroundColor"] == nil)
        #expect(css["--RS__textColor"] == "#333333")
    }

    @Test("an override adds a property, and a null for an absent property changes nothing")
    func overrideAddsAndIgnores() throws {
        let options = ReadiumCSSOptions(overrides: ["--USER__textAlign": "left", "--USER__lineHeight": nil])
        let css = try CSSFixture.css(options: options)
        #expect(css["--USER__textAlign"] == "left")
        #expect(css["--USER__lineHeight"] == nil)
        #expect(css.count == CSSFixture.baseline.count + 1)
    }

    @Test("the override order is the sorted order, not the order given")
    func overridesStaySorted() throws {
        let options = ReadiumCSSOptions(overrides: ["--USER__a": "1", "--USER__zz": "2"])
        let css = try CSSFixture.css(options: options)
        #expect(css.names == css.names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(css.names.first == "--USER__a")
    }

    @Test("a fixed-layout publication gets no user, reading-system or override properties at all")
    func fixedLayoutGetsNothing() throws {
        let options = ReadiumCSSOptions(
            fonts: FontFamilyRegistry([.init(name: "Literata", alternates: ["serif"])]),
            readingSystemProperties: ["--RS__backgroundColor": "#FFFFFF"],
            overrides: ["--USER__fontSize": "200%", "--USER__view": nil])
        let css = try CSSFixture.css(
            ReadiumCSSFormTests.everything, layout: .fixed, options: options)
        #expect(css.isEmpty)
        #expect(css.names == [])
        #expect(css.inlineStyle == "")
    }

    @Test("a fixed-layout publication with no preferences gets no properties either")
    func fixedLayoutBaseline() throws {
        #expect(try CSSFixture.css(languages: ["ja"], layout: .fixed).isEmpty)
    }
}
