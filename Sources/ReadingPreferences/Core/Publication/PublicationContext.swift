/// What a configurable knows of the publication (Specs/Preferences.md §1, Specs/Resolution.md §2): its layout, its languages and the
/// reading progression it declares.
///
/// Every configurable reads the part it needs: EPUB all of it, PDF the reading progression, TTS
/// the first language, audio nothing.
///
/// ```swift
/// let context = PublicationContext(layout: .reflowable, languages: ["ja"], readingProgression: .rtl)
/// let resolver = EPUB.Resolver(publication: context)
/// ```
///
/// Read it from JSON with ``init(json:path:)`` (tools, servers, conformance vectors) or through
/// `Codable`; both go through the same decoder, so every member is optional, `null` counts as
/// missing and unknown members are ignored.
public struct PublicationContext: Sendable, Hashable {
    /// Reflowable (the default) or fixed layout.
    public var layout: PublicationLayout
    /// BCP-47 tags; the first one is the publication language.
    public var languages: [LanguageTag]
    /// The declared reading progression; `auto` (the default) derives it from the language.
    public var readingProgression: PublicationReadingProgression
    /// The collections the publication belongs to (its series, shelves, folders), for the
    /// `collection` condition of profile rules (Specs/Resolution.md §2, Specs/Store.md §4.5).
    public var collections: [String]

    /// Creates a publication context.
    ///
    /// - Parameters:
    ///   - layout: Reflowable (default) or fixed.
    ///   - languages: The publication's language tags, the main one first.
    ///   - readingProgression: The declared reading progression (default `auto`).
    ///   - collections: The collections it belongs to: series, shelves, folders (default none).
    public init(
        layout: PublicationLayout = .reflowable, languages: [LanguageTag] = [],
        readingProgression: PublicationReadingProgression = .auto, collections: [String] = []
    ) {
        self.layout = layout
        self.languages = languages
        self.readingProgression = readingProgression
        self.collections = collections
    }

    /// The publication language: the first of ``languages``, when it is a well-formed tag
    /// (``LanguageTag/isWellFormed``). Metadata is untrusted input: a malformed first language is
    /// ignored, so it never reaches a `lang` attribute.
    public var language: LanguageTag? {
        guard let first = languages.first, first.isWellFormed else { return nil }
        return first
    }

    /// Reads a context from a JSON object such as
    /// `{"layout": "fixed", "languages": ["ja"], "readingProgression": "rtl", "collections": ["manga"]}`.
    ///
    /// Every member is optional; a `null` member counts as missing (so `"readingProgression": null`
    /// is `auto`), and unknown members are ignored.
    ///
    /// ```swift
    /// let context = try PublicationContext(json: ["languages": ["ar"]])
    /// ```
    ///
    /// - Parameters:
    ///   - json: The JSON object.
    ///   - path: The object's path in a larger document, for error messages (empty for a file).
    /// - Throws: ``JSONMemberError`` naming the member with the wrong type or value.
    public init(json: JSONValue, path: String = "") throws(JSONMemberError) {
        let reader = try JSONMemberReader(json, path: path)
        self.init(
            layout: try reader.choice("layout", PublicationLayout.self) ?? .reflowable,
            languages: (try reader.strings("languages") ?? []).map(LanguageTag.init(code:)),
            readingProgression: try reader.choice("readingProgression", PublicationReadingProgression.self)
                ?? .auto,
            collections: try reader.strings("collections") ?? [])
    }

    /// The context as the JSON object that ``init(json:path:)`` reads (`collections` only when
    /// there are some, so contexts written before it existed read and write alike).
    public var jsonValue: JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "layout", value: .string(layout.rawValue)),
            .init(key: "languages", value: .array(languages.map { .string($0.code) })),
            .init(key: "readingProgression", value: .string(readingProgression.rawValue)),
        ]
        if !collections.isEmpty {
            members.append(.init(key: "collections", value: .array(collections.map(JSONValue.string))))
        }
        return .object(JSONObject(members: members))
    }
}

extension PublicationContext: Codable {
    /// Decodes a context through ``init(json:path:)``, the one decoder of publication contexts.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` naming the member that is wrong.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do throws(JSONMemberError) {
            try self.init(json: json)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes the context as ``jsonValue``.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}
