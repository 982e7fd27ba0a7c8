/// A publication context written as JSON, for any configurable (SPEC 5.1, 11).
///
/// Tools read it from a file or a conformance vector, and each configurable turns it into its
/// own context (``EPUB/Publication`` for EPUB):
///
/// ```swift
/// let json = try JSONValue(json: #"{"layout":"reflowable","languages":["en"],"readingProgression":"auto"}"#)
/// let description = try PublicationDescription(json: json)
/// let context = EPUB.Publication(description)
/// ```
public struct PublicationDescription: Sendable, Hashable {
    /// Reflowable (the default) or fixed layout.
    public var layout: PublicationLayout
    /// BCP-47 tags; the first one is the publication language.
    public var languages: [String]
    /// The declared reading progression; `auto` (the default) derives it from the language.
    public var readingProgression: PublicationReadingProgression

    /// Creates a description.
    ///
    /// - Parameters:
    ///   - layout: Reflowable (default) or fixed.
    ///   - languages: The publication's language tags, the main one first.
    ///   - readingProgression: The declared reading progression (default `auto`).
    public init(
        layout: PublicationLayout = .reflowable, languages: [String] = [],
        readingProgression: PublicationReadingProgression = .auto
    ) {
        self.layout = layout
        self.languages = languages
        self.readingProgression = readingProgression
    }

    /// Reads a description from a JSON object such as
    /// `{"layout": "fixed", "languages": ["ja"], "readingProgression": "rtl"}`.
    ///
    /// Every member is optional; a `null` member counts as missing (so `"readingProgression": null`
    /// is `auto`), and unknown members are ignored.
    ///
    /// - Parameters:
    ///   - json: The JSON object.
    ///   - path: The object's path in a larger document, for error messages (empty for a file).
    /// - Throws: ``JSONMemberError`` naming the member with the wrong type or value.
    public init(json: JSONValue, path: String = "") throws(JSONMemberError) {
        let reader = try JSONMemberReader(json, path: path)
        self.init(
            layout: try reader.choice("layout", PublicationLayout.self) ?? .reflowable,
            languages: try reader.strings("languages") ?? [],
            readingProgression: try reader.choice("readingProgression", PublicationReadingProgression.self)
                ?? .auto)
    }
}

extension ReadingEnvironment {
    /// Reads an environment from a JSON object such as `{"forceScroll": true, "appearance": "dark"}`
    /// (SPEC 4, 11).
    ///
    /// Both members are optional (light appearance, scroll not forced); `null` counts as missing
    /// and unknown members are ignored.
    ///
    /// ```swift
    /// let environment = try ReadingEnvironment(json: ["appearance": "dark"])
    /// ```
    ///
    /// - Parameters:
    ///   - json: The JSON object.
    ///   - path: The object's path in a larger document, for error messages (empty for a file).
    /// - Throws: ``JSONMemberError`` naming the member with the wrong type or value.
    public init(json: JSONValue, path: String = "") throws(JSONMemberError) {
        let reader = try JSONMemberReader(json, path: path)
        self.init(
            forceScroll: try reader.bool("forceScroll") ?? false,
            appearance: try reader.choice("appearance", SystemAppearance.self) ?? .light)
    }
}

extension EPUB.Publication {
    /// Creates the EPUB context of a publication description.
    ///
    /// - Parameter description: The layout, languages and reading progression.
    public init(_ description: PublicationDescription) {
        self.init(
            layout: description.layout, languages: description.languages.map { Language(code: $0) },
            readingProgression: description.readingProgression)
    }
}
