import ReadingPreferences

/// The configurables the server keeps preferences for, by the identifier a path names.
enum Configurables {
    /// Every configurable the server knows.
    static let all: [any ResolvableSchema.Type] = [EPUB.self, PDF.self, Audio.self, TTS.self]

    /// The schema of the configurable a path names (404 for one the server does not know).
    /// A controller opens it once, by passing it to a generic function.
    static func schema(named identifier: String) throws -> any ResolvableSchema.Type {
        guard let schema = all.first(where: { $0.identifier == identifier }) else {
            throw Problem(
                .notFound, "unknownConfigurable",
                "no configurable \(identifier): use " + ConfigurableKind.allNames.joined(separator: ", "))
        }
        return schema
    }
}
