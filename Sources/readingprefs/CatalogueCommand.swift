import ReadingPreferences
import ReadingPreferencesConformance

/// `readingprefs catalogue [FILE]`: checks a catalogue document (an app's catalogue declared as
/// data, in the `Specs/Settings` format), or prints a built-in configurable's catalogue.
enum CatalogueCommand {
    static func run(_ tokens: [String]) throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "catalogue", spec: OptionSpec())
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .catalogue))
            return 0
        }
        try arguments.requirePositionals(0, 1, command: "catalogue", usage: "at most one FILE")
        let catalogue: SettingCatalogue
        if let path = arguments.positionals.first {
            catalogue = try InputFiles.decode(path, role: "catalogue") { json throws(JSONMemberError) in
                try CatalogueDocument.catalogue(from: json)
            }
        } else {
            let kind = try arguments.configurable()
            catalogue = kind.catalogue
            let document = CatalogueDocument.json(of: catalogue, configurable: kind.rawValue)
            Console.out(document.jsonString(options: .init(prettyPrinted: true)))
        }
        do throws(CatalogueCheck.Failure) {
            try CatalogueCheck.validate(catalogue)
        } catch {
            for problem in error.problems { Console.error("readingprefs: problem: \(problem)") }
            return 1
        }
        if !arguments.positionals.isEmpty { Console.out("valid: \(catalogue.count) settings, no problems") }
        return 0
    }
}
