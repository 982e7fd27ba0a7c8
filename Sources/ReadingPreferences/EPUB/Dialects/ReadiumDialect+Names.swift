/// The dialects' names as tools, the back end and the vectors write them (`readium-ts`,
/// `readium-ts@2.2`, `readium-swift`, `readium-kotlin`, `readium-css2`): the raw values, spelled
/// once, so a new dialect (or a new version of one) is named everywhere by adding its case
/// (Specs/CSS.md §2).
extension ReadiumDialect {
    /// The dialect's name: its raw value, such as `readium-ts`.
    ///
    /// ```swift
    /// ReadiumDialect.readiumTypeScript.name   // "readium-ts"
    /// ReadiumDialect(name: "readium-kotlin")  // .readiumKotlin
    /// ```
    public var name: String { rawValue }

    /// The name without its `readium-` prefix (`swift`, `kotlin`, `ts`, `ts@2.2`), which the
    /// command line also accepts.
    public var shortName: String {
        let prefix = "readium-"
        return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
    }

    /// The dialect of a name (``name``, exactly).
    ///
    /// - Parameter name: A name such as `readium-ts`.
    public init?(name: String) {
        self.init(rawValue: name)
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
