import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Editor toggle: Booleans flip, choices select or clear (Specs/Settings.md §5)")
struct EditorToggleTests {
    @Test("toggling a Boolean flips the stored value", arguments: [true, false])
    func flipsStored(stored: Bool) throws {
        var editor = try TestEditor.test(#"{"flag":\#(stored)}"#)
        try editor.toggle(.flag)
        #expect(editor.preferences["flag"] == .bool(!stored))
    }

    @Test("toggling an unset Boolean flips its effective value and stores it")
    func flipsEffective() throws {
        var editor = try TestEditor.test()
        try editor.toggle(.flag)
        #expect(editor.preferences.jsonString() == #"{"flag":true}"#)

        var defaults = SettingValueTable<TestSchema>()
        defaults[.flag] = true
        var withDefault = try TestEditor.test(defaults: defaults)
        try withDefault.toggle(.flag)
        #expect(withDefault.preferences.jsonString() == #"{"flag":false}"#)

        var epub = try EPUB.Editor.epub()
        try epub.toggle(.publisherStyles)
        #expect(epub.preferences.jsonString() == #"{"publisherStyles":false}"#)
    }

    @Test("toggling an undecodable Boolean flips the effective value and replaces it")
    func flipsUndecodable() throws {
        var editor = try TestEditor.test(#"{"flag":"yes","mode":"compact"}"#)
        try editor.toggle(.flag)
        #expect(editor.preferences.jsonString() == #"{"flag":true,"mode":"compact"}"#)
    }

    @Test("toggling a Boolean by key works like the typed form")
    func toggleByKey() throws {
        var editor = try TestEditor.test(#"{"flag":true}"#)
        try editor.toggle(key: "flag")
        #expect(editor.preferences["flag"] == false)
    }

    @Test("toggling a choice to its stored value removes the key")
    func toggleStoredChoiceClears() throws {
        var editor = try EPUB.Editor.epub(#"{"theme":"dark","fontSize":1.2}"#)
        try editor.toggle(.theme, value: .dark)
        #expect(editor.preferences.jsonString() == #"{"fontSize":1.2}"#)

        var color = try TestEditor.test(##"{"tint":"#FF0000"}"##)
        try color.toggle(.tint, value: RGBColor(red: 255, green: 0, blue: 0))
        #expect(color.preferences.isEmpty)
    }

    @Test("toggling a choice to another value sets it in place")
    func toggleOtherChoiceSets() throws {
        var editor = try EPUB.Editor.epub(#"{"theme":"dark","fontSize":1.2}"#)
        try editor.toggle(.theme, value: .sepia)
        #expect(editor.preferences.jsonString() == #"{"theme":"sepia","fontSize":1.2}"#)
    }

    @Test("toggling an unset choice to its effective value stores it (only a stored value clears)")
    func toggleUnsetChoice() throws {
        var editor = try EPUB.Editor.epub()
        #expect(editor[.theme].effectiveValue == .light)
        try editor.toggle(.theme, value: .light)
        #expect(editor.preferences.jsonString() == #"{"theme":"light"}"#)
    }

    @Test("toggling a choice by key with JSON works like the typed form")
    func toggleChoiceByKey() throws {
        var editor = try EPUB.Editor.epub(#"{"theme":"dark"}"#)
        try editor.toggle(key: "theme", json: "dark")
        #expect(editor.preferences.isEmpty)
        try editor.toggle(key: "theme", json: "sepia")
        #expect(editor.preferences["theme"] == "sepia")
    }

    @Test("toggling a choice to a rejected value throws and changes nothing")
    func toggleRejected() throws {
        var editor = try TestEditor.test(#"{"mode":"compact"}"#)
        #expect(editError { try editor.toggle(.mode, value: .spacious) }?.code == .unsupportedValue)
        #expect(editError { try editor.toggle(key: "mode", json: 3) }?.code == .typeMismatch)
        #expect(editor.preferences.jsonString() == #"{"mode":"compact"}"#)
    }

    @Test("toggle on a range is wrongKind")
    func toggleOnRange() throws {
        var editor = try TestEditor.test(#"{"size":1.5}"#)
        #expect(editError { try editor.toggle(key: "size") } == PreferenceError(.wrongKind, key: "size"))
        #expect(editError { try editor.toggle(key: "mode") }?.code == .wrongKind)
        #expect(editor.preferences.jsonString() == #"{"size":1.5}"#)
    }

    @Test("toggleValue on a toggle or a range is wrongKind")
    func toggleValueOnToggle() throws {
        var editor = try TestEditor.test(#"{"flag":true}"#)
        #expect(
            editError { try editor.toggle(.flag, value: true) } == PreferenceError(.wrongKind, key: "flag"))
        #expect(editError { try editor.toggle(.size, value: 1.0) }?.code == .wrongKind)
        #expect(editError { try editor.toggle(key: "flag", json: false) }?.code == .wrongKind)
        #expect(editor.preferences.jsonString() == #"{"flag":true}"#)
    }

    @Test("increment, decrement and adjust on a toggle or a choice are wrongKind")
    func incrementOnToggle() throws {
        var editor = try TestEditor.test(#"{"flag":true}"#)
        #expect(editError { try editor.increment(key: "flag") } == PreferenceError(.wrongKind, key: "flag"))
        #expect(editError { try editor.decrement(key: "flag") }?.code == .wrongKind)
        #expect(editError { try editor.adjust(key: "flag", by: 1) }?.code == .wrongKind)
        #expect(editError { try editor.increment(key: "mode") }?.code == .wrongKind)
        #expect(editError { try editor.increment(key: "tint") }?.code == .wrongKind)
        #expect(editor.preferences.jsonString() == #"{"flag":true}"#)
    }

    @Test("toggleValue on a value setting (a language) is wrongKind")
    func toggleValueOnValueKind() throws {
        var editor = try EPUB.Editor.epub(#"{"language":"fr"}"#)
        #expect(editError { try editor.toggle(key: "language", json: "fr") }?.code == .wrongKind)
        #expect(editError { try editor.toggle(.language, value: "fr") }?.code == .wrongKind)
        #expect(editor.preferences.jsonString() == #"{"language":"fr"}"#)
    }

    @Test("toggling a color to the stored color in another form removes it")
    func toggleColorOtherForm() throws {
        var editor = try EPUB.Editor.epub(##"{"textColor":"#f00","theme":"dark"}"##)
        try editor.toggle(key: "textColor", json: "red")
        #expect(editor.preferences.jsonString() == #"{"theme":"dark"}"#)
    }
}
