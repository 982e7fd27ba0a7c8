import ReadingPreferences

/// `readingprefs validate FILE`: the diagnostics of a preferences file.
enum ValidateCommand {
    static func run(_ tokens: [String]) throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "validate", spec: OptionSpec())
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .validate))
            return 0
        }
        try arguments.requirePositionals(1, 1, command: "validate", usage: "a FILE (a preferences JSON file)")
        let path = arguments.positionals[0]
        let catalogue = try arguments.configurable().catalogue
        let data = try InputFiles.read(path, role: "preferences")
        let diagnostics: [PreferenceDiagnostic]
        do throws(JSONDecodingError) {
            diagnostics = try catalogue.decode(json: data).diagnostics
        } catch {
            throw .failure("\(path): \(error)")
        }
        if diagnostics.isEmpty {
            Console.out("valid")
            return 0
        }
        diagnostics.map(DiagnosticLine.text).forEach(Console.out)
        // Unknown keys are informational (a newer app's keys are kept); anything else is an error.
        return diagnostics.allSatisfy(\.isInformational) ? 0 : 1
    }
}
