import Testing

@testable import ReadingPreferences

@Suite(
    "Readium CSS properties say which settings they come from, and which take no effect (Specs/CSS.md §1.1)")
struct CSSNotInEffectTests {
    static func editor(_ json: String) throws -> EPUB.Editor {
        EPUB.Editor(
            preferences: try Preferences(json: json),
            resolver: EPUB.Resolver(publication: PublicationContext(layout: .reflowable, languages: ["en"])))
    }

    @Test(
        "each property names its settings",
        arguments: [
            ("--USER__invertImages", ["imageFilter"]),
            ("--USER__fontOverride", ["fontFamily", "textNormalization"]),
            ("font-weight", ["fontWeight"]), ("--RS__something", []),
        ])
    func keys(name: String, keys: [String]) {
        #expect(EPUB.settingKeys(ofReadiumCSSProperty: name) == keys)
    }

    @Test("an image filter with the sepia theme is written but not in effect; with the dark theme it is")
    func imageFilter() throws {
        let sepia = try Self.editor(#"{"theme": "sepia", "imageFilter": "invert"}"#)
        #expect(sepia.settings.readiumCSS().contains { $0.name == "--USER__invertImages" })
        #expect(sepia.readiumCSSPropertiesNotInEffect == ["--USER__invertImages"])
        let dark = try Self.editor(#"{"theme": "dark", "imageFilter": "invert"}"#)
        #expect(dark.readiumCSSPropertiesNotInEffect.isEmpty)
    }

    @Test("a spacing while publisher styles are on is not in effect")
    func spacing() throws {
        let editor = try Self.editor(#"{"wordSpacing": 0.4, "publisherStyles": true}"#)
        #expect(editor.readiumCSSPropertiesNotInEffect == ["--USER__wordSpacing"])
    }
}

@Suite("Dialects are named once, in the library (Specs/CSS.md §2)")
struct DialectNameTests {
    @Test("names, short names and lookups agree for every dialect")
    func names() {
        #expect(
            ReadiumDialect.names == [
                "readium-swift", "readium-kotlin", "readium-ts", "readium-ts@2.2", "readium-css2",
            ])
        for dialect in ReadiumDialect.allCases {
            #expect(ReadiumDialect(name: dialect.name) == dialect)
            #expect(ReadiumDialect(nameOrShortName: dialect.shortName) == dialect)
            #expect(ReadiumDialect(name: dialect.shortName) == nil)
        }
        #expect(ReadiumDialect(nameOrShortName: "kotlin") == .readiumKotlin)
    }

    @Test("a setting says what it accepts, for messages about a rejected value")
    func expected() {
        #expect(EPUB.theme.descriptor.expectedValues == #"one of "light", "dark", "sepia""#)
        #expect(EPUB.fontSize.descriptor.expectedValues == "a number from 0.1 to 5")
        #expect(EPUB.columnCount.descriptor.allowedValues == ["auto", "1", "2"])
        #expect(EPUB.fontSize.descriptor.allowedValues == nil)
    }
}
