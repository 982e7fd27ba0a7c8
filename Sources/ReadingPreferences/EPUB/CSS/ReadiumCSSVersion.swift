/// The Readium CSS a navigator ships, which the CSS output is written for and effectiveness is
/// reported for (Specs/CSS.md §1, §4; Specs/Resolution.md §5.2).
///
/// Readium CSS 1 is what Readium's Swift and Kotlin toolkits 3.x ship, and the default; Readium
/// CSS 2 is what Readium's TypeScript navigator ships (since 2.3.0), with no night, sepia,
/// advanced or font-override flags: themes are colors, and each user setting applies as soon as
/// its property is set.
///
/// ```swift
/// let environment = ReadingEnvironment(readiumCSS: .v2)
/// let settings = EPUB.Resolver(publication: book, environment: environment).resolve(stored)
/// settings.readiumCSS().inlineStyle      // written for Readium CSS 2
/// ReadiumCSSVersion(rawValue: 2)         // .v2: the spelling tools and routes use
/// ```
public enum ReadiumCSSVersion: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Readium CSS 1.x (the Swift and Kotlin toolkits 3.x).
    case v1 = 1
    /// Readium CSS 2.0.x (Readium's TypeScript navigator since 2.3.0).
    case v2 = 2

    /// `Readium CSS 1` or `Readium CSS 2`.
    public var description: String { "Readium CSS \(rawValue)" }
}
