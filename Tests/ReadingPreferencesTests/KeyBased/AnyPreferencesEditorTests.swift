import Testing

@testable import ReadingPreferences

/// The key-based editor servers and tools use when the configurable is chosen at run time.
@Suite("AnyPreferencesEditor")
struct AnyPreferencesEditorTests {
    @Test("it edits by key like the typed editor it wraps")
    func matchesTypedEditor() throws {
        var any = ConfigurableKind.epub.makeEditor(preferences: ["fontSize": 1.2])
        var typed = EPUB.Editor(preferences: ["fontSize": 1.2], resolver: EPUB.Resolver())
        try any.apply(.increment(key: "fontSize"))
        try typed.increment(.fontSize)
        #expect(any.preferences == typed.preferences)
        #expect(any.editor(as: EPUB.self)?.settings == typed.settings)
        #expect(any.editor(as: PDF.self) == nil)
        #expect(any.schemaIdentifier == "epub")
    }

    @Test("a failing edit throws its code and changes nothing")
    func failingEdit() {
        var editor = ConfigurableKind.pdf.makeEditor(preferences: ["scroll": true])
        #expect(throws: PreferenceError.self) { try editor.apply(.set(key: "scroll", value: "yes")) }
        #expect(editor.preferences == ["scroll": true])
    }
}
