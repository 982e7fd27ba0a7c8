/// The dialects' names as tools, the back end and the vectors write them (`readium-ts`,
/// `readium-swift`, `readium-kotlin`): spelled here once, so a new dialect (or a new version of
/// one) is named everywhere by adding its case (Specs/CSS.md §2).
extension ReadiumDialect {
    /// The dialect's name: `readium-swift`, `readium-kotlin` or `readium-ts`.
    ///
    /// ```swift
    /// ReadiumDialect.readiumTypeScript.name   // "readium-ts"
    /// ReadiumDialect(name: "readium-kotlin")  // .readiumKotlin
    /// ```
    public var name: String {
        switch self {
        case .readiumSwift: return "readium-swift"
        case .readiumKotlin: return "readium-kotlin"
        case .readiumTypeScript: return "readium-ts"
        }
    }

    /// The name without its `readium-` prefix (`swift`, `kotlin`, `ts`), which the command line
    /// also accepts.
    public var shortName: String {
        let prefix = "readium-"
        return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
    }

    /// The dialect of a name (``name``, exactly).
    ///
    /// - Parameter name: A name such as `readium-ts`.
    public init?(name: String) {
        guard let dialect = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = dialect
    }

    /// The dialect of a name or a short name (`readium-kotlin` or `kotlin`), as a person types it.
    ///
    /// - Parameter text: A name or a short name.
    public init?(nameOrShortName text: String) {
        guard let dialect = Self.allCases.first(where: { $0.name == text || $0.shortName == text })
        else { return nil }
        self = dialect
    }

    /// Every dialect's name, in declaration order, for messages and usage text.
    public static var names: [String] { allCases.map(\.name) }
}
