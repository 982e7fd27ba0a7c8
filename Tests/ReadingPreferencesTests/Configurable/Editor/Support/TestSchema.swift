import Foundation
import Testing

@testable import ReadingPreferences

/// A small schema written for the editor tests only, so the generic editor rules (Specs/Settings.md §4 to
/// §6) are checked independently of EPUB's catalogue and resolver.
///
/// Every setting resolves as `preference ?? default ?? fallback`.
enum TestSchema: SettingsSchema {
    typealias Resolver = TestResolver

    enum Mode: String, SettingEnumeration {
        case compact, regular, spacious
    }

    /// A toggle; falls back to `false`.
    static let flag = Setting<TestSchema, Bool>.toggle("flag", title: "Flag")

    /// A range with steps; the range reaches below the first step and above the last one.
    static let scale = Setting<TestSchema, Double>.range(
        "scale", title: "Scale", range: 0.5...3.0, steps: [1.0, 1.2, 1.25, 1.5, 2.0])

    /// A range with an increment of 0.1, like EPUB's font size; `textSize` is its old key.
    static let size = Setting<TestSchema, Double>.range(
        "size", title: "Size", range: 0.1...5.0, increment: 0.1, format: .percent
    ) {
        $0.renamedFrom = ["textSize"]
    }

    /// A percent with the kind's defaults (0...1, +0.1).
    static let opacity = Setting<TestSchema, Double>.percent("opacity", title: "Opacity")

    /// An `Int` range.
    static let count = Setting<TestSchema, Int>.range("count", title: "Count", range: 1...10)

    /// An enum whose supported values leave out one case.
    static let mode = Setting<TestSchema, Mode>.enumeration(
        "mode", title: "Mode", supported: [.compact, .regular])

    /// A color accepting any color.
    static let tint = Setting<TestSchema, RGBColor>.color("tint", title: "Tint")

    /// Effective only when `flag` is true, which `set` writes by itself (automatic).
    static let spacing = Setting<TestSchema, Double>.range(
        "spacing", title: "Spacing", range: 0...1, increment: 0.1
    ) {
        $0.activator = .allOf([
            .requiresPreference(key: "flag", value: .bool(true), automatic: true),
            .condition(.valueResolved),
        ])
    }

    /// Effective only when `mode` is compact, which only an explicit `activate` writes (manual).
    static let gutter = Setting<TestSchema, Double>.range("gutter", title: "Gutter", range: 0...1) {
        $0.activator = .allOf([
            .requiresPreference(key: "mode", value: .string("compact"), automatic: false)
        ])
    }

    /// A manual requirement plus a layout condition that no preference can meet on a reflowable
    /// publication.
    static let pageTurn = Setting<TestSchema, Bool>.toggle("pageTurn", title: "Page turn") {
        $0.activator = .allOf([
            .requiresPreference(key: "mode", value: .string("compact"), automatic: false),
            .condition(.layout(.fixed)),
        ])
    }

    static let catalogue = SettingCatalogue([
        flag.descriptor, scale.descriptor, size.descriptor, opacity.descriptor, count.descriptor,
        mode.descriptor, tint.descriptor, spacing.descriptor, gutter.descriptor, pageTurn.descriptor,
    ])

    /// The fallback of each key; a missing key falls back to none.
    static let fallbacks: [String: SettingValue] = [
        "flag": .bool(false),
        "scale": .number(1.2),
        "size": .number(1.0),
        "opacity": .number(0.5),
        "count": .integer(2),
        "mode": .string("regular"),
        "gutter": .number(0.5),
        "pageTurn": .bool(false),
    ]
}

/// Resolves every setting as `preference ?? default ?? fallback`.
struct TestResolver: SettingsResolver {
    typealias Schema = TestSchema

    var defaults = SettingValueTable<TestSchema>()
    var layout: PublicationLayout = .reflowable

    func resolve(
        _ preferences: SettingValueTable<TestSchema>, into settings: inout ResolvedSettings<TestSchema>
    ) {
        settings.layout = layout
        for (slot, descriptor) in TestSchema.catalogue.descriptors.enumerated() {
            settings.values[slot: slot] =
                preferences[slot: slot] ?? defaults[slot: slot] ?? TestSchema.fallbacks[descriptor.key]
        }
    }
}

extension Setting where Owner == TestSchema {
    static var flag: Setting<TestSchema, Bool> { TestSchema.flag }
    static var scale: Setting<TestSchema, Double> { TestSchema.scale }
    static var size: Setting<TestSchema, Double> { TestSchema.size }
    static var opacity: Setting<TestSchema, Double> { TestSchema.opacity }
    static var count: Setting<TestSchema, Int> { TestSchema.count }
    static var mode: Setting<TestSchema, TestSchema.Mode> { TestSchema.mode }
    static var tint: Setting<TestSchema, RGBColor> { TestSchema.tint }
    static var spacing: Setting<TestSchema, Double> { TestSchema.spacing }
    static var gutter: Setting<TestSchema, Double> { TestSchema.gutter }
    static var pageTurn: Setting<TestSchema, Bool> { TestSchema.pageTurn }
}

typealias TestEditor = PreferencesEditor<TestSchema>

extension PreferencesEditor where Schema == TestSchema {
    /// An editor of `json` with the test resolver.
    static func test(
        _ json: String = "{}", defaults: SettingValueTable<TestSchema> = .init(),
        layout: PublicationLayout = .reflowable
    ) throws -> TestEditor {
        TestEditor(
            preferences: try Preferences(json: json),
            resolver: TestResolver(defaults: defaults, layout: layout))
    }
}

extension PreferencesEditor where Schema == EPUB {
    /// An EPUB editor of `json` for a publication.
    static func epub(
        _ json: String = "{}", publication: PublicationContext = .init(), defaults: EPUB.Defaults = .init()
    ) throws -> EPUB.Editor {
        EPUB.Editor(
            preferences: try Preferences(json: json),
            resolver: EPUB.Resolver(publication: publication, defaults: defaults))
    }
}

/// Runs an edit and returns the ``PreferenceError`` it threw, or `nil` when it succeeded; any
/// other error is recorded as an issue (edits throw only `PreferenceError`).
func editError(
    sourceLocation: SourceLocation = #_sourceLocation, _ edit: () throws -> Void
) -> PreferenceError? {
    do {
        try edit()
        return nil
    } catch let error as PreferenceError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

extension Preferences {
    /// The stored number of a key, for checks on the exact JSON written.
    func number(_ key: String) -> JSONNumber? {
        self[key]?.numberValue
    }
}
