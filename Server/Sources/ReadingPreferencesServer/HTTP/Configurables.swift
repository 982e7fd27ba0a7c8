import ReadingPreferences

/// The configurables the server keeps preferences for: the library's (``ConfigurableKind``), by
/// the identifier a path names.
enum Configurables {
    /// The schema of the configurable a path names (404 for one the server does not know).
    /// A controller opens it once, by passing it to a generic function.
    static func schema(named identifier: String) throws -> any ResolvableSchema.Type {
        guard let kind = ConfigurableKind(rawValue: identifier) else {
            throw Problem(
                .notFound, "unknownConfigurable",
                "no configurable \(identifier): use " + ConfigurableKind.allNames.joined(separator: ", "))
        }
        return kind.schema
    }
}
