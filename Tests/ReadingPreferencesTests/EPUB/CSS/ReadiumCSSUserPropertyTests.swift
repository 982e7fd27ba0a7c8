import Foundation
import Testing

@testable import ReadingPreferences

/// Specs/CSS.md §1.3, the table of user properties, row by row.
@Suite("Readium CSS user properties follow the Specs/CSS.md §1.3 table")
struct ReadiumCSSUserPropertyTests {
    @Test("with no preferences only the properties marked always are written, from their fallbacks")
    func baseline() throws {
        let css = try CSSFixture.css()
        #expect(Dictionary(uniqueKeysWithValues: css.map { ($0.name, $0.value) }) == CSSFixture.baseline)
    }

    @Test(
        "view, column count, page margins and font size are always written",
        arguments: [
            ExpectedCSSProperty(#"{"scroll": true}"#, "--USER__view", "readium-scroll-on"),
            ExpectedCSSProperty(#"{"scroll": false}"#, "--USER__view", "readium-paged-on"),
            ExpectedCSSProperty(#"{}"#, "--USER__view", "readium-paged-on"),
            ExpectedCSSProperty(#"{"columnCount": "1"}"#, "--USER__colCount", "1"),
            ExpectedCSSProperty(#"{"columnCount": "2"}"#, "--USER__colCount", "2"),
            ExpectedCSSProperty(#"{"columnCount": "auto"}"#, "--USER__colCount", "auto"),
            ExpectedCSSProperty(#"{}"#, "--USER__colCount", "auto"),
            ExpectedCSSProperty(#"{"pageMargins": 1.5}"#, "--USER__pageMargins", "1.5"),
            ExpectedCSSProperty(#"{"pageMargins": 0}"#, "--USER__pageMargins", "0"),
            ExpectedCSSProperty(#"{"pageMargins": 4}"#, "--USER__pageMargins", "4"),
            ExpectedCSSProperty(#"{"pageMargins": 9}"#, "--USER__pageMargins", "4"),
            ExpectedCSSProperty(#"{}"#, "--USER__pageMargins", "1"),
            ExpectedCSSProperty(#"{"fontSize": 1.234}"#, "--USER__fontSize", "123.4%"),
            ExpectedCSSProperty(#"{"fontSize": 1.5}"#, "--USER__fontSize", "150%"),
            ExpectedCSSProperty(#"{"fontSize": 1.15}"#, "--USER__fontSize", "115%"),
            ExpectedCSSProperty(#"{"fontSize": 1.1}"#, "--USER__fontSize", "110%"),
            ExpectedCSSProperty(#"{"fontSize": 0.1}"#, "--USER__fontSize", "10%"),
            ExpectedCSSProperty(#"{"fontSize": 5}"#, "--USER__fontSize", "500%"),
            ExpectedCSSProperty(#"{"fontSize": 0.01}"#, "--USER__fontSize", "10%"),
            ExpectedCSSProperty(#"{"fontSize": 1.2345678}"#, "--USER__fontSize", "123.45678%"),
            ExpectedCSSProperty(#"{}"#, "--USER__fontSize", "100%"),
        ])
    func alwaysWritten(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test(
        "the theme gives the appearance flag, absent for light",
        arguments: [
            ExpectedCSSProperty(#"{"theme": "light"}"#, "--USER__appearance", nil),
            ExpectedCSSProperty(#"{"theme": "dark"}"#, "--USER__appearance", "readium-night-on"),
            ExpectedCSSProperty(#"{"theme": "sepia"}"#, "--USER__appearance", "readium-sepia-on"),
            ExpectedCSSProperty(#"{}"#, "--USER__appearance", nil),
        ])
    func appearance(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test("an unset theme in a dark system appearance gives the night flag (Specs/Resolution.md §4 step 7)")
    func appearanceFollowsSystem() throws {
        let css = try CSSFixture.css(environment: ReadingEnvironment(appearance: .dark))
        #expect(css["--USER__appearance"] == "readium-night-on")
    }

    @Test(
        "image filter flags are written when chosen, whatever the theme",
        arguments: [
            ExpectedCSSProperty(#"{"imageFilter": "darken"}"#, "--USER__darkenImages", "readium-darken-on"),
            ExpectedCSSProperty(#"{"imageFilter": "darken"}"#, "--USER__invertImages", nil),
            ExpectedCSSProperty(#"{"imageFilter": "invert"}"#, "--USER__invertImages", "readium-invert-on"),
            ExpectedCSSProperty(#"{"imageFilter": "invert"}"#, "--USER__darkenImages", nil),
            ExpectedCSSProperty(
                #"{"imageFilter": "invert", "theme": "dark"}"#, "--USER__invertImages", "readium-invert-on"),
            ExpectedCSSProperty(
                #"{"imageFilter": "darken", "theme": "sepia"}"#, "--USER__darkenImages", "readium-darken-on"),
            ExpectedCSSProperty(#"{"theme": "dark"}"#, "--USER__darkenImages", nil),
            ExpectedCSSProperty(#"{"theme": "dark"}"#, "--USER__invertImages", nil),
        ])
    func imageFilters(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test(
        "colors are written as upper-case #RRGGBB only when set, never from the theme",
        arguments: [
            ExpectedCSSProperty(##"{"textColor": "#ff0000"}"##, "--USER__textColor", "#FF0000"),
            ExpectedCSSProperty(##"{"textColor": "#abc"}"##, "--USER__textColor", "#AABBCC"),
            ExpectedCSSProperty(#"{"textColor": 255}"#, "--USER__textColor", "#0000FF"),
            ExpectedCSSProperty(
                #"{"backgroundColor": "rebeccapurple"}"#, "--USER__backgroundColor", "#663399"),
            ExpectedCSSProperty(##"{"backgroundColor": "#FAF4E8"}"##, "--USER__backgroundColor", "#FAF4E8"),
            ExpectedCSSProperty(#"{"theme": "dark"}"#, "--USER__textColor", nil),
            ExpectedCSSProperty(#"{"theme": "sepia"}"#, "--USER__backgroundColor", nil),
            ExpectedCSSProperty(##"{"textColor": "#12345"}"##, "--USER__textColor", nil),
        ])
    func colors(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test(
        "a font family or text normalization turns the font override on",
        arguments: [
            ExpectedCSSProperty(#"{"fontFamily": "Literata"}"#, "--USER__fontOverride", "readium-font-on"),
            ExpectedCSSProperty(#"{"fontFamily": "Literata"}"#, "--USER__fontFamily", "Literata"),
            ExpectedCSSProperty(
                #"{"fontFamily": "Iowan Old Style"}"#, "--USER__fontFamily", #""Iowan Old Style""#),
            ExpectedCSSProperty(#"{"fontFamily": "serif"}"#, "--USER__fontFamily", "serif"),
            ExpectedCSSProperty(#"{"textNormalization": true}"#, "--USER__fontOverride", "readium-font-on"),
            ExpectedCSSProperty(#"{"textNormalization": true}"#, "--USER__a11yNormalize", "readium-a11y-on"),
            ExpectedCSSProperty(#"{"textNormalization": true}"#, "--USER__fontFamily", nil),
            ExpectedCSSProperty(#"{"textNormalization": false}"#, "--USER__fontOverride", nil),
            ExpectedCSSProperty(#"{"textNormalization": false}"#, "--USER__a11yNormalize", nil),
            ExpectedCSSProperty(#"{}"#, "--USER__fontOverride", nil),
            ExpectedCSSProperty(#"{}"#, "--USER__fontFamily", nil),
        ])
    func fontOverride(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test(
        "publisher styles off turns the advanced settings flag on",
        arguments: [
            ExpectedCSSProperty(
                #"{"publisherStyles": false}"#, "--USER__advancedSettings", "readium-advanced-on"),
            ExpectedCSSProperty(#"{"publisherStyles": true}"#, "--USER__advancedSettings", nil),
            ExpectedCSSProperty(#"{}"#, "--USER__advancedSettings", nil),
        ])
    func advancedSettings(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test(
        "type scale, text alignment and line height are written only when resolved",
        arguments: [
            ExpectedCSSProperty(#"{"typeScale": 1.067}"#, "--USER__typeScale", "1.067"),
            ExpectedCSSProperty(#"{"typeScale": 1.618}"#, "--USER__typeScale", "1.618"),
            ExpectedCSSProperty(#"{"typeScale": 1}"#, "--USER__typeScale", "1"),
            ExpectedCSSProperty(#"{}"#, "--USER__typeScale", nil),
            ExpectedCSSProperty(#"{"textAlign": "justify"}"#, "--USER__textAlign", "justify"),
            ExpectedCSSProperty(#"{"textAlign": "left"}"#, "--USER__textAlign", "left"),
            ExpectedCSSProperty(#"{"textAlign": "right"}"#, "--USER__textAlign", "right"),
            ExpectedCSSProperty(#"{"textAlign": "start"}"#, "--USER__textAlign", "start"),
            ExpectedCSSProperty(#"{}"#, "--USER__textAlign", nil),
            ExpectedCSSProperty(#"{"lineHeight": 1.5}"#, "--USER__lineHeight", "1.5"),
            ExpectedCSSProperty(#"{"lineHeight": 1.234567}"#, "--USER__lineHeight", "1.23457"),
            ExpectedCSSProperty(#"{"lineHeight": 2}"#, "--USER__lineHeight", "2"),
            ExpectedCSSProperty(#"{}"#, "--USER__lineHeight", nil),
        ])
    func typography(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test(
        "spacing and indent are written in rem, letter spacing halved",
        arguments: [
            ExpectedCSSProperty(#"{"paragraphSpacing": 0.5}"#, "--USER__paraSpacing", "0.5rem"),
            ExpectedCSSProperty(#"{"paragraphSpacing": 2}"#, "--USER__paraSpacing", "2rem"),
            ExpectedCSSProperty(#"{}"#, "--USER__paraSpacing", nil),
            ExpectedCSSProperty(#"{"paragraphIndent": 1.2}"#, "--USER__paraIndent", "1.2rem"),
            ExpectedCSSProperty(#"{"paragraphIndent": 1.15}"#, "--USER__paraIndent", "1.15rem"),
            ExpectedCSSProperty(#"{"paragraphIndent": 0}"#, "--USER__paraIndent", "0rem"),
            ExpectedCSSProperty(#"{}"#, "--USER__paraIndent", nil),
            ExpectedCSSProperty(#"{"wordSpacing": 0.3}"#, "--USER__wordSpacing", "0.3rem"),
            ExpectedCSSProperty(#"{"wordSpacing": 1}"#, "--USER__wordSpacing", "1rem"),
            ExpectedCSSProperty(#"{}"#, "--USER__wordSpacing", nil),
            ExpectedCSSProperty(#"{"letterSpacing": 0.5}"#, "--USER__letterSpacing", "0.25rem"),
            ExpectedCSSProperty(#"{"letterSpacing": 0.35}"#, "--USER__letterSpacing", "0.175rem"),
            ExpectedCSSProperty(#"{"letterSpacing": 0.123456}"#, "--USER__letterSpacing", "0.06173rem"),
            ExpectedCSSProperty(#"{"letterSpacing": 1}"#, "--USER__letterSpacing", "0.5rem"),
            ExpectedCSSProperty(#"{"letterSpacing": 0}"#, "--USER__letterSpacing", "0rem"),
            ExpectedCSSProperty(#"{}"#, "--USER__letterSpacing", nil),
        ])
    func spacing(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test(
        "hyphens are written only when resolved, never derived from justified text",
        arguments: [
            ExpectedCSSProperty(#"{"hyphens": true}"#, "--USER__bodyHyphens", "auto"),
            ExpectedCSSProperty(#"{"hyphens": false}"#, "--USER__bodyHyphens", "none"),
            ExpectedCSSProperty(#"{"textAlign": "justify"}"#, "--USER__bodyHyphens", nil),
            ExpectedCSSProperty(
                #"{"textAlign": "justify", "publisherStyles": false}"#, "--USER__bodyHyphens", nil),
            ExpectedCSSProperty(#"{}"#, "--USER__bodyHyphens", nil),
        ])
    func hyphens(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test(
        "ligatures are written when resolved",
        arguments: [
            ExpectedCSSProperty(#"{"ligatures": true}"#, "--USER__ligatures", "common-ligatures"),
            ExpectedCSSProperty(#"{"ligatures": false}"#, "--USER__ligatures", "none"),
            ExpectedCSSProperty(#"{}"#, "--USER__ligatures", nil),
        ])
    func ligatures(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test(
        "font-weight is 400 times the value, rounded half away from zero, clamped to 1...1000",
        arguments: [
            ExpectedCSSProperty(#"{"fontWeight": 0.25}"#, "font-weight", "100"),
            ExpectedCSSProperty(#"{"fontWeight": 1}"#, "font-weight", "400"),
            ExpectedCSSProperty(#"{"fontWeight": 1.234}"#, "font-weight", "494"),
            ExpectedCSSProperty(#"{"fontWeight": 1.00125}"#, "font-weight", "401"),
            ExpectedCSSProperty(#"{"fontWeight": 1.23625}"#, "font-weight", "495"),
            ExpectedCSSProperty(#"{"fontWeight": 2.5}"#, "font-weight", "1000"),
            ExpectedCSSProperty(#"{"fontWeight": 0}"#, "font-weight", "1"),
            ExpectedCSSProperty(#"{"fontWeight": 0.001}"#, "font-weight", "1"),
            ExpectedCSSProperty(#"{}"#, "font-weight", nil),
        ])
    func fontWeight(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(row.preferences)[row.name] == row.value)
    }

    @Test(
        "the font-weight helper clamps outside the preference range",
        arguments: [
            (0.001, "1"), (0.00125, "1"), (0, "1"), (-1, "1"), (2.5, "1000"), (2.51, "1000"), (100, "1000"),
            (0.30125, "121"), (0.75, "300"),
        ] as [(Double, String)])
    func fontWeightHelper(value: Double, expected: String) {
        #expect(ReadiumCSSRow.fontWeight(value) == expected)
    }

    @Test(
        "a value that only an app default supplies is written",
        arguments: [
            ExpectedCSSProperty(#"{"lineHeight": 1.4}"#, "--USER__lineHeight", "1.4"),
            ExpectedCSSProperty(#"{"textAlign": "justify"}"#, "--USER__textAlign", "justify"),
            ExpectedCSSProperty(#"{"fontWeight": 1.5}"#, "font-weight", "600"),
            ExpectedCSSProperty(#"{"hyphens": false}"#, "--USER__bodyHyphens", "none"),
            ExpectedCSSProperty(#"{"theme": "sepia"}"#, "--USER__appearance", "readium-sepia-on"),
            ExpectedCSSProperty(#"{"pageMargins": 2}"#, "--USER__pageMargins", "2"),
            // Specs/Resolution.md §5: the defaults may not set a font family or the colors.
            ExpectedCSSProperty(#"{"fontFamily": "Literata"}"#, "--USER__fontFamily", nil),
            ExpectedCSSProperty(##"{"textColor": "#FF0000"}"##, "--USER__textColor", nil),
        ])
    func fromDefaults(row: ExpectedCSSProperty) throws {
        #expect(try CSSFixture.css(defaults: row.preferences)[row.name] == row.value)
    }

    @Test("values are written whether or not Readium CSS applies them")
    func writtenWithPublisherStyles() throws {
        let css = try CSSFixture.css(#"{"wordSpacing": 0.5, "publisherStyles": true}"#)
        #expect(css["--USER__wordSpacing"] == "0.5rem")
        #expect(css["--USER__advancedSettings"] == nil)
    }

    @Test("a stored font family not available for the publication writes no family and no override")
    func unavailableFamily() throws {
        let resolver = EPUB.Resolver(
            publication: PublicationContext(languages: ["en"]), availableFontFamilies: ["Literata", "serif"])
        let unavailable = resolver.resolve(try Preferences(json: #"{"fontFamily": "Comic Sans"}"#))
            .readiumCSS()
        #expect(unavailable["--USER__fontFamily"] == nil)
        #expect(unavailable["--USER__fontOverride"] == nil)
        let available = resolver.resolve(try Preferences(json: #"{"fontFamily": "Literata"}"#)).readiumCSS()
        #expect(available["--USER__fontFamily"] == "Literata")
        #expect(available["--USER__fontOverride"] == "readium-font-on")
    }

    @Test("the settings of an editor give the same CSS as the resolver")
    func throughTheEditor() throws {
        let json = #"{"fontSize": 1.3, "theme": "dark", "textAlign": "start", "publisherStyles": false}"#
        let resolver = EPUB.Resolver(publication: PublicationContext(languages: ["en"]))
        let editor = EPUB.Editor(preferences: try Preferences(json: json), resolver: resolver)
        let css = editor.settings.readiumCSS()
        #expect(css == resolver.resolve(try Preferences(json: json)).readiumCSS())
        #expect(css["--USER__fontSize"] == "130%")
        #expect(css["--USER__textAlign"] == "start")
    }
}
