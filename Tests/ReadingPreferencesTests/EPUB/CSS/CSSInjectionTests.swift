import Foundation
import TestSupport
import Testing

@testable import ReadingPreferences

/// Stored values can never inject CSS or HTML (issue 11, finding 2; Specs/Settings.md §2, Specs/CSS.md §1.5).
@Suite("No CSS or HTML injection")
struct CSSInjectionTests {
    @Test(
        "a font family is written as a CSS string that cannot end early",
        arguments: [
            ("Line\nBreak", #""Line\a Break""#),
            ("Nul\u{0}Byte", "\"Nul\u{FFFD}Byte\""),
            ("Tab\tand\u{7F}", #""Tab\9 and\7f ""#),
            (#"Quote" ; color: red"#, #""Quote\" ; color: red""#),
            (#"Back\slash"#, #""Back\\slash""#),
            ("x\"; } body { background: url(evil) ", #""x\"; } body { background: url(evil) ""#),
        ])
    func fontFamilyEscaping(name: String, css: String) throws {
        #expect(FontFamilyRegistry().cssValue(for: name) == css)
        let style = try CSSFixture.css(JSONValue.object(["fontFamily": .string(name)]).jsonString())
            .inlineStyle
        let declarations = try CSSDeclarationReader.declarations(style)
        let family = try #require(declarations.first { $0.name == "--USER__fontFamily" })
        #expect(family.value == css)
        let expectedName = String(
            String.UnicodeScalarView(name.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
        #expect(CSSDeclarationReader.decodeString(family.value) == expectedName)
    }

    @Test("the inline style tokenizes back to exactly the declarations the engine meant, for any family")
    func inlineStyleTokenizes() {
        forAll(
            "the inline style tokenizes to the declarations",
            generate: { random -> String in
                let alphabet: [Unicode.Scalar] = [
                    "a", "Z", " ", "\"", "'", "\\", ";", ":", "{", "}", "!", "\n", "\r", "\u{0}", "\u{1}",
                    "\u{1F}",
                    "\u{7F}", "\u{C}", "é", "\u{301}", "😀", "-", "_", "(", ")", "/", "*",
                ]
                var name = String.UnicodeScalarView()
                for _ in 0..<random.int(in: 1...12) { name.append(random.pick(alphabet)) }
                return String(name)
            },
            shrink: { name in name.isEmpty ? [] : [String(name.dropLast()), String(name.dropFirst())] }
        ) { name in
            var fonts = FontFamilyRegistry()
            fonts.register(.init(name: name, alternates: [name + "2", "serif"]))
            var preferences = Preferences()
            preferences["fontFamily"] = .string(name)
            let settings = EPUB.Resolver().resolve(preferences)
            let css = settings.readiumCSS(options: ReadiumCSSOptions(fonts: fonts))
            let read: [CSSDeclarationReader.Declaration]
            do {
                read = try CSSDeclarationReader.declarations(css.inlineStyle)
            } catch {
                throw PropertyFailure(
                    description: "the style does not tokenize (\(error)): \(css.inlineStyle)")
            }
            let meant = css.properties.map {
                CSSDeclarationReader.Declaration(name: $0.name, value: $0.value)
            }
            try ensure(read == meant, "read \(read), meant \(meant)")
            try ensure(
                !css.inlineStyle.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
                "a raw control character in \(css.inlineStyle.debugDescription)")
        }
    }

    @Test(
        "a language that is not a well-formed tag is rejected, so a lang attribute only ever holds a tag",
        arguments: [
            #"en" onload="x"#, "en us", "", "-en", "en-", "toolongsubtag", "1en", "en--US", "en_", "é",
        ])
    func malformedLanguage(tag: String) throws {
        var editor = EPUB.Editor(resolver: EPUB.Resolver())
        #expect(throws: PreferenceError.self) { try editor.set(.language, LanguageTag(code: tag)) }
        #expect(editor.preferences.isEmpty)
        let diagnostics = EPUB.catalogue.diagnostics(for: ["language": .string(tag)])
        #expect(diagnostics.map(\.code) == [.unsupportedValue])
        let layout = EPUB.Resolver().resolve(["language": .string(tag)]).pageLayout
        #expect(layout.language == nil)
    }

    @Test("a malformed publication language never reaches the page layout")
    func malformedPublicationLanguage() {
        let resolver = EPUB.Resolver(publication: PublicationContext(languages: [#"ar" x="y"#]))
        #expect(resolver.resolve(Preferences()).pageLayout.language == nil)
        let arabic = EPUB.Resolver(publication: PublicationContext(languages: ["ar_EG"]))
        #expect(arabic.resolve(Preferences()).pageLayout.language == "ar-EG")
    }

    @Test(
        "well-formed tags are accepted as written",
        arguments: ["en", "sr-Latn-RS", "zh-Hant-TW", "x-klingon", "de-1996"])
    func wellFormed(tag: String) throws {
        var editor = EPUB.Editor(resolver: EPUB.Resolver())
        try editor.set(.language, LanguageTag(code: tag))
        #expect(editor.preferences["language"] == .string(tag))
    }
}
