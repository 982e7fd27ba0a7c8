import ReadingPreferences

/// The publication a workload resolves against (issue 14): real books have a language, and the
/// language drives reading progression, vertical text and the stylesheet variant.
public enum BenchmarkPublication: String, CaseIterable, Sendable {
    /// No publication information: `PublicationContext()`, the rows of issue 7.
    case none
    /// An English book: `languages: ["en"]`.
    case english = "en"
    /// An Arabic book read right to left: `languages: ["ar"]`, `readingProgression: .rtl`.
    case arabic = "ar-rtl"
    /// A Japanese book read right to left (vertical text): `languages: ["ja"]`,
    /// `readingProgression: .rtl`.
    case japanese = "ja-rtl"

    /// The publication context.
    public var context: PublicationContext {
        switch self {
        case .none: PublicationContext()
        case .english: PublicationContext(layout: .reflowable, languages: ["en"])
        case .arabic: PublicationContext(layout: .reflowable, languages: ["ar"], readingProgression: .rtl)
        case .japanese: PublicationContext(layout: .reflowable, languages: ["ja"], readingProgression: .rtl)
        }
    }

    /// The suffix of a row's name: `""` for no publication, `.en`, `.ar-rtl`, `.ja-rtl`.
    public var suffix: String { self == .none ? "" : "." + rawValue }

    /// The publication a row name ends with (`12-key.en`), and the document name before it.
    public static func split(_ name: String) -> (document: String, publication: BenchmarkPublication) {
        for publication in allCases where publication != .none && name.hasSuffix(publication.suffix) {
            return (String(name.dropLast(publication.suffix.count)), publication)
        }
        return (name, .none)
    }
}
