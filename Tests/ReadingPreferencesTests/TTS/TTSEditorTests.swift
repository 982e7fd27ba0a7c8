import Foundation
import Testing

@testable import ReadingPreferences

@Suite("The text-to-speech editor (Specs/Resolution.md §8)")
struct TTSEditorTests {
    @Test("voices are a typed dictionary from language tags to voice identifiers")
    func voices() throws {
        var editor = TTS.Editor(resolver: TTS.Resolver(publicationLanguage: "fr"))
        #expect(editor.settings[.voices] == [:])
        try editor.set(.voices, ["fr": "com.apple.voice.Thomas", "en": "com.apple.voice.Alex"])
        #expect(editor[.voices].value == ["fr": "com.apple.voice.Thomas", "en": "com.apple.voice.Alex"])
        #expect(editor.settings[.language] == "fr")
        #expect(editor[.pitch].formattedValue() == "1×")
    }

    @Test("pitch and speed read as multipliers, spelled out for accessibility")
    func multipliers() throws {
        var editor = TTS.Editor(resolver: TTS.Resolver())
        try editor.adjust(.speed, by: 0.5)
        #expect(editor[.speed].formattedValue() == "1.5×")
        #expect(editor[.speed].accessibilityLabel() == "1.5 times")
        #expect(editor[.pitch].supportedRange == 0.1...4.0)
    }

    @Test("the language resolves from the preference, then the publication, then the default")
    func languageOrder() throws {
        var defaults = TTS.Defaults()
        defaults[.language] = "en"
        var editor = TTS.Editor(resolver: TTS.Resolver(defaults: defaults))
        #expect(editor.settings[.language] == "en")
        editor = TTS.Editor(resolver: TTS.Resolver(publicationLanguage: "de", defaults: defaults))
        #expect(editor.settings[.language] == "de")
        try editor.set(.language, "it")
        #expect(editor.settings[.language] == "it")
        #expect(TTS.catalogue.publicationKeys == ["language"])
    }

    @Test("the voices row is a custom control the app renders; the language a text field")
    func form() throws {
        let editor = TTS.Editor(preferences: ["voices": ["fr": "Thomas"]], resolver: TTS.Resolver())
        let rows = Dictionary(uniqueKeysWithValues: editor.form().rows.map { ($0.key, $0) })
        #expect(rows["voices"]?.control == .custom(identifier: "voices"))
        #expect(rows["voices"]?.storedValue == ["fr": "Thomas"])
        #expect(rows["language"]?.control == .text)
        #expect(rows["language"]?.effectiveValue == nil)
        #expect(rows["pitch"]?.control == .stepper(range: 0.1...4, step: 0.1, steps: nil))
    }

    @Test("tools take the first publication language, and no language when it is empty")
    func toolInputs() {
        let french = ConfigurableInputs(publication: PublicationContext(languages: ["fr", "en"]))
        #expect(
            ConfigurableKind.tts.makeEditor(preferences: [:], inputs: french).resolvedSettingsJSON["language"]
                == "fr")
        let unnamed = ConfigurableInputs(publication: PublicationContext(languages: [""]))
        #expect(
            ConfigurableKind.tts.makeEditor(preferences: [:], inputs: unnamed).resolvedSettingsJSON[
                "language"] == .null)
    }
}
