import ReadingPreferences
import ReadingPreferencesStore

/// `store move KEY --to base|class|device|book [--publication ID] [--json]`: moves a value to
/// another layer, keeping it (Specs/Store.md §3.7): removed from the other layers this device
/// resolves and set in the target, in one batch; one line per key and layer written.
enum StoreMoveCommand {
    static let usage = "move KEY --to base|class|device|book [--publication ID] [--json]"

    static func run<Schema>(_ words: [String], _ invocation: StoreInvocation<Schema>) async throws -> Int32 {
        try StoreCommand.require(words, count: 2, usage)
        let key = words[1]
        guard let name = invocation.arguments.values["to"] else {
            throw ToolError.usage("usage: store \(usage) (--to says where the value goes)")
        }
        guard let target = EditTarget(rawValue: name) else {
            throw ToolError.usage("unknown target '\(name)' for --to (expected base, class, device or book)")
        }
        if target == .book, invocation.publication == nil {
            throw ToolError.usage("--to book needs --publication ID (the publication's identifier)")
        }
        let changes = try await invocation.store.move(key, to: target, publication: invocation.publication)
        var lines: [String] = []
        var entries: [JSONValue] = []
        for change in changes {
            let place = await invocation.describe(change.layer)
            lines.append(
                "\(change.key): \(change.oldValue?.jsonString() ?? "none") → \(change.newValue?.jsonString() ?? "none")"
                    + " in \(place)")
            entries.append(
                [
                    "layer": .string(StoreInvocation<Schema>.name(of: change.layer)),
                    "file": .string(
                        invocation.storage.path(of: .layer(configurable: Schema.identifier, change.layer))),
                    "key": .string(change.key), "old": change.oldValue ?? .null,
                    "new": change.newValue ?? .null,
                ])
        }
        let message = changes.isEmpty ? "nothing moved: \(key) is held by no other layer" : nil
        if invocation.arguments.flags.contains("json") {
            var object: JSONObject = ["changes": .array(entries)]
            if let message { object["message"] = .string(message) }
            Console.out(JSONValue.object(object).jsonString(options: .init(prettyPrinted: true)))
        } else {
            lines.forEach(Console.out)
            if let message { Console.out(message) }
        }
        return 0
    }
}
