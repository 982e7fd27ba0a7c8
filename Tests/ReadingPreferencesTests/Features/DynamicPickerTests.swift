import Foundation
import Testing

@testable import ReadingPreferences

/// An app's typography feature: the font families offered depend on the chosen script.
private enum Typography: SettingsSchema {
    typealias Resolver = FeatureResolver<Typography>

    static let fonts = Feature<Typography>("fonts", title: "Custom fonts", isEnabledByDefault: true)
    static let script = fonts.picker(
        "script", title: "Script", values: ["latin", "arabic"], fallback: "latin")
    static let family = fonts.picker(
        "family", title: "Family", values: nil, fallback: nil, noneLabel: "Publisher")

    static let catalogue = SettingCatalogue(features: [fonts], options: [script, family])

    /// Families by script, computed from the resolved settings.
    static let resolver = FeatureResolver<Typography>(dynamicValues: [
        "fonts.family": { settings in
            let names =
                settings[script] == "arabic" ? ["Amiri", "Noto Naskh Arabic"] : ["Literata", "Charter"]
            return names.map(SettingValue.string)
        }
    ])
}

@Suite("A picker whose values are computed from another preference (Specs/Resolution.md §9.3)")
struct DynamicPickerTests {
    @Test("the offered values follow the other preference after every edit")
    func valuesFollowTheScript() throws {
        var editor = PreferencesEditor<Typography>(resolver: Typography.resolver)
        #expect(editor[Typography.family].supportedValues == ["Literata", "Charter"])
        try editor.set(Typography.script, "arabic")
        #expect(editor[Typography.family].supportedValues == ["Amiri", "Noto Naskh Arabic"])
        editor.clear(Typography.script)
        #expect(editor[Typography.family].supportedValues == ["Literata", "Charter"])
    }

    @Test("app defaults count: a default script picks the values")
    func defaultsCount() {
        var resolver = Typography.resolver
        resolver.defaults[Typography.script] = "arabic"
        let editor = PreferencesEditor<Typography>(resolver: resolver)
        #expect(editor[Typography.family].supportedValues == ["Amiri", "Noto Naskh Arabic"])
    }

    @Test("the form's picker lists the computed values after its none entry")
    func formFollows() throws {
        var editor = PreferencesEditor<Typography>(resolver: Typography.resolver)
        try editor.set(Typography.script, "arabic")
        try editor.set(Typography.family, "Amiri")
        let row = try #require(editor.form().rows.first { $0.key == "fonts.family" })
        #expect(
            row.control
                == .picker(options: [
                    .init(value: nil, label: "Publisher"), .init(value: "Amiri", label: "Amiri"),
                    .init(value: "Noto Naskh Arabic", label: "Noto Naskh Arabic"),
                ]))
        #expect(row.storedValue == "Amiri")
        #expect(row.isEffective)
    }

    @Test("a picker without static values has none in its descriptor and accepts any non-empty name")
    func openDescriptor() throws {
        #expect(Typography.family.descriptor.supportedValues == nil)
        var editor = PreferencesEditor<Typography>(resolver: Typography.resolver)
        try editor.set(Typography.family, "Charter")
        #expect(editor.settings[Typography.family] == "Charter")
        #expect(throws: PreferenceError.self) { try editor.set(Typography.family, "") }
    }
}
