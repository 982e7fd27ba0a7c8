import ReadingPreferences
import ReadingPreferencesStore

/// `revert KEY|--all --root DIR [--layer LAYER] [--publication ID] --to ENTRY|TIME [--json]`:
/// restores a key (or, with `--all`, every key: of one layer with `--layer`, else of every document
/// of the configurable) to its value at a history entry or a time (ISO 8601), as a new edit that
/// syncs and wins and is itself in history (Specs/Store.md §15.4).
enum RevertCommand {
    static let usage =
        "revert KEY|--all --root DIR [--layer LAYER] [--publication ID] --to ENTRY|TIME [--json]"

    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        try await RootCommand.run(tokens, command: .revert) { arguments, run in
            let all = arguments.flags.contains("all")
            guard all ? arguments.positionals.isEmpty : arguments.positionals.count == 1 else {
                throw ToolError.usage("usage: \(usage)")
            }
            guard let text = arguments.values["to"] else {
                throw ToolError.usage(
                    "revert needs --to ENTRY (an id 'readingprefs history' lists) or TIME (ISO 8601)")
            }
            guard let point = RevertPoint(text) else {
                throw ToolError.usage(
                    "--to \(text) is neither a history entry's id (as 'readingprefs history' lists them) nor an "
                        + "ISO 8601 time with its zone, such as 2026-11-25T18:00:00Z, 2026-11-25T19:00:00+01:00 "
                        + "or the date 2026-11-25 (midnight UTC)")
            }
            let changes = try await run.revert(
                key: arguments.positionals.first, layer: try await run.layer(), to: point)
            if arguments.flags.contains("json") {
                let list = changes.map { change -> JSONValue in
                    [
                        "layer": .string(change.layer.code), "key": .string(change.key),
                        "old": change.oldValue ?? .null, "new": change.newValue ?? .null,
                    ]
                }
                Console.out(
                    JSONValue.object(["changes": .array(list)]).jsonString(
                        options: .init(prettyPrinted: true)))
                return 0
            }
            if changes.isEmpty { Console.out("nothing to revert: the values are already those of \(point)") }
            for change in changes {
                Console.out(
                    "\(change.key): \(change.oldValue?.jsonString() ?? "(none)") → \(change.newValue?.jsonString() ?? "(removed)")"
                        + " in \(await run.describe(change.layer)) (revert)")
            }
            return 0
        }
    }
}
