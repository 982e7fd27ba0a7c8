import ReadingPreferences

/// The built-in samples shown by `readingprefs` with no command, one per configurable.
struct SampleBook {
    /// The publication's title.
    var title: String
    /// A one-line description of the context.
    var summary: String
    /// The preferences document, as a person would store it.
    var preferencesJSON: String
    /// The publication, app defaults and environment.
    var inputs: ConfigurableInputs

    /// The sample preferences with their diagnostics for a configurable; a document that does
    /// not decode reads as empty (they are constants, so that never happens).
    func preferences(for kind: ConfigurableKind) -> (Preferences, [PreferenceDiagnostic]) {
        guard let decoded = try? kind.catalogue.decode(json: Array(preferencesJSON.utf8)) else {
            return (Preferences(), [])
        }
        return decoded
    }

    /// The sample of a configurable.
    static func sample(for kind: ConfigurableKind) -> SampleBook {
        switch kind {
        case .epub: return epub
        case .pdf: return pdf
        case .audio: return audio
        case .tts: return tts
        }
    }

    /// An English reflowable novel with a few preferences: a larger font, the sepia theme, word
    /// spacing with publisher styles off, a line height out of range, an app's own key, and two
    /// app defaults.
    static let epub = SampleBook(
        title: "\"The Time Machine\" by H. G. Wells",
        summary: "reflowable, English, reading progression auto",
        preferencesJSON: """
            {"fontSize": 1.2, "theme": "sepia", "wordSpacing": 0.2, "publisherStyles": false, \
            "lineHeight": 2.4, "myApp.toolbarHidden": true}
            """,
        inputs: ConfigurableInputs(
            publication: PublicationContext(
                layout: .reflowable, languages: ["en"], readingProgression: .auto),
            defaults: ["pageMargins": 1.5, "textAlign": "justify"]))

    /// A right-to-left PDF read in vertical scroll, with a page spacing out of range.
    static let pdf = SampleBook(
        title: "\"Kitab al-Hayawan\" (scanned PDF)",
        summary: "PDF, reading progression rtl",
        preferencesJSON: """
            {"scroll": true, "pageSpacing": 250, "spread": "always", "myApp.thumbnails": false}
            """,
        inputs: ConfigurableInputs(
            publication: PublicationContext(layout: .fixed, readingProgression: .rtl),
            defaults: ["visibleScrollbar": false]))

    /// An audiobook played faster than normal.
    static let audio = SampleBook(
        title: "\"Moby-Dick\" (audiobook)",
        summary: "audio",
        preferencesJSON: #"{"speed": 1.5, "volume": 0.8}"#,
        inputs: ConfigurableInputs(defaults: ["speed": 1.25]))

    /// A French novel read aloud with a chosen voice.
    static let tts = SampleBook(
        title: "\"Le Tour du monde en quatre-vingts jours\" by Jules Verne",
        summary: "text to speech, French",
        preferencesJSON: #"{"pitch": 0.9, "voices": {"fr": "com.apple.voice.Thomas"}}"#,
        inputs: ConfigurableInputs(publication: PublicationContext(languages: ["fr"])))
}
