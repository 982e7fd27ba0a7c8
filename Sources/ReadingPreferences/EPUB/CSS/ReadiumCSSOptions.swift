/// What an app adds to the Readium CSS output besides the resolved settings (Specs/CSS.md §1.6).
///
/// ```swift
/// var options = ReadiumCSSOptions()
/// options.readingSystemProperties = ["--RS__backgroundColor": "#FFFFFF"]
/// options.overrides = ["--USER__pageMargins": "2", "--USER__view": nil]   // nil removes
/// ```
public struct ReadiumCSSOptions: Sendable, Hashable {
    /// The font families used to build `--USER__fontFamily` stacks.
    public var fonts: FontFamilyRegistry
    /// Reading-system properties (`--RS__*`), merged first.
    public var readingSystemProperties: [String: String]
    /// App overrides, merged last; a `nil` value removes the property.
    public var overrides: [String: String?]

    /// Creates options.
    public init(
        fonts: FontFamilyRegistry = FontFamilyRegistry(), readingSystemProperties: [String: String] = [:],
        overrides: [String: String?] = [:]
    ) {
        self.fonts = fonts
        self.readingSystemProperties = readingSystemProperties
        self.overrides = overrides
    }
}
