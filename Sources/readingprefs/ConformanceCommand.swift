import ReadingPreferences
import ReadingPreferencesConformance

/// `readingprefs conformance PATH...`: runs conformance vectors (Specs/README.md §1).
enum ConformanceCommand {
    static func run(_ tokens: [String]) throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "conformance", spec: OptionSpec())
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .conformance))
            return 0
        }
        try arguments.requirePositionals(
            1, Int.max, command: "conformance",
            usage: "at least one PATH (a vector file or folder, e.g. Specs/Conformance)")
        // Cases name their own configurable; the option is only checked, like everywhere else.
        _ = try arguments.configurable()
        let runner = ConformanceRunner()
        var report = ConformanceReport(results: [])
        for entry in runner.loadCases(at: arguments.positionals) {
            let result = runner.run(entry)
            Console.out(result.line)
            report.results.append(result)
        }
        if report.results.isEmpty {
            Console.error(
                "readingprefs: note: no *.json vectors found under \(arguments.positionals.joined(separator: ", "))"
            )
        }
        Console.out(report.summary)
        return report.allPassed ? 0 : 1
    }
}
