import Foundation
import Testing

@testable import ReadingPreferences

@Suite("The PDF editor and navigator (Specs/Resolution.md §8)")
struct PDFEditorTests {
    @Test("scrolling vertically keeps spreads; the declared reading progression applies while paginated")
    func typedEditing() throws {
        var editor = PDF.Editor(resolver: PDF.Resolver(readingProgression: .rtl))
        #expect(editor.settings[.readingProgression] == .rtl)
        #expect(editor[.readingProgression].isEffective)
        try editor.set(.scroll, true)
        #expect(editor[.spread].isEffective)
        #expect(!editor[.readingProgression].isEffective)
        #expect(editor[.readingProgression].reasons == [.requiresSetting(key: "scroll", value: .bool(false))])
        try editor.set(.scrollAxis, .horizontal)
        #expect(!editor[.spread].isEffective)
        #expect(!editor[.offsetFirstPage].isEffective)
        #expect(editor.preferences.keys == ["scroll", "scrollAxis"])
    }

    @Test("page spacing formats in points, with the unit spelled out for accessibility")
    func pageSpacingLabels() throws {
        var editor = PDF.Editor(resolver: PDF.Resolver())
        try editor.increment(.pageSpacing)
        try editor.increment(.pageSpacing)
        #expect(editor[.pageSpacing].formattedValue() == "8 pt")
        #expect(editor[.pageSpacing].accessibilityLabel() == "8 points")
        #expect(editor[.pageSpacing].supportedRange == 0...200)
    }

    @Test("a headless navigator resolves submitted preferences with its defaults")
    func navigator() throws {
        var defaults = PDF.Defaults()
        defaults[.pageSpacing] = 16
        defaults[.readingProgression] = .rtl
        var navigator = PDF.Navigator(resolver: PDF.Resolver(defaults: defaults))
        #expect(navigator.settings[.readingProgression] == .rtl)
        var editor = navigator.editor(of: navigator.preferences)
        try editor.increment(.pageSpacing)
        navigator.submit(editor.preferences)
        #expect(navigator.settings[.pageSpacing] == 20)
        navigator.resolver.readingProgression = .ltr
        #expect(navigator.settings[.readingProgression] == .ltr)
    }

    @Test("tools build the PDF resolver from the publication's reading progression only")
    func toolInputs() {
        let inputs = ConfigurableInputs(
            publication: PublicationContext(
                layout: .reflowable, languages: ["he"], readingProgression: .rtl),
            defaults: ["scroll": true], environment: ReadingEnvironment(forceScroll: true, appearance: .dark))
        let editor = ConfigurableKind.pdf.makeEditor(preferences: Preferences(), inputs: inputs)
        let settings = editor.resolvedSettingsJSON
        #expect(settings["readingProgression"] == "rtl")
        #expect(settings["scroll"] == true)
        #expect(editor.resolvedSettings(as: PDF.self)?.layout == .fixed)
        #expect(editor.resolvedSettings(as: EPUB.self) == nil)
    }

    @Test("the PDF form offers no none entry where a fallback or the publication decides")
    func form() throws {
        let form = PDF.Editor(resolver: PDF.Resolver()).form()
        #expect(form.configurable == "pdf")
        // The catalogue's groups, in order: the page's color, then layout.
        #expect(form.sections.map(\.id) == ["theme", "layout"])
        #expect(form.rows.map(\.key) == PDF.catalogue.groups.flatMap(\.keys))
        #expect(form.rows.map(\.key).sorted() == PDF.catalogue.keys.sorted())
        let controls = Dictionary(uniqueKeysWithValues: form.rows.map { ($0.key, $0.control) })
        #expect(controls["pageSpacing"] == .stepper(range: 0...200, step: 4, steps: nil))
        #expect(controls["backgroundColor"] == .color)
        #expect(controls["readingProgression"]?.summary == "picker ltr|rtl")
        #expect(controls["scrollAxis"]?.summary == "picker vertical|horizontal")
        #expect(controls["spread"]?.summary == "picker auto|never|always")
    }
}
