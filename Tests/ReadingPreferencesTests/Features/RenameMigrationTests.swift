import Foundation
import Testing

@testable import ReadingPreferences

/// Version 2 of an app's reader settings: `compactMode` was `denseLayout`, and its margin was
/// stored as `compactMargin` before it became an option of the feature.
private enum ReaderV2: SettingsSchema {
    typealias Resolver = FeatureResolver<ReaderV2>

    static let compact = Feature<ReaderV2>("compactMode", title: "Compact mode", renamedFrom: ["denseLayout"])
    static let margin = compact.range(
        "margin", title: "Margin", range: 0...40, increment: 4, fallback: 16, renamedFrom: ["compactMargin"])

    static let catalogue = SettingCatalogue(features: [compact], options: [margin])
}

@Suite(
    "Renamed keys migrate stored values on decode (Specs/Resolution.md §9.2, Specs/Settings.md §8 renamedKey)"
)
struct RenameMigrationTests {
    fileprivate func editor(_ json: String) throws -> PreferencesEditor<ReaderV2> {
        PreferencesEditor(preferences: try Preferences(json: json), resolver: FeatureResolver())
    }

    @Test("a value stored under the old key is used for the new key, with a renamedKey diagnostic")
    func oldKeySuppliesTheValue() throws {
        let editor = try editor(#"{"denseLayout":true,"compactMargin":24}"#)
        #expect(editor.settings[ReaderV2.compact] == true)
        #expect(editor.settings[ReaderV2.margin] == 24)
        #expect(editor[ReaderV2.margin].value == 24)
        #expect(editor[ReaderV2.margin].isEffective)
        #expect(
            editor.diagnostics == [
                PreferenceDiagnostic(.renamedKey, key: "denseLayout", newKey: "compactMode"),
                PreferenceDiagnostic(.renamedKey, key: "compactMargin", newKey: "compactMode.margin"),
            ])
        #expect(editor.diagnostics.map(\.code.rawValue) == ["renamedKey", "renamedKey"])
    }

    @Test("the old key stays stored until its value is re-encoded under the new key by an edit")
    func oldKeyStaysUntilReencoded() throws {
        var editor = try editor(#"{"compactMargin":24,"theme":"dark"}"#)
        try editor.set(ReaderV2.compact, true)
        #expect(editor.preferences.keys == ["compactMargin", "theme", "compactMode"])

        try editor.increment(ReaderV2.margin)
        #expect(
            editor.preferences.jsonString() == #"{"theme":"dark","compactMode":true,"compactMode.margin":28}"#
        )
        #expect(editor.diagnostics.isEmpty == false)
        #expect(editor.diagnostics.allSatisfy { $0.code == .unknownKey })
    }

    @Test("clearing the setting removes the old key too")
    func clearRemovesTheAlias() throws {
        var editor = try editor(#"{"compactMargin":24,"other":1}"#)
        editor.clear(ReaderV2.margin)
        #expect(editor.preferences.jsonString() == #"{"other":1}"#)
        #expect(editor.settings[ReaderV2.margin] == 16)
    }

    @Test("when both keys are stored the new key wins and the old one is not reported as a rename")
    func newKeyWins() throws {
        let editor = try editor(#"{"compactMargin":24,"compactMode.margin":32}"#)
        #expect(editor.settings[ReaderV2.margin] == 32)
        #expect(editor.diagnostics.allSatisfy { $0.code != .renamedKey })
    }

    @Test("an undecodable value under the old key is reported against the old key and ignored")
    func undecodableAlias() throws {
        let editor = try editor(#"{"compactMargin":"wide"}"#)
        #expect(editor.settings[ReaderV2.margin] == 16)
        #expect(
            editor.diagnostics == [PreferenceDiagnostic(.typeMismatch, key: "compactMargin", value: "wide")])
    }
}
