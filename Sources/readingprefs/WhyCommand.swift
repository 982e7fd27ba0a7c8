import ReadingPreferences
import ReadingPreferencesStore

/// `why KEY --root DIR [--publication ID] [--metadata FILE] [--defaults FILE] [--json]`: why a
/// setting has its value (Specs/Store.md §15.5): the effective value and whether it takes effect,
/// every layer holding the key (highest first) with its value and where it came from, the one
/// that wins, then the app default and the fallback.
enum WhyCommand {
    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        try await RootCommand.run(tokens, command: .why) { arguments, run in
            guard arguments.positionals.count == 1, let key = arguments.positionals.first else {
                throw ToolError.usage("usage: why KEY --root DIR [--publication ID] [--json]")
            }
            guard let explanation = try await run.explanation(of: key) else {
                throw ToolError.failure("no setting has the key '\(key)'")
            }
            if arguments.flags.contains("json") {
                Console.out(explanation.jsonValue.jsonString(options: .init(prettyPrinted: true)))
            } else {
                Console.out(explanation.description)
            }
            return 0
        }
    }
}
