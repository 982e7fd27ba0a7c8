/// Everything besides the preferences that a configurable resolves with, as tools read it from
/// JSON: the publication, the app defaults and the environment (Specs/Resolution.md §1, Specs/README.md §3).
///
/// ```swift
/// let inputs = ConfigurableInputs(
///     publication: PublicationContext(languages: ["en"]),
///     defaults: ["pageMargins": 1.5],
///     environment: ReadingEnvironment(appearance: .dark))
/// ```
public struct ConfigurableInputs: Sendable, Hashable {
    /// The publication context.
    public var publication: PublicationContext
    /// The app defaults, as a JSON object; keys the defaults may not set are ignored (Specs/Resolution.md §5).
    public var defaults: Preferences
    /// The device environment.
    public var environment: ReadingEnvironment

    /// Creates inputs; each one defaults to empty (a reflowable publication with no language,
    /// no defaults, light appearance).
    ///
    /// - Parameters:
    ///   - publication: The publication context.
    ///   - defaults: The app defaults, as preferences.
    ///   - environment: The device environment.
    public init(
        publication: PublicationContext = PublicationContext(), defaults: Preferences = Preferences(),
        environment: ReadingEnvironment = ReadingEnvironment()
    ) {
        self.publication = publication
        self.defaults = defaults
        self.environment = environment
    }
}
