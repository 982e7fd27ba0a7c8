import ReadingPreferences

extension Arguments {
    /// The version `--readium-css` names (`1` or `2`), or `nil` when it is not given.
    func readiumCSSVersion() throws(ToolError) -> ReadiumCSSVersion? {
        guard let text = values["readium-css"] else { return nil }
        guard let number = Int(text), let version = ReadiumCSSVersion(rawValue: number) else {
            let names = ReadiumCSSVersion.allCases.map { String($0.rawValue) }.joined(separator: " or ")
            throw .usage("unknown Readium CSS version '\(text)' for --readium-css (expected \(names))")
        }
        return version
    }
}
