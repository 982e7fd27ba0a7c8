import Foundation
import Testing

@testable import ReadingPreferences

/// Specs/CSS.md §1.5, `--USER__fontFamily`: the family, then its registered alternates resolved
/// recursively, each name once, quoted where it is not a generic family or an identifier.
@Suite("Font family stacks")
struct CSSFontFamilyRegistryTests {
    @Test("with an empty registry the stack is the chosen name alone")
    func emptyRegistry() throws {
        let registry = FontFamilyRegistry()
        #expect(registry.stack(for: "Literata") == ["Literata"])
        #expect(registry.cssValue(for: "Iowan Old Style") == #""Iowan Old Style""#)
        #expect(try CSSFixture.css(#"{"fontFamily": "Literata"}"#)["--USER__fontFamily"] == "Literata")
    }

    @Test("no family is registered by default")
    func nothingByDefault() {
        #expect(FontFamilyRegistry().entries.isEmpty)
        #expect(ReadiumCSSOptions().fonts.entries.isEmpty)
    }

    @Test("alternates are resolved recursively, depth first, over two levels")
    func twoLevels() throws {
        let registry = FontFamilyRegistry([
            .init(name: "Literata", alternates: ["Iowan Old Style", "serif"]),
            .init(name: "Iowan Old Style", alternates: ["Georgia", "Times New Roman"]),
        ])
        #expect(
            registry.stack(for: "Literata") == [
                "Literata", "Iowan Old Style", "Georgia", "Times New Roman", "serif",
            ])
        #expect(
            registry.cssValue(for: "Literata")
                == #"Literata, "Iowan Old Style", Georgia, "Times New Roman", serif"#)
        let css = try CSSFixture.css(
            #"{"fontFamily": "Literata"}"#, options: ReadiumCSSOptions(fonts: registry))
        #expect(
            css["--USER__fontFamily"] == #"Literata, "Iowan Old Style", Georgia, "Times New Roman", serif"#)
    }

    @Test("a family that is only an alternate has its own stack")
    func alternateStack() {
        let registry = FontFamilyRegistry([
            .init(name: "Literata", alternates: ["Iowan Old Style"]),
            .init(name: "Iowan Old Style", alternates: ["serif"]),
        ])
        #expect(registry.stack(for: "Iowan Old Style") == ["Iowan Old Style", "serif"])
        #expect(registry.stack(for: "Unregistered") == ["Unregistered"])
    }

    @Test("a cycle A → B → A terminates with each name once")
    func cycle() {
        let registry = FontFamilyRegistry([
            .init(name: "A", alternates: ["B"]),
            .init(name: "B", alternates: ["A", "serif"]),
        ])
        #expect(registry.stack(for: "A") == ["A", "B", "serif"])
        #expect(registry.stack(for: "B") == ["B", "A", "serif"])
        #expect(registry.cssValue(for: "A") == "A, B, serif")
    }

    @Test("a family listing itself and a shared alternate appear once")
    func selfAndDiamond() {
        let registry = FontFamilyRegistry([
            .init(name: "A", alternates: ["A", "B", "C"]),
            .init(name: "B", alternates: ["C", "sans-serif"]),
            .init(name: "C", alternates: ["sans-serif"]),
        ])
        #expect(registry.stack(for: "A") == ["A", "B", "C", "sans-serif"])
    }

    @Test("registering a name again replaces its entry")
    func reregister() {
        var registry = FontFamilyRegistry([.init(name: "A", alternates: ["serif"])])
        registry.register(.init(name: "A", alternates: ["monospace"]))
        #expect(registry.entries.count == 1)
        #expect(registry.stack(for: "A") == ["A", "monospace"])
    }

    @Test(
        "generic families and identifiers are bare, other names quoted with \\ and \" escaped",
        arguments: [
            ("serif", "serif"), ("sans-serif", "sans-serif"), ("monospace", "monospace"),
            ("cursive", "cursive"), ("fantasy", "fantasy"), ("system-ui", "system-ui"),
            ("Literata", "Literata"), ("OpenDyslexic", "OpenDyslexic"), ("-apple-system", "-apple-system"),
            ("_private", "_private"), ("Noto_Sans-JP2", "Noto_Sans-JP2"),
            ("Iowan Old Style", #""Iowan Old Style""#), ("Times New Roman", #""Times New Roman""#),
            (#"My "Font""#, #""My \"Font\"""#), (#"Back\slash"#, #""Back\\slash""#),
            (#"Both"\"#, #""Both\"\\""#), ("1Font", #""1Font""#), ("3", #""3""#),
            ("--double", #""--double""#), ("-1x", #""-1x""#), ("-", #""-""#), ("", #""""#),
            ("Ünicode", #""Ünicode""#), ("Fira.Sans", #""Fira.Sans""#),
        ] as [(String, String)])
    func quoting(name: String, expected: String) {
        #expect(FontFamilyRegistry.cssName(name) == expected)
        #expect(FontFamilyRegistry().cssValue(for: name) == expected)
    }

    @Test("a quoted name in a preference is escaped in the CSS")
    func quotedPreference() throws {
        let css = try CSSFixture.css(#"{"fontFamily": "My \"Font\""}"#)
        #expect(css["--USER__fontFamily"] == #""My \"Font\"""#)
    }

    @Test("the @font-face rules of the registered families are joined by newlines")
    func fontFaces() {
        let registry = FontFamilyRegistry([
            .init(name: "A", fontFace: "@font-face { font-family: A; }"),
            .init(name: "B"),
            .init(name: "C", fontFace: "@font-face { font-family: C; }"),
        ])
        #expect(registry.fontFaceCSS == "@font-face { font-family: A; }\n@font-face { font-family: C; }")
    }
}
