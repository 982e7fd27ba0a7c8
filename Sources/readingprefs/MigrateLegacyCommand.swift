import ReadingPreferences

/// `readingprefs migrate-legacy FILE`: Readium's legacy `--USER__*` settings to preferences.
enum MigrateLegacyCommand {
    static func run(_ tokens: [String]) throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "migrate-legacy", spec: OptionSpec())
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .migrateLegacy))
            return 0
        }
        try arguments.requirePositionals(
            1, 1, command: "migrate-legacy", usage: "a FILE (a JSON object of --USER__* settings)")
        let kind = try arguments.configurable()
        guard kind == .epub else {
            throw .usage("migrate-legacy applies to the epub configurable only, not '\(kind.rawValue)'")
        }
        let path = arguments.positionals[0]
        let legacy = try InputFiles.object(
            path, role: "legacy settings", of: "a JSON object of --USER__* settings")
        let (preferences, diagnostics) = EPUB.migrateLegacy(legacy)
        Console.out(preferences.jsonString(options: .init(prettyPrinted: true)))
        diagnostics.map(DiagnosticLine.text).forEach(Console.error)
        return 0
    }
}
