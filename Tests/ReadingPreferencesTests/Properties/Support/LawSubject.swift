import Testing

@testable import ReadingPreferences

/// A configurable the laws run on: its schema and how it resolves in a generated context.
protocol LawSubject: Sendable {
    associatedtype Schema: SettingsSchema
    /// The resolver for a generated publication, environment and defaults.
    func resolver(_ context: ReadingContext) -> Schema.Resolver
}

extension LawSubject {
    var catalogue: SettingCatalogue { Schema.catalogue }

    /// An editor of preferences in a context.
    func editor(_ preferences: Preferences, _ context: ReadingContext) -> PreferencesEditor<Schema> {
        PreferencesEditor<Schema>(preferences: preferences, resolver: resolver(context))
    }
}

struct EPUBSubject: LawSubject {
    typealias Schema = EPUB

    func resolver(_ context: ReadingContext) -> EPUB.Resolver {
        EPUB.Resolver(
            publication: PublicationContext(
                layout: context.layout, languages: context.languages.map(LanguageTag.init(code:)),
                readingProgression: context.readingProgression),
            defaults: context.defaultValues(EPUB.self), environment: context.environment,
            availableFontFamilies: context.languages.first == "ja" ? ["Literata", "serif"] : nil)
    }
}

struct PDFSubject: LawSubject {
    typealias Schema = PDF

    func resolver(_ context: ReadingContext) -> PDF.Resolver {
        PDF.Resolver(
            readingProgression: context.readingProgression, defaults: context.defaultValues(PDF.self))
    }
}

struct AudioSubject: LawSubject {
    typealias Schema = Audio

    func resolver(_ context: ReadingContext) -> Audio.Resolver {
        Audio.Resolver(defaults: context.defaultValues(Audio.self), layout: context.layout)
    }
}

struct TTSSubject: LawSubject {
    typealias Schema = TTS

    func resolver(_ context: ReadingContext) -> TTS.Resolver {
        TTS.Resolver(
            publicationLanguage: context.languages.first.map(LanguageTag.init(code:)),
            defaults: context.defaultValues(TTS.self))
    }
}

struct LabsSubject: LawSubject {
    typealias Schema = LawLabs

    func resolver(_ context: ReadingContext) -> FeatureResolver<LawLabs> {
        FeatureResolver(
            defaults: context.defaultValues(LawLabs.self),
            dynamicValues: [
                "reader.font": { settings in
                    settings[key: "reader.edge"] == .string("right")
                        ? [.string("Amiri")] : [.string("Literata")]
                }
            ])
    }
}

/// The configurables every law runs for: the four of the package and an app-defined one.
enum LawConfigurable: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case epub, pdf, audio, tts, labs

    var subject: any LawSubject {
        switch self {
        case .epub: EPUBSubject()
        case .pdf: PDFSubject()
        case .audio: AudioSubject()
        case .tts: TTSSubject()
        case .labs: LabsSubject()
        }
    }

    var testDescription: String { rawValue }
}

/// A small app-defined schema (Specs/Resolution.md §9.1): a feature whose options are of every kind (a stepped
/// range, an Int range, a percent, pickers fixed and computed, a color, text), with aliases.
enum LawLabs: SettingsSchema {
    typealias Resolver = FeatureResolver<LawLabs>

    static let reader = Feature<LawLabs>("reader", title: "Reader", renamedFrom: ["labs.reader"])
    static let zoom = reader.range(
        "zoom", title: "Zoom", range: 0.5...2.0, steps: [0.5, 0.75, 1.0, 1.25, 1.5, 2.0], fallback: 1.0)
    static let margin = reader.range("margin", title: "Margin", range: 0...48, increment: 4, fallback: 8)
    static let edge = reader.picker(
        "edge", title: "Edge", values: ["left", "right", "bottom"], fallback: "left", noneLabel: "Automatic")
    static let font = reader.picker("font", title: "Font", values: nil, fallback: nil)
    static let pinned = reader.toggle("pinned", title: "Pinned", renamedFrom: ["reader.pin"])
    static let caption = reader.text("caption", title: "Caption")
    static let columns = Setting<LawLabs, Int>.range("columns", title: "Columns", range: 1...6)
    static let accent = Setting<LawLabs, RGBColor>.color("accent", title: "Accent")
    static let dimming = Setting<LawLabs, Double>.percent("dimming", title: "Dimming") {
        $0.fallback = .number(0.2)
    }

    static let catalogue = SettingCatalogue(
        features: [reader], options: [zoom, margin, edge, font, pinned, caption, columns, accent, dimming])
}
