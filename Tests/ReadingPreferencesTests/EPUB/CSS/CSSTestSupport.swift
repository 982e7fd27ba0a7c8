import Foundation
import Testing

@testable import ReadingPreferences

/// Builds resolved EPUB settings and their Readium CSS from JSON, the way the conformance vectors
/// describe a case, so every test states its inputs in the words of Specs/CSS.md.
enum CSSFixture {
    /// Resolves JSON preferences for a publication (Specs/Resolution.md §4).
    static func settings(
        _ preferences: String = "{}",
        languages: [LanguageTag] = ["en"],
        layout: PublicationLayout = .reflowable,
        readingProgression: PublicationReadingProgression = .auto,
        defaults: String = "{}",
        environment: ReadingEnvironment = ReadingEnvironment()
    ) throws -> EPUB.Settings {
        let publication = PublicationContext(
            layout: layout, languages: languages, readingProgression: readingProgression)
        let resolver = EPUB.Resolver(
            publication: publication,
            defaults: EPUB.Defaults(try Preferences(json: defaults), asDefaults: true),
            environment: environment)
        return resolver.resolve(try Preferences(json: preferences))
    }

    /// The Readium CSS of JSON preferences for a publication (Specs/CSS.md §1).
    static func css(
        _ preferences: String = "{}",
        languages: [LanguageTag] = ["en"],
        layout: PublicationLayout = .reflowable,
        readingProgression: PublicationReadingProgression = .auto,
        defaults: String = "{}",
        environment: ReadingEnvironment = ReadingEnvironment(),
        options: ReadiumCSSOptions = ReadiumCSSOptions()
    ) throws -> ReadiumCSSProperties {
        try settings(
            preferences, languages: languages, layout: layout, readingProgression: readingProgression,
            defaults: defaults, environment: environment
        )
        .readiumCSS(options: options)
    }

    /// The properties every reflowable publication gets with no preferences (Specs/CSS.md §1.3: the rows
    /// marked "always", with their fallbacks from Specs/Resolution.md §5).
    static let baseline: [String: String] = [
        "--USER__colCount": "auto",
        "--USER__fontSize": "100%",
        "--USER__pageMargins": "1",
        "--USER__view": "readium-paged-on",
    ]
}

/// One expected property of a table row: `nil` means the property must be absent.
struct ExpectedCSSProperty: Sendable, CustomTestStringConvertible {
    var preferences: String
    var name: String
    var value: String?

    init(_ preferences: String, _ name: String, _ value: String?) {
        self.preferences = preferences
        self.name = name
        self.value = value
    }

    var testDescription: String { "\(preferences) → \(name) = \(value ?? "absent")" }
}
