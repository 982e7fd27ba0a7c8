import Foundation
import Testing

@testable import ReadingPreferences

@Suite("A settings form groups settings as a reader expects (Specs/Resolution.md §9.4, §5)")
struct FormGroupTests {
    static func form(_ publication: PublicationContext, preferences: Preferences = Preferences())
        -> SettingsForm
    {
        EPUB.Editor(preferences: preferences, resolver: EPUB.Resolver(publication: publication)).form()
    }

    @Test(
        "a reflowable English book: theme and colors, text, spacing, layout, then the fixed-layout settings apart"
    )
    func reflowableSections() {
        let form = Self.form(PublicationContext(layout: .reflowable, languages: ["en"]))
        #expect(form.sections.map(\.id) == ["theme", "text", "spacing", "layout", "notForThisPublication"])
        #expect(
            form.sections.map(\.title) == [
                "Theme and colors", "Text", "Spacing", "Layout", "Not for this book",
            ])
        #expect(form.sections[0].rows.map(\.key) == ["theme", "backgroundColor", "textColor", "imageFilter"])
        #expect(form.sections[2].rows.first?.key == "publisherStyles")
        // Fixed-layout settings, and ligatures (right-to-left stylesheet only), cannot apply here.
        let outside = form.sections.last?.rows.map(\.key) ?? []
        #expect(outside == ["ligatures", "fit", "spread", "offsetFirstPage"])
        #expect(form.sections.last?.isOutsidePublication == true)
        #expect(form.rows.count == EPUB.catalogue.count)
    }

    @Test("a fixed-layout book puts every reflowable-only setting apart, and keeps its own")
    func fixedLayout() {
        let form = Self.form(PublicationContext(layout: .fixed, languages: ["en"]))
        let outside = Set(form.sections.last?.rows.map(\.key) ?? [])
        #expect(
            outside.contains("fontSize") && outside.contains("theme") && outside.contains("letterSpacing"))
        let kept = form.sections.dropLast().flatMap(\.rows).map(\.key)
        #expect(
            Set(kept).isSuperset(of: ["fit", "spread", "offsetFirstPage", "backgroundColor", "language"]))
    }

    @Test("an Arabic book puts the default stylesheet's settings apart and offers ligatures")
    func arabic() {
        let form = Self.form(PublicationContext(layout: .reflowable, languages: ["ar"]))
        let outside = Set(form.sections.last?.rows.map(\.key) ?? [])
        #expect(outside.isSuperset(of: ["letterSpacing", "wordSpacing", "hyphens"]))
        #expect(!outside.contains("ligatures") && !outside.contains("textAlign"))
    }

    @Test("every EPUB, PDF, audio and TTS setting has a group in its catalogue, and the catalogues are sound")
    func everySettingGrouped() {
        for catalogue in [EPUB.catalogue, PDF.catalogue, Audio.catalogue, TTS.catalogue] {
            #expect(catalogue.problems.isEmpty)
            for key in catalogue.keys { #expect(catalogue.group(ofKey: key) != nil, "\(key)") }
        }
        #expect(EPUB.catalogue.group(ofKey: "lineHeight")?.id == "spacing")
    }

    @Test("a group naming an undeclared key, or a key listed twice, is a declaration problem")
    func groupProblems() {
        let catalogue = SettingCatalogue(
            [EPUB.fontSize.descriptor, EPUB.theme.descriptor],
            groups: [
                .init(id: "a", title: "A", keys: ["fontSize", "nothing"]),
                .init(id: "b", title: "B", keys: ["fontSize", "theme"]),
            ])
        #expect(
            catalogue.problems == [
                .unknownKeyInGroup(key: "nothing", group: "a"), .keyInTwoGroups(key: "fontSize", group: "b"),
            ])
        #expect(catalogue.group(ofKey: "fontSize")?.id == "a")
    }

    @Test("fonts the app suggests are offered, with the reader's own entry kept and a none entry first")
    func suggestedFonts() throws {
        let preferences = try Preferences(json: #"{"fontFamily": "My Own Font"}"#)
        let editor = EPUB.Editor(
            preferences: preferences,
            resolver: EPUB.Resolver(publication: PublicationContext(layout: .reflowable, languages: ["en"])))
        let form = editor.form(suggesting: ["fontFamily": ["Literata", "OpenDyslexic", "Literata", 12]])
        let row = try #require(form.rows.first { $0.key == "fontFamily" })
        guard case .suggestions(let options) = row.control else {
            Issue.record("fontFamily is \(row.control), not suggestions")
            return
        }
        #expect(options.map(\.value) == [nil, "Literata", "OpenDyslexic", "My Own Font"])
        #expect(row.control.summary == "suggestions (none)|Literata|OpenDyslexic|My Own Font")
        // Without suggestions, a free text box as before.
        #expect(editor.form().rows.first { $0.key == "fontFamily" }?.control == .text)
        // The form's JSON carries the new control for a web page.
        let json = String(decoding: try form.jsonData(prettyPrinted: false), as: UTF8.self)
        #expect(json.contains(#""suggestions":{"options":"#))
        #expect(try SettingsForm(jsonData: form.jsonData()) == form)
    }
}
