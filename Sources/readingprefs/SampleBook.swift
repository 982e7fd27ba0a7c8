import ReadingPreferences

/// The built-in sample shown by `readingprefs` with no arguments.
struct SampleBook {
    /// The publication's title.
    var title: String
    /// A one-line description of the context.
    var summary: String
    /// The preferences document, as a person would store it.
    var preferencesJSON: String
    /// The publication, app defaults and environment.
    var inputs: ConfigurableInputs

    /// The sample preferences with their diagnostics; a document that does not decode reads as
    /// empty (it is a constant, so that never happens).
    var preferences: (Preferences, [PreferenceDiagnostic]) {
        guard let decoded = try? EPUB.catalogue.decode(json: Array(preferencesJSON.utf8)) else {
            return (Preferences(), [])
        }
        return decoded
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
            publication: PublicationDescription(
                layout: .reflowable, languages: ["en"], readingProgression: .auto),
            defaults: ["pageMargins": 1.5, "textAlign": "justify"]))
}
