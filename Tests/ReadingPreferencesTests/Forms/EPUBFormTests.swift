import Foundation
import Testing

@testable import ReadingPreferences

@Suite(
    "The EPUB settings form lists every user-facing setting with its control (Specs/Resolution.md §9.4, §5)")
struct EPUBFormTests {
    static let publication = PublicationContext(layout: .reflowable, languages: ["en"])
    static let editor = EPUB.Editor(resolver: EPUB.Resolver(publication: publication))

    typealias Control = SettingsForm.Control

    static func picker(_ values: [String], none: String? = nil) -> Control {
        let options = values.map { SettingsForm.Option(value: .string($0), label: EPUBFormTests.label($0)) }
        return .picker(options: (none.map { [SettingsForm.Option(value: nil, label: $0)] } ?? []) + options)
    }

    static func label(_ raw: String) -> String {
        ["ltr": "Left to right", "rtl": "Right to left"][raw] ?? raw.prefix(1).uppercased() + raw.dropFirst()
    }

    /// Specs/Resolution.md §5, row by row: the control a settings screen shows.
    static let controls: [(key: String, control: Control)] = [
        ("backgroundColor", .color),
        ("columnCount", picker(["auto", "1", "2"])),
        ("fit", picker(["auto", "page", "width"])),
        ("fontFamily", .text),
        ("fontSize", .stepper(range: 0.1...5.0, step: 0.1, steps: nil)),
        ("fontWeight", .stepper(range: 0.0...2.5, step: 0.25, steps: nil)),
        ("hyphens", .toggle),
        ("imageFilter", picker(["darken", "invert"], none: "Default")),
        ("language", .text),
        ("letterSpacing", .slider(range: 0.0...1.0, step: 0.1)),
        ("ligatures", .toggle),
        ("lineHeight", .stepper(range: 1.0...2.0, step: 0.1, steps: nil)),
        ("offsetFirstPage", .toggle),
        ("pageMargins", .stepper(range: 0.0...4.0, step: 0.3, steps: nil)),
        ("paragraphIndent", .stepper(range: 0.0...3.0, step: 0.2, steps: nil)),
        ("paragraphSpacing", .stepper(range: 0.0...2.0, step: 0.1, steps: nil)),
        ("publisherStyles", .toggle),
        ("readingProgression", picker(["ltr", "rtl"])),
        ("scroll", .toggle),
        ("spread", picker(["auto", "never", "always"])),
        ("textAlign", picker(["start", "left", "right", "justify"], none: "Default")),
        ("textColor", .color),
        ("textNormalization", .toggle),
        ("theme", picker(["light", "dark", "sepia"])),
        (
            "typeScale",
            .stepper(
                range: 1.0...2.0, step: nil, steps: [1.0, 1.067, 1.125, 1.2, 1.25, 1.333, 1.414, 1.5, 1.618])
        ),
        ("verticalText", .toggle),
        ("wordSpacing", .slider(range: 0.0...1.0, step: 0.1)),
    ]

    @Test(
        "every user-facing EPUB setting has a row, in its group's order, those of another layout or stylesheet last"
    )
    func everySetting() {
        let userFacing = EPUB.catalogue.descriptors.filter(\.isUserFacing).map(\.key)
        #expect(userFacing == EPUB.catalogue.keys)
        let rows = Self.editor.form().rows.map(\.key)
        #expect(rows.sorted() == userFacing.sorted())
        // Groups in order, each in its own order; the rows that cannot apply here keep that order too.
        let grouped = EPUB.catalogue.groups.flatMap(\.keys)
        let outside = ["ligatures", "fit", "spread", "offsetFirstPage"]
        #expect(rows == grouped.filter { !outside.contains($0) } + outside)
        #expect(Self.controls.map(\.key) == userFacing)
    }

    @Test("each row has the control of its kind, with its range and step", arguments: controls)
    func control(key: String, control: Control) throws {
        let row = try #require(Self.editor.form().rows.first { $0.key == key })
        #expect(row.control == control)
    }

    @Test("an app default names what the none entry of a picker gives back")
    func noneEntryWithDefault() throws {
        var defaults = EPUB.Defaults()
        defaults[.textAlign] = .justify
        let editor = EPUB.Editor(resolver: EPUB.Resolver(publication: Self.publication, defaults: defaults))
        let row = try #require(editor.form().rows.first { $0.key == "textAlign" })
        #expect(row.control == Self.picker(["start", "left", "right", "justify"], none: "Default (Justify)"))
        #expect(row.effectiveValue == "justify")
        #expect(row.isEffective == false)
    }

    @Test("a row carries the stored, effective and formatted values, the labels and the reasons")
    func rowValues() throws {
        var editor = Self.editor
        try editor.set(.fontSize, 1.25)
        try editor.set(.wordSpacing, 0.5, activate: false)
        let rows = Dictionary(uniqueKeysWithValues: editor.form().rows.map { ($0.key, $0) })
        let fontSize = try #require(rows["fontSize"])
        #expect(fontSize.title == "Font size")
        #expect(fontSize.titleKey == "settings.fontSize.title")
        #expect(fontSize.storedValue == 1.25)
        #expect(fontSize.effectiveValue == 1.25)
        #expect(fontSize.formattedValue == "125%")
        #expect(fontSize.accessibilityLabel == "125 percent")
        #expect(fontSize.isEffective)
        let wordSpacing = try #require(rows["wordSpacing"])
        #expect(!wordSpacing.isEffective)
        #expect(wordSpacing.reasons.map(\.description) == ["requiresPreference(publisherStyles, false)"])
        // Settings are named by their titles and values by their labels (issue 11).
        #expect(wordSpacing.reasons.first?.text == "Requires Publisher styles to be Off")
    }

    @Test("the form encodes to JSON and decodes back to an equal form")
    func jsonRoundTrip() throws {
        var editor = Self.editor
        try editor.set(.theme, .sepia)
        try editor.set(.textColor, RGBColor(red: 0x12, green: 0x34, blue: 0x56))
        try editor.increment(.typeScale)
        let form = editor.form()
        let data = try form.jsonData()
        #expect(try SettingsForm(jsonData: data) == form)
        #expect(try SettingsForm(jsonData: form.jsonData(prettyPrinted: false)) == form)
    }

    @Test("the JSON has sorted keys, so the output is stable")
    func jsonSorted() throws {
        let text = String(decoding: try Self.editor.form().jsonData(), as: UTF8.self)
        let configurable = try #require(text.range(of: "\"configurable\""))
        let sections = try #require(text.range(of: "\"sections\""))
        #expect(configurable.lowerBound < sections.lowerBound)
        #expect(text.contains("\n  \"configurable\" : \"epub\""))
    }
}
