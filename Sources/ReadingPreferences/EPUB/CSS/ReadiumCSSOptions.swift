/// What an app adds to the Readium CSS output besides the resolved settings (Specs/CSS.md §1.6).
///
/// ```swift
/// var options = ReadiumCSSOptions()
/// options.readingSystemProperties = ["--RS__backgroundColor": "#FFFFFF"]
/// options.overrides = ["--USER__pageMargins": "2", "--USER__view": nil]   // nil removes
/// options.version = .v2   // write for Readium CSS 2 whatever the settings were resolved for
/// ```
public struct ReadiumCSSOptions: Sendable, Hashable {
    /// The font families used to build `--USER__fontFamily` stacks.
    public var fonts: FontFamilyRegistry
    /// Reading-system properties (`--RS__*`), merged first.
    public var readingSystemProperties: [String: String]
    /// App overrides, merged last; a `nil` value removes the property.
    public var overrides: [String: String?]
    /// The Readium CSS to write for; `nil` (the default) for the one the settings were resolved
    /// for (their environment's).
    public var version: ReadiumCSSVersion?

    /// Creates options.
    public init(
        fonts: FontFamilyRegistry = FontFamilyRegistry(), readingSystemProperties: [String: String] = [:],
        overrides: [String: String?] = [:], version: ReadiumCSSVersion? = nil
    ) {
        self.fonts = fonts
        self.readingSystemProperties = readingSystemProperties
        self.overrides = overrides
        self.version = version
    }
}
