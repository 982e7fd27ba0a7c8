import Foundation
import Testing

@testable import ReadingPreferences

// The feature declaration of README.md ("App-defined features") and of the DocC article
// AppFeatures.md, verbatim: when it changes here, change it there too.
enum Labs: SettingsSchema {
    typealias Resolver = FeatureResolver<Labs>

    static let sidebar = Feature<Labs>("sidebar", title: "Sidebar")
    static let width = sidebar.range("width", title: "Width", range: 200...400, increment: 20, fallback: 280)
    static let edge = sidebar.picker(
        "edge", title: "Edge", values: ["leading", "trailing"], fallback: nil, noneLabel: "Automatic")
    static let pinned = sidebar.toggle("pinned")  // no title: hidden from settings forms

    static let catalogue = SettingCatalogue(features: [sidebar], options: [width, edge, pinned])
}

@Suite("An app-defined feature: a toggle whose options need it on (Specs/Resolution.md §9.1)")
struct AppFeatureTests {
    static let requiresSidebar = IneffectiveReason.requiresPreference(key: "sidebar", value: .bool(true))

    func editor(_ json: String = "{}") throws -> PreferencesEditor<Labs> {
        PreferencesEditor(preferences: try Preferences(json: json), resolver: FeatureResolver())
    }

    @Test("the feature comes first, then its options keyed <feature>.<option>")
    func keys() {
        #expect(Labs.catalogue.keys == ["sidebar", "sidebar.width", "sidebar.edge", "sidebar.pinned"])
        #expect(Labs.identifier == "labs")
    }

    @Test("while the feature is off, no option is effective and each requires the feature")
    func optionsNeedTheFeature() throws {
        let editor = try editor()
        #expect(editor[Labs.sidebar].isEffective)
        for key in ["sidebar.width", "sidebar.edge", "sidebar.pinned"] {
            let handle = try #require(editor.handle(forKey: key))
            #expect(!handle.isEffective, "\(key)")
            #expect(handle.reasons == [Self.requiresSidebar], "\(key)")
        }
        #expect(editor[Labs.width].effectiveValue == 280)
        #expect(editor[Labs.edge].effectiveValue == nil)
    }

    @Test("setting an option while the feature is off stores only the option")
    func setDoesNotTurnTheFeatureOn() throws {
        var editor = try editor()
        try editor.set(Labs.width, 300)
        #expect(editor.preferences.jsonString() == #"{"sidebar.width":300}"#)
        #expect(!editor[Labs.width].isEffective)
    }

    @Test("activate turns the feature on, after the option")
    func activateTurnsTheFeatureOn() throws {
        var editor = try editor(#"{"sidebar.width":300}"#)
        try editor.activate(Labs.width)
        #expect(editor.preferences.jsonString() == #"{"sidebar.width":300,"sidebar":true}"#)
        for handle in editor.handles {
            #expect(handle.isEffective, "\(handle.descriptor.key)")
            #expect(handle.reasons.isEmpty)
        }
    }

    @Test("turning the feature on or off changes no other resolved setting")
    func featureStateLeavesTheRestAlone() throws {
        let stored = #"{"sidebar.width":360,"sidebar.edge":"trailing","sidebar.pinned":true}"#
        var editor = try editor(stored)
        let off = editor.settings
        try editor.toggle(Labs.sidebar)
        let on = editor.settings
        #expect(on[Labs.sidebar] == true)
        #expect(off[Labs.sidebar] == false)
        for key in Labs.catalogue.keys where key != "sidebar" {
            #expect(on[key: key] == off[key: key], "\(key)")
        }
        #expect(on[Labs.width] == 360)
    }

    @Test("feature keys stored beside EPUB preferences change no EPUB setting, and EPUB keys survive")
    func sharedBag() throws {
        let epub = try Preferences(json: #"{"fontSize":1.4,"theme":"dark"}"#)
        var editor = PreferencesEditor<Labs>(preferences: epub, resolver: FeatureResolver())
        try editor.set(Labs.edge, "leading")
        try editor.activate(Labs.edge)
        #expect(editor.preferences.keys == ["fontSize", "theme", "sidebar.edge", "sidebar"])
        let before = EPUB.Resolver().resolve(epub)
        let after = EPUB.Resolver().resolve(editor.preferences)
        #expect(before == after)
    }

    @Test("hidden options are absent from the form; the picker offers its none entry with its label")
    func form() throws {
        let form = try editor().form()
        #expect(form.configurable == "labs")
        #expect(form.sections.map(\.id) == ["sidebar"])
        #expect(form.sections.first?.title == "Sidebar")
        #expect(form.rows.map(\.key) == ["sidebar", "sidebar.width", "sidebar.edge"])
        let rows = Dictionary(uniqueKeysWithValues: form.rows.map { ($0.key, $0) })
        #expect(rows["sidebar"]?.control == .toggle)
        #expect(rows["sidebar.width"]?.control == .stepper(range: 200...400, step: 20, steps: nil))
        #expect(
            rows["sidebar.edge"]?.control
                == .picker(options: [
                    .init(value: nil, label: "Automatic"),
                    .init(value: "leading", label: "Leading"),
                    .init(value: "trailing", label: "Trailing"),
                ]))
        let reason = try #require(rows["sidebar.width"]?.reasons.first)
        #expect(reason.code == "requiresPreference")
        #expect(reason.arguments == ["sidebar", "true"])
    }

    @Test("the README's usage lines do what their comments say")
    func readmeUsage() throws {
        let stored = Preferences()
        var editor = PreferencesEditor<Labs>(preferences: stored, resolver: FeatureResolver())
        #expect(editor[Labs.width].reasons == [Self.requiresSidebar])
        try editor.activate(Labs.width)
        #expect(editor.settings[Labs.sidebar] == true)
        let form = editor.form()
        #expect(form.table().hasPrefix("KEY "))
    }

    @Test("README.md and the DocC article show this file's declaration verbatim")
    func documentationShowsTheDeclaration() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let start = try #require(source.range(of: "enum Labs: SettingsSchema {"))
        let end = try #require(source.range(of: "\n}\n", range: start.upperBound..<source.endIndex))
        let declaration = String(source[start.lowerBound..<end.upperBound])
        for document in [
            "README.md", "Sources/ReadingPreferences/ReadingPreferences.docc/Guides/AppFeatures.md",
        ] {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            #expect(
                text.contains(declaration),
                "\(document) does not show the declaration of AppFeatureTests.swift")
        }
    }

    @Test("a hidden option is still a setting the app edits")
    func hiddenOptionEdits() throws {
        var editor = try editor(#"{"sidebar":true}"#)
        try editor.toggle(Labs.pinned)
        #expect(editor.settings[Labs.pinned] == true)
        #expect(editor[Labs.pinned].isEffective)
        #expect(!Labs.pinned.descriptor.isUserFacing)
    }
}
