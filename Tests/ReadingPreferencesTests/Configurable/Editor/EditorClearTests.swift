import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Editor clear: only declared keys are removed (Specs/Settings.md §5, Specs/Resolution.md §1)")
struct EditorClearTests {
    @Test("clear() removes declared keys and keeps unknown keys and $ keys in order")
    func clearAll() throws {
        var editor = try EPUB.Editor.epub(
            #"{"$version":2,"theme":"dark","x-newer":{"a":1},"fontSize":1.4,"publisherStyles":false,"zzz":null}"#
        )
        editor.clear()
        #expect(editor.preferences.jsonString() == #"{"$version":2,"x-newer":{"a":1}}"#)
        #expect(editor[.theme].value == nil)
        #expect(editor.settings[.fontSize] == 1.0)
    }

    @Test("clear() also removes renamedFrom aliases")
    func clearAliases() throws {
        var editor = try TestEditor.test(#"{"textSize":2,"other":1}"#)
        #expect(editor[.size].value == 2.0)
        editor.clear()
        #expect(editor.preferences.jsonString() == #"{"other":1}"#)
    }

    @Test("clearing one setting removes only its key (and its aliases)")
    func clearOne() throws {
        var editor = try TestEditor.test(#"{"flag":true,"textSize":2,"mode":"compact"}"#)
        editor.clear(.size)
        #expect(editor.preferences.jsonString() == #"{"flag":true,"mode":"compact"}"#)
        try editor.clear(key: "flag")
        #expect(editor.preferences.jsonString() == #"{"mode":"compact"}"#)
    }

    @Test("an edit through the new key removes the old alias")
    func editRemovesAlias() throws {
        var editor = try TestEditor.test(#"{"textSize":2,"flag":true}"#)
        try editor.increment(.size)
        #expect(editor.preferences.jsonString() == #"{"flag":true,"size":2.1}"#)
    }

    @Test("Preferences.removeAll() keeps $ keys unless asked")
    func removeAll() throws {
        var preferences = try Preferences(json: #"{"theme":"dark","$version":1,"x":true,"$sync":"abc"}"#)
        preferences.removeAll()
        #expect(preferences.jsonString() == #"{"$version":1,"$sync":"abc"}"#)
        preferences.removeAll(includingReserved: true)
        #expect(preferences.isEmpty)
    }

    @Test("removing one key returns its value and keeps the others in order")
    func removeValue() throws {
        var preferences = try Preferences(json: #"{"a":1,"b":2,"c":3}"#)
        #expect(preferences.removeValue(forKey: "b") == 2)
        #expect(preferences.removeValue(forKey: "b") == nil)
        #expect(preferences.keys == ["a", "c"])
    }
}
