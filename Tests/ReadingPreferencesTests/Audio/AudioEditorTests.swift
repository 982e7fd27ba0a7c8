import Foundation
import Testing

@testable import ReadingPreferences

@Suite("The audio editor (Specs/Resolution.md §8)")
struct AudioEditorTests {
    @Test("speed steps by 0.1 and reads as a percentage")
    func speed() throws {
        var editor = Audio.Editor(resolver: Audio.Resolver())
        try editor.increment(.speed)
        #expect(editor[.speed].formattedValue() == "110%")
        #expect(editor[.speed].accessibilityLabel() == "110 percent")
        #expect(editor.preferences.jsonString() == #"{"speed":1.1}"#)
    }

    @Test("app defaults are typed values, and the preference beats them")
    func defaults() throws {
        var defaults = Audio.Defaults()
        defaults[.speed] = 1.5
        defaults[.volume] = 2  // coerced into 0...1
        var editor = Audio.Editor(resolver: StandardResolver(defaults: defaults))
        #expect(editor.settings[.speed] == 1.5)
        #expect(editor.settings[.volume] == 1)
        try editor.decrement(.volume)
        #expect(editor.settings[.volume] == 0.9)
        #expect(editor[.volume].isEffective && editor[.speed].isEffective)
    }

    @Test("volume is a slider from 0 to 1 and speed a stepper from 0.1 to 6")
    func form() {
        let rows = Audio.Editor(resolver: Audio.Resolver()).form().rows
        #expect(rows.map(\.key) == ["volume", "speed"])
        #expect(
            rows.map(\.control) == [
                .slider(range: 0...1, step: 0.1), .stepper(range: 0.1...6, step: 0.1, steps: nil),
            ])
        #expect(rows.map(\.formattedValue) == ["100%", "100%"])
    }

    @Test("tools ignore the publication and the environment for audio")
    func toolInputs() {
        let inputs = ConfigurableInputs(
            publication: PublicationContext(layout: .fixed, languages: ["ja"], readingProgression: .rtl),
            defaults: ["speed": 0.8, "fontSize": 2], environment: ReadingEnvironment(forceScroll: true))
        let editor = ConfigurableKind.audio.makeEditor(preferences: ["volume": 0.5], inputs: inputs)
        #expect(JSONValue.object(editor.resolvedSettingsJSON).jsonString() == #"{"volume":0.5,"speed":0.8}"#)
        #expect(editor.diagnostics.isEmpty)
    }
}
