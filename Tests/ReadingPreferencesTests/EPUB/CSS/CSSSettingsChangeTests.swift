import Foundation
import Testing

@testable import ReadingPreferences

/// Specs/CSS.md §1.8: given two settings values, either "relayout needed" (any of readingProgression,
/// language, verticalText, scroll, spread, fit, offsetFirstPage changed) or the exact
/// properties to set and to remove.
@Suite("Classifying a change of settings")
struct CSSSettingsChangeTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var key: String
        var before: String
        var after: String

        var testDescription: String { key }
    }

    @Test(
        "a change of a layout key needs a relayout that names the key",
        arguments: [
            Row(key: "readingProgression", before: "{}", after: #"{"readingProgression": "rtl"}"#),
            Row(key: "language", before: "{}", after: #"{"language": "fr"}"#),
            Row(
                key: "verticalText", before: #"{"scroll": true}"#,
                after: #"{"scroll": true, "verticalText": true}"#),
            Row(key: "scroll", before: "{}", after: #"{"scroll": true}"#),
            Row(key: "spread", before: "{}", after: #"{"spread": "never"}"#),
            Row(key: "fit", before: "{}", after: #"{"fit": "width"}"#),
            Row(key: "offsetFirstPage", before: "{}", after: #"{"offsetFirstPage": true}"#),
        ])
    func relayout(row: Row) throws {
        let before = try CSSFixture.settings(row.before)
        let after = try CSSFixture.settings(row.after)
        #expect(EPUB.change(from: before, to: after) == .relayout(keys: [row.key]))
        #expect(EPUB.change(from: after, to: before) == .relayout(keys: [row.key]))
    }

    @Test("the relayout keys are exactly the seven of Specs/CSS.md §1.8")
    func relayoutKeys() {
        #expect(
            Set(EPUB.relayoutKeys) == [
                "readingProgression", "language", "verticalText", "scroll", "spread", "fit",
                "offsetFirstPage",
            ])
    }

    @Test("a layout change wins over style changes made at the same time")
    func relayoutWinsOverStyle() throws {
        let before = try CSSFixture.settings(#"{"fontSize": 1}"#)
        let after = try CSSFixture.settings(#"{"fontSize": 2, "scroll": true}"#)
        #expect(EPUB.change(from: before, to: after) == .relayout(keys: ["scroll"]))
    }

    @Test("a pure style change gives exactly the property to set and nothing to remove")
    func pureStyle() throws {
        let before = try CSSFixture.settings()
        let after = try CSSFixture.settings(#"{"fontSize": 1.5}"#)
        #expect(
            EPUB.change(from: before, to: after)
                == .restyle(set: [CSSProperty(name: "--USER__fontSize", value: "150%")], remove: []))
    }

    @Test("turning publisher styles back on removes the advanced settings flag")
    func publisherStylesBackOn() throws {
        let before = try CSSFixture.settings(#"{"publisherStyles": false, "wordSpacing": 0.2}"#)
        let after = try CSSFixture.settings(#"{"publisherStyles": true, "wordSpacing": 0.2}"#)
        #expect(
            EPUB.change(from: before, to: after) == .restyle(set: [], remove: ["--USER__advancedSettings"]))
    }

    @Test("a change can set some properties and remove others")
    func setAndRemove() throws {
        let before = try CSSFixture.settings(#"{"theme": "dark", "imageFilter": "darken"}"#)
        let after = try CSSFixture.settings(#"{"theme": "light", "imageFilter": "invert"}"#)
        #expect(
            EPUB.change(from: before, to: after)
                == .restyle(
                    set: [CSSProperty(name: "--USER__invertImages", value: "readium-invert-on")],
                    remove: ["--USER__appearance", "--USER__darkenImages"]))
    }

    @Test("no change gives none")
    func noChange() throws {
        let settings = try CSSFixture.settings(#"{"fontSize": 1.3, "theme": "sepia"}"#)
        #expect(EPUB.change(from: settings, to: settings) == .none)
    }

    @Test("preferences that resolve to the same settings give none")
    func sameResolution() throws {
        let before = try CSSFixture.settings()
        let after = try CSSFixture.settings(#"{"theme": "light", "fontSize": 1, "scroll": false}"#)
        #expect(EPUB.change(from: before, to: after) == .none)
    }

    @Test("a change hidden by an override gives none")
    func hiddenByOverride() throws {
        let options = ReadiumCSSOptions(overrides: ["--USER__fontSize": "100%"])
        let before = try CSSFixture.settings()
        let after = try CSSFixture.settings(#"{"fontSize": 1.5}"#)
        #expect(EPUB.change(from: before, to: after, options: options) == .none)
    }
}
