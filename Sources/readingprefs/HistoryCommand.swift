import ReadingPreferences
import ReadingPreferencesStore

/// `history [KEY] --root DIR [--layer LAYER] [--publication ID] [--json]`: the changes recorded
/// for the documents a publication resolves from (or one layer's), oldest first, each with its
/// id, values, device, time and cause (Specs/Store.md §15.4).
enum HistoryCommand {
    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        try await RootCommand.run(tokens, command: .history) { arguments, run in
            guard arguments.positionals.count <= 1 else {
                throw ToolError.usage(
                    "usage: history [KEY] --root DIR [--layer LAYER] [--publication ID] [--json]")
            }
            let entries = try await run.history(
                key: arguments.positionals.first, layer: try await run.layer())
            if arguments.flags.contains("json") {
                let value = JSONValue.object(["entries": .array(entries.map(\.jsonValue))])
                Console.out(value.jsonString(options: .init(prettyPrinted: true)))
                return 0
            }
            if entries.isEmpty { Console.out("no changes recorded") }
            for entry in entries {
                Console.out(
                    "\(entry.id)  \(entry.layer.scopePath)  \(entry.key): "
                        + "\(entry.oldValue?.jsonString() ?? "(none)") → \(entry.newValue?.jsonString() ?? "(removed)")"
                        + "  on \(entry.provenance.device)  at \(Provenance.iso8601(entry.provenance.time))"
                        + "  (\(entry.provenance.origin?.rawValue ?? "cause unknown"))")
            }
            return 0
        }
    }
}
