import Foundation
import Testing

@testable import ReadingPreferences

/// Specs/CSS.md §1.1: the map is sorted by name, the inline style joins `name: value !important;` with one
/// space, and numbers are written like the Specs/Settings.md §7 decimal format.
@Suite("Readium CSS output form: order, inline style and numbers")
struct ReadiumCSSFormTests {
    static let everything = """
        {"scroll": true, "columnCount": "2", "pageMargins": 1.5, "theme": "dark", "imageFilter": "invert",
         "textColor": "#fefefe", "backgroundColor": "#000000", "fontFamily": "Literata",
         "textNormalization": true, "fontSize": 1.2, "publisherStyles": false, "typeScale": 1.2,
         "textAlign": "justify", "lineHeight": 1.5, "paragraphSpacing": 0.5, "paragraphIndent": 1,
         "wordSpacing": 0.1, "letterSpacing": 0.2, "hyphens": true, "ligatures": false, "fontWeight": 1.25}
        """

    @Test("every property is written, sorted by name, with its exact value")
    func everyPropertySorted() throws {
        let css = try CSSFixture.css(Self.everything)
        let expected: [(String, String)] = [
            ("--USER__a11yNormalize", "readium-a11y-on"),
            ("--USER__advancedSettings", "readium-advanced-on"),
            ("--USER__appearance", "readium-night-on"),
            ("--USER__backgroundColor", "#000000"),
            ("--USER__bodyHyphens", "auto"),
            ("--USER__colCount", "2"),
            ("--USER__fontFamily", "Literata"),
            ("--USER__fontOverride", "readium-font-on"),
            ("--USER__fontSize", "120%"),
            ("--USER__invertImages", "readium-invert-on"),
            ("--USER__letterSpacing", "0.1rem"),
            ("--USER__ligatures", "none"),
            ("--USER__lineHeight", "1.5"),
            ("--USER__pageMargins", "1.5"),
            ("--USER__paraIndent", "1rem"),
            ("--USER__paraSpacing", "0.5rem"),
            ("--USER__textAlign", "justify"),
            ("--USER__textColor", "#FEFEFE"),
            ("--USER__typeScale", "1.2"),
            ("--USER__view", "readium-scroll-on"),
            ("--USER__wordSpacing", "0.1rem"),
            ("font-weight", "500"),
        ]
        #expect(css.names == expected.map(\.0))
        #expect(css.map(\.value) == expected.map(\.1))
    }

    @Test("reading-system properties sort with the user properties by name")
    func readingSystemPropertiesSorted() throws {
        let options = ReadiumCSSOptions(readingSystemProperties: [
            "--RS__textColor": "#333333", "--RS__backgroundColor": "#FFFFFF", "--zz": "1", "--AA": "2",
        ])
        let css = try CSSFixture.css(#"{"fontWeight": 1}"#, options: options)
        #expect(
            css.names == [
                "--AA", "--RS__backgroundColor", "--RS__textColor", "--USER__colCount", "--USER__fontSize",
                "--USER__pageMargins", "--USER__view", "--zz", "font-weight",
            ])
    }

    @Test("the inline style writes name: value !important; per property, joined by a single space")
    func inlineStyle() throws {
        let css = try CSSFixture.css(#"{"theme": "sepia"}"#)
        #expect(
            css.inlineStyle
                == "--USER__appearance: readium-sepia-on !important; --USER__colCount: auto !important; "
                + "--USER__fontSize: 100% !important; --USER__pageMargins: 1 !important; "
                + "--USER__view: readium-paged-on !important;")
    }

    @Test("the inline style of a single property has no separator")
    func inlineStyleOfOne() {
        let css = ReadiumCSSProperties([CSSProperty(name: "--USER__view", value: "readium-scroll-on")])
        #expect(css.inlineStyle == "--USER__view: readium-scroll-on !important;")
    }

    @Test("no properties give an empty inline style")
    func emptyInlineStyle() {
        #expect(ReadiumCSSProperties().inlineStyle == "")
    }

    @Test("a name missing from the map reads as nil")
    func missingName() throws {
        #expect(try CSSFixture.css()["--USER__textAlign"] == nil)
    }

    @Test(
        "numbers are rounded to 5 fraction digits and trimmed, never padded or written with an exponent",
        arguments: [
            (1.0, "1"), (1.5, "1.5"), (0.3, "0.3"), (1.0666666, "1.06667"), (2.123454, "2.12345"),
            (0.00001, "0.00001"), (0.000004, "0"), (0, "0"), (3.9999999, "4"), (1.23451, "1.23451"),
        ] as [(Double, String)])
    func numbers(value: Double, expected: String) throws {
        let css = try CSSFixture.css(#"{"pageMargins": \#(value)}"#)
        #expect(css["--USER__pageMargins"] == expected)
    }
}
