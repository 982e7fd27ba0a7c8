import Foundation
import Testing

@testable import ReadingPreferences

@Suite(
    "Preference handles: value, effective value, reasons and presentation (Specs/Resolution.md §1, §5, Specs/CSS.md §3)"
)
struct PreferenceHandleTests {
    @Test("value is the stored preference, decoded but not validated")
    func valueIsNotValidated() throws {
        let editor = try EPUB.Editor.epub(#"{"fontSize":7}"#)
        #expect(editor[.fontSize].value == 7.0)
        #expect(editor[.fontSize].effectiveValue == 5.0)
        #expect(editor[.fontSize].storedJSON == 7)
    }

    @Test("value is nil for an unset or undecodable preference, which keeps its JSON")
    func valueUnsetOrUndecodable() throws {
        let editor = try EPUB.Editor.epub(#"{"theme":"purple"}"#)
        #expect(editor[.theme].value == nil)
        #expect(editor[.theme].storedJSON == "purple")
        #expect(editor[.theme].effectiveValue == .light)
        #expect(editor[.fontSize].value == nil)
        #expect(editor[.fontSize].effectiveValue == 1.0)
    }

    @Test("a value that only an app default supplies is effective")
    func defaultIsEffective() throws {
        var defaults = EPUB.Defaults()
        defaults[.fontWeight] = 1.5
        let editor = try EPUB.Editor.epub(defaults: defaults)
        let handle = editor[.fontWeight]
        #expect(handle.value == nil)
        #expect(handle.effectiveValue == 1.5)
        #expect(handle.isEffective)
        #expect(handle.reasons.isEmpty)
    }

    @Test("without a preference or a default, font weight shows 1.0 and is not effective")
    func noValueNotEffective() throws {
        let editor = try EPUB.Editor.epub()
        let handle = editor[.fontWeight]
        #expect(handle.effectiveValue == 1.0)
        #expect(handle.resolvedValue == nil)
        #expect(!handle.isEffective)
        #expect(handle.reasons == [.noValue])
    }

    @Test("word spacing with publisher styles on gives requiresPreference(publisherStyles, false)")
    func publisherStylesReason() throws {
        let editor = try EPUB.Editor.epub(#"{"wordSpacing":0.5}"#)
        let handle = editor[.wordSpacing]
        #expect(!handle.isEffective)
        #expect(handle.reasons == [.requiresPreference(key: "publisherStyles", value: .bool(false))])
        #expect(handle.reasons.map(\.description) == ["requiresPreference(publisherStyles, false)"])
        #expect(handle.reasons.first?.code == "requiresPreference")
    }

    @Test("a reflowable-only setting on a fixed layout gives needsLayout(reflowable)")
    func needsLayout() throws {
        let editor = try EPUB.Editor.epub(
            #"{"fontSize":1.4}"#, publication: PublicationContext(layout: .fixed))
        let handle = editor[.fontSize]
        #expect(!handle.isEffective)
        #expect(handle.reasons == [.needsLayout(.reflowable)])
        #expect(handle.reasons.map(\.description) == ["needsLayout(reflowable)"])
        #expect(editor[.fit].isEffective)
    }

    @Test("an Arabic publication gives needsStylesheet(default) for word spacing")
    func needsStylesheet() throws {
        let editor = try EPUB.Editor.epub(
            #"{"wordSpacing":0.5,"publisherStyles":false}"#,
            publication: PublicationContext(languages: ["ar"]))
        #expect(editor[.wordSpacing].reasons == [.needsStylesheet([.default])])
    }

    @Test("the none label names what a default supplies")
    func noneLabel() throws {
        var defaults = EPUB.Defaults()
        defaults[.textAlign] = .justify
        let editor = try EPUB.Editor.epub(#"{"textAlign":"left"}"#, defaults: defaults)
        #expect(editor[.textAlign].noneLabel == "Default (Justify)")
        #expect(editor[.textAlign].value == .left)

        let plain = try EPUB.Editor.epub(#"{"textAlign":"left"}"#)
        #expect(plain[.textAlign].noneLabel == "Default")
    }

    @Test("supportedValues lists the descriptor's values, narrowed where the schema narrows them")
    func supportedValues() throws {
        let editor = try EPUB.Editor.epub()
        #expect(editor[.theme].supportedValues == [.light, .dark, .sepia])
        #expect(editor[.columnCount].supportedValues == [.auto, .one, .two])
        #expect(editor[.backgroundColor].supportedValues.isEmpty)

        let test = try TestEditor.test()
        #expect(test[.mode].supportedValues == [.compact, .regular])
    }

    @Test("supportedRange and suggestedSteps come from the descriptor")
    func supportedRange() throws {
        let editor = try EPUB.Editor.epub()
        #expect(editor[.fontSize].supportedRange == 0.1...5.0)
        #expect(editor[.letterSpacing].supportedRange == 0.0...1.0)
        #expect(editor[.typeScale].suggestedSteps?.count == 9)
        #expect(editor[.theme].supportedRange == nil)

        let test = try TestEditor.test()
        #expect(test[.opacity].supportedRange == 0.0...1.0)
        #expect(test[.count].supportedRange == 1.0...10.0)
    }

    @Test("a handle formats its effective value and labels choices")
    func formatting() throws {
        let editor = try EPUB.Editor.epub(#"{"fontSize":1.2,"textAlign":"justify"}"#)
        #expect(editor[.fontSize].formattedValue() == "120%")
        #expect(editor[.fontSize].accessibilityLabel() == "120 percent")
        #expect(editor[.fontSize].format(0.125) == "13%")
        #expect(editor[.textAlign].label(.justify) == "Justify")
        #expect(editor[.readingProgression].label(.rtl) == "Right to left")
    }

    @Test("an untyped handle by key reads the same as the typed one")
    func handleByKey() throws {
        let editor = try EPUB.Editor.epub(#"{"fontSize":1.2}"#)
        let handle = try #require(editor.handle(forKey: "fontSize"))
        #expect(handle.value == .number(1.2))
        #expect(handle.isEffective)
        #expect(editor.handle(forKey: "nope") == nil)
        #expect(editor.handles.map(\.descriptor.key) == EPUB.catalogue.keys)
    }

    @Test("a handle of a setting the schema does not declare reads as unset")
    func unknownHandle() throws {
        let editor = try TestEditor.test(#"{"stranger":true}"#)
        let handle = editor[Setting<TestSchema, Bool>.toggle("stranger")]
        #expect(handle.value == nil)
        #expect(handle.effectiveValue == nil)
        #expect(!handle.isEffective)
    }

    @Test("an enum value outside supportedValues reads as stored but resolves to the fallback")
    func storedUnsupportedEnum() throws {
        let editor = try TestEditor.test(#"{"mode":"spacious"}"#)
        #expect(editor[.mode].value == .spacious)
        #expect(editor[.mode].effectiveValue == .regular)
    }

    @Test("a font family not available for the publication is kept and gives notAvailableForPublication")
    func fontNotAvailable() throws {
        let resolver = EPUB.Resolver(availableFontFamilies: ["Literata", .serif])
        let editor = EPUB.Editor(
            preferences: try Preferences(json: #"{"fontFamily":"Comic"}"#), resolver: resolver)
        let handle = editor[.fontFamily]
        #expect(handle.value == "Comic")
        #expect(handle.resolvedValue == nil)
        #expect(!handle.isEffective)
        #expect(handle.reasons.contains(.notAvailableForPublication))
        #expect(handle.supportedValues == ["Literata", .serif])
        #expect(editor.preferences.jsonString() == #"{"fontFamily":"Comic"}"#)
    }

    @Test("scroll forced by the environment gives forcedScroll")
    func forcedScroll() throws {
        let resolver = EPUB.Resolver(environment: ReadingEnvironment(forceScroll: true))
        let editor = EPUB.Editor(preferences: try Preferences(json: #"{"scroll":false}"#), resolver: resolver)
        #expect(editor[.scroll].effectiveValue == true)
        #expect(editor[.scroll].reasons == [.forcedScroll])
    }

    @Test("the effective value is the resolved value even when the setting is not effective")
    func effectiveWhenIneffective() throws {
        let editor = try EPUB.Editor.epub(#"{"wordSpacing":0.5}"#)
        #expect(!editor[.wordSpacing].isEffective)
        #expect(editor[.wordSpacing].effectiveValue == 0.5)
    }

    @Test("isEffective is exactly the activator's answer")
    func isEffectiveFollowsActivator() throws {
        let unset = try EPUB.Editor.epub()
        #expect(!unset[.backgroundColor].isEffective)
        #expect(unset[.backgroundColor].reasons == [.notSet])
        #expect(unset[.backgroundColor].effectiveValue == RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF))
        #expect(unset[.fontSize].isEffective)
        #expect(unset[.language].isEffective)

        let fixed = try EPUB.Editor.epub(
            ##"{"textColor":"#123456"}"##, publication: PublicationContext(layout: .fixed))
        #expect(!fixed[.textColor].isEffective)
        #expect(fixed[.textColor].reasons == [.needsLayout(.reflowable)])
    }
}
