import ReadingPreferences

/// Checks an app-defined catalogue in the app's own tests: every declaration mistake
/// (`SettingCatalogue/Problem`) fails with its description.
///
/// ```swift
/// import ReadingPreferencesConformance
/// import Testing
///
/// @Test func labsCatalogueIsSound() throws {
///     try CatalogueCheck.validate(Labs.self)
/// }
/// ```
public enum CatalogueCheck {
    /// The problems of a catalogue, as an error.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Every problem found, in declaration order.
        public var problems: [SettingCatalogue.Problem]

        /// One problem per line.
        public var description: String {
            "the catalogue has \(problems.count) problem(s):\n"
                + problems.map { "  " + $0.description }.joined(separator: "\n")
        }
    }

    /// Throws when a catalogue has declaration problems.
    ///
    /// - Parameter catalogue: The catalogue.
    /// - Throws: ``Failure`` listing every problem.
    public static func validate(_ catalogue: SettingCatalogue) throws(Failure) {
        guard catalogue.problems.isEmpty else { throw Failure(problems: catalogue.problems) }
    }

    /// Throws when a schema's catalogue has declaration problems.
    ///
    /// - Parameter schema: The schema.
    /// - Throws: ``Failure`` listing every problem.
    public static func validate<Schema: SettingsSchema>(_ schema: Schema.Type) throws(Failure) {
        try validate(Schema.catalogue)
    }
}
