import Foundation
import Testing

@testable import ReadingPreferences

@Suite("The editor is a Sendable value (Specs/Resolution.md §1, Specs/CSS.md §3.10)")
struct EditorValueSemanticsTests {
    @Test("editing a copy leaves the original unchanged")
    func copyIsIndependent() throws {
        let original = try EPUB.Editor.epub(#"{"theme":"dark","fontSize":1.2}"#)
        var copy = original
        try copy.set(.theme, .sepia)
        try copy.increment(.fontSize)
        try copy.set(.wordSpacing, 0.4)
        #expect(original.preferences.jsonString() == #"{"theme":"dark","fontSize":1.2}"#)
        #expect(original.settings[.theme] == .dark)
        #expect(original[.wordSpacing].value == nil)
        #expect(copy.settings[.theme] == .sepia)
        #expect(copy[.fontSize].value == 1.3)
    }

    @Test("a handle is a snapshot: editing after reading it does not change it")
    func handleIsSnapshot() throws {
        var editor = try EPUB.Editor.epub(#"{"fontSize":1.2}"#)
        let before = editor[.fontSize]
        try editor.set(.fontSize, 2.0)
        #expect(before.value == 1.2)
        #expect(editor[.fontSize].value == 2.0)
    }

    @Test("an editor can be edited inside a Task and sent back")
    func editInTask() async throws {
        let editor = try EPUB.Editor.epub(#"{"theme":"dark"}"#)
        let edited = try await Task.detached { () throws(PreferenceError) -> EPUB.Editor in
            var copy = editor
            try copy.increment(.fontSize)
            try copy.set(.theme, .sepia)
            return copy
        }.value
        #expect(edited.preferences.jsonString() == #"{"theme":"sepia","fontSize":1.1}"#)
        #expect(editor.preferences.jsonString() == #"{"theme":"dark"}"#)
    }

    @Test("preferences, settings and handles are Sendable")
    func sendable() async throws {
        let editor = try TestEditor.test(#"{"size":2}"#)
        let preferences = editor.preferences
        let settings = editor.settings
        let handle = editor[.size]
        let results = await Task.detached {
            (preferences.count, settings[.size], handle.value)
        }.value
        #expect(results.0 == 1)
        #expect(results.1 == 2.0)
        #expect(results.2 == 2.0)
    }
}
