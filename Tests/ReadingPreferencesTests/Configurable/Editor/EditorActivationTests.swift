import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Editor activation: automatic on set, manual on explicit activate (Specs/Settings.md §4)")
struct EditorActivationTests {
    static let arabic = PublicationContext(languages: ["ar"])
    static let fixedLayout = PublicationContext(layout: .fixed)

    @Test("set writes an automatic requirement, appended after the edited key")
    func setActivatesAutomatic() throws {
        var editor = try TestEditor.test(#"{"mode":"regular"}"#)
        try editor.set(.spacing, 0.5)
        #expect(editor.preferences.jsonString() == #"{"mode":"regular","spacing":0.5,"flag":true}"#)
        #expect(editor[.spacing].isEffective)
    }

    @Test("EPUB word spacing writes publisherStyles false at the end")
    func epubWordSpacingActivates() throws {
        var editor = try EPUB.Editor.epub(#"{"theme":"dark"}"#)
        try editor.set(.wordSpacing, 0.5)
        #expect(editor.preferences.keys == ["theme", "wordSpacing", "publisherStyles"])
        #expect(editor.preferences["publisherStyles"] == false)
        #expect(editor[.wordSpacing].isEffective)
        #expect(editor[.wordSpacing].reasons.isEmpty)
    }

    @Test("an activation write replaces a stored requirement in place")
    func activationReplacesInPlace() throws {
        var editor = try EPUB.Editor.epub(#"{"publisherStyles":true,"theme":"dark"}"#)
        try editor.set(.wordSpacing, 0.5)
        #expect(
            editor.preferences.jsonString() == #"{"publisherStyles":false,"theme":"dark","wordSpacing":0.5}"#)
    }

    @Test("set with activate: false writes only its own key")
    func activateFalse() throws {
        var editor = try EPUB.Editor.epub(#"{"theme":"dark"}"#)
        try editor.set(.wordSpacing, 0.5, activate: false)
        #expect(editor.preferences.keys == ["theme", "wordSpacing"])
        #expect(!editor[.wordSpacing].isEffective)

        var test = try TestEditor.test()
        try test.set(.spacing, 0.5, activate: false)
        #expect(test.preferences.keys == ["spacing"])
    }

    @Test("on an Arabic publication word spacing stores only word spacing")
    func arabicWordSpacing() throws {
        var editor = try EPUB.Editor.epub(#"{"theme":"dark"}"#, publication: Self.arabic)
        try editor.set(.wordSpacing, 0.5)
        #expect(editor.preferences.jsonString() == #"{"theme":"dark","wordSpacing":0.5}"#)
        #expect(!editor[.wordSpacing].isEffective)
    }

    @Test("set never writes a manual requirement")
    func setLeavesManualAlone() throws {
        var editor = try EPUB.Editor.epub(#"{"scroll":true}"#)
        try editor.set(.columnCount, .two)
        #expect(editor.preferences.jsonString() == #"{"scroll":true,"columnCount":"2"}"#)
        #expect(!editor[.columnCount].isEffective)

        var test = try TestEditor.test()
        try test.set(.gutter, 0.3)
        #expect(test.preferences.jsonString() == #"{"gutter":0.3}"#)
    }

    @Test("set on an already effective setting writes only its key")
    func setOnEffective() throws {
        var editor = try EPUB.Editor.epub(#"{"publisherStyles":false}"#)
        try editor.set(.wordSpacing, 0.5)
        #expect(editor.preferences.jsonString() == #"{"publisherStyles":false,"wordSpacing":0.5}"#)
    }

    @Test("explicit activate writes manual requirements in place (columnCount leaves scroll)")
    func explicitActivateWritesManual() throws {
        var editor = try EPUB.Editor.epub(#"{"scroll":true,"columnCount":"2"}"#)
        #expect(!editor[.columnCount].isEffective)
        try editor.activate(.columnCount)
        #expect(editor.preferences.jsonString() == #"{"scroll":false,"columnCount":"2"}"#)
        #expect(editor[.columnCount].isEffective)
    }

    @Test("explicit activate appends a requirement that was not stored")
    func explicitActivateAppends() throws {
        var editor = try TestEditor.test(#"{"gutter":0.25}"#)
        try editor.activate(.gutter)
        #expect(editor.preferences.jsonString() == #"{"gutter":0.25,"mode":"compact"}"#)
        #expect(editor[.gutter].isEffective)
    }

    @Test("explicit activate that cannot succeed throws notActivatable and changes nothing")
    func notActivatable() throws {
        var test = try TestEditor.test(#"{"pageTurn":true,"mode":"regular"}"#)
        let before = test.preferences.jsonString()
        #expect(
            editError { try test.activate(.pageTurn) } == PreferenceError(.notActivatable, key: "pageTurn"))
        #expect(test.preferences.jsonString() == before)

        var arabic = try EPUB.Editor.epub(#"{"wordSpacing":0.5}"#, publication: Self.arabic)
        #expect(editError { try arabic.activate(.wordSpacing) }?.code == .notActivatable)
        #expect(arabic.preferences.jsonString() == #"{"wordSpacing":0.5}"#)

        var fixed = try EPUB.Editor.epub(#"{"scroll":true}"#, publication: Self.fixedLayout)
        #expect(editError { try fixed.activate(.columnCount) }?.code == .notActivatable)
        #expect(fixed.preferences.jsonString() == #"{"scroll":true}"#)
    }

    @Test("the same manual requirement is activatable when the condition holds")
    func activatableWhenConditionHolds() throws {
        var editor = try TestEditor.test(#"{"pageTurn":true}"#, layout: .fixed)
        try editor.activate(.pageTurn)
        #expect(editor.preferences.jsonString() == #"{"pageTurn":true,"mode":"compact"}"#)
    }

    @Test("explicit activate on an effective setting succeeds and changes nothing")
    func activateEffective() throws {
        var editor = try EPUB.Editor.epub(#"{"fontSize":1.2,"scroll":true}"#)
        try editor.activate(.fontSize)
        #expect(editor.preferences.jsonString() == #"{"fontSize":1.2,"scroll":true}"#)

        var test = try TestEditor.test(#"{"mode":"compact","gutter":0.2}"#)
        try test.activate(.gutter)
        #expect(test.preferences.jsonString() == #"{"mode":"compact","gutter":0.2}"#)
    }

    @Test("a requirement met by an app default needs no write")
    func requirementMetByDefault() throws {
        var defaults = EPUB.Defaults()
        defaults[.publisherStyles] = false
        var editor = try EPUB.Editor.epub(defaults: defaults)
        try editor.set(.wordSpacing, 0.3)
        #expect(editor.preferences.jsonString() == #"{"wordSpacing":0.3}"#)
        #expect(editor[.wordSpacing].isEffective)
    }

    @Test("increment, toggle and update activate like set (Specs/Settings.md §6)")
    func everyEditActivates() throws {
        var increment = try EPUB.Editor.epub()
        try increment.increment(.typeScale)
        #expect(increment.preferences.keys == ["typeScale", "publisherStyles"])

        var adjust = try EPUB.Editor.epub()
        try adjust.adjust(.lineHeight, by: 0.2)
        #expect(adjust.preferences.jsonString() == #"{"lineHeight":1.4,"publisherStyles":false}"#)

        var toggle = try EPUB.Editor.epub()
        try toggle.toggle(.hyphens)
        #expect(toggle.preferences.jsonString() == #"{"hyphens":true,"publisherStyles":false}"#)

        var choice = try EPUB.Editor.epub()
        try choice.toggle(.textAlign, value: .justify)
        #expect(choice.preferences.jsonString() == #"{"textAlign":"justify","publisherStyles":false}"#)

        var update = try TestEditor.test(#"{"spacing":0.25}"#)
        try update.update(.spacing) { $0 * 2 }
        #expect(update.preferences.jsonString() == #"{"spacing":0.5,"flag":true}"#)
    }

    @Test("an activation that writes but does not make the setting active is discarded")
    func partialActivationDiscarded() throws {
        var filter = try EPUB.Editor.epub(#"{"theme":"light"}"#)
        #expect(editError { try filter.activate(.imageFilter) }?.code == .notActivatable)
        #expect(filter.preferences.jsonString() == #"{"theme":"light"}"#)

        var hyphens = try EPUB.Editor.epub()
        #expect(editError { try hyphens.activate(.hyphens) }?.code == .notActivatable)
        #expect(hyphens.preferences.isEmpty)
    }

    @Test("explicit activate writes a manual requirement over a stored value (imageFilter → dark theme)")
    func activateImageFilter() throws {
        var editor = try EPUB.Editor.epub(#"{"theme":"sepia","imageFilter":"invert"}"#)
        #expect(editor[.imageFilter].reasons == [.requiresPreference(key: "theme", value: .string("dark"))])
        try editor.activate(.imageFilter)
        #expect(editor.preferences.jsonString() == #"{"theme":"dark","imageFilter":"invert"}"#)
        #expect(editor[.imageFilter].isEffective)
    }

    @Test("set does not write a manual requirement (choosing an image filter keeps the theme)")
    func imageFilterKeepsTheme() throws {
        var editor = try EPUB.Editor.epub(#"{"theme":"sepia"}"#)
        try editor.set(.imageFilter, .darken)
        #expect(editor.preferences.jsonString() == #"{"theme":"sepia","imageFilter":"darken"}"#)
    }

    @Test("an activation write replaces an undecodable stored requirement in place")
    func activationReplacesUndecodable() throws {
        var editor = try EPUB.Editor.epub(#"{"publisherStyles":"no","theme":"dark"}"#)
        try editor.set(.letterSpacing, 0.2)
        #expect(
            editor.preferences.jsonString()
                == #"{"publisherStyles":false,"theme":"dark","letterSpacing":0.2}"#)
    }

    @Test("explicit activate also writes automatic requirements")
    func explicitActivateAutomatic() throws {
        var editor = try EPUB.Editor.epub(#"{"wordSpacing":0.5,"theme":"dark"}"#)
        try editor.activate(.wordSpacing)
        #expect(
            editor.preferences.jsonString() == #"{"wordSpacing":0.5,"theme":"dark","publisherStyles":false}"#)
    }
}
