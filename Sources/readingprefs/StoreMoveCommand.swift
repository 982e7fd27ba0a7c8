import ReadingPreferences
import ReadingPreferencesStore

/// `store move KEY --to base|class|device|book [--publication ID] [--json]`: moves a value to
/// another layer, keeping it (Specs/Store.md §3.7): set in the target and removed from the layers
/// below it that this device resolves, in one batch; one line per key and layer written.
enum StoreMoveCommand {
    static let usage = "move KEY --to base|class|device|book [--publication ID] [--json]"

    static func run<Schema>(_ words: [String], _ invocation: StoreInvocation<Schema>) async throws -> Int32 {
        try StoreCommand.require(words, count: 2, usage)
        let key = words[1]
        guard !key.isEmpty else {
            throw ToolError.usage("store move: KEY is empty; name a setting's key, such as fontSize")
        }
        if invocation.arguments.values["layer"] != nil {
            throw ToolError.usage(
                "store move takes --to, not --layer: the value moves to the layer --to names")
        }
        guard let name = invocation.arguments.values["to"] else {
            throw ToolError.usage("usage: store \(usage) (--to says where the value goes)")
        }
        guard let target = EditTarget(rawValue: name) else {
            throw ToolError.usage("unknown target '\(name)' for --to (expected base, class, device or book)")
        }
        if target == .book, invocation.publication == nil {
            throw ToolError.usage("--to book needs --publication ID (the publication's identifier)")
        }
        let changes: [StoredChange]
        do {
            changes = try await invocation.store.move(key, to: target, publication: invocation.publication)
        } catch let error as EditTargetError {
            // The class of a device that has none, as `set --layer class` says.
            throw ToolError.usage("\(error)")
        }
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
        let message =
            changes.isEmpty
            ? "nothing moved: no layer holds \(key), or the target already holds the value that resolves "
                + "and no layer below it holds the key" : nil
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
