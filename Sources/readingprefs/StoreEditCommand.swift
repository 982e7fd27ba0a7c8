import ReadingPreferences
import ReadingPreferencesStore

/// `store set KEY VALUE` and `store remove KEY`: one key-based edit through the publication's
/// editor, then one line per key written: the layer and its file, old → new, and why a value was
/// not the one asked for (kept within its range) or a key was written too (activation).
enum StoreEditCommand {
    static func run<Schema>(_ words: [String], _ invocation: StoreInvocation<Schema>) async throws -> Int32 {
        let isSet = words[0] == "set"
        let options =
            "[--publication ID] [--layer \(StoreLayerName.all.replacingOccurrences(of: ", ", with: "|"))] [--unknown] [--json]"
        try StoreCommand.require(
            words, count: isSet ? 3 : 2, isSet ? "set KEY VALUE \(options)" : "remove KEY \(options)")
        let key = words[1]
        let descriptor = Schema.catalogue.descriptor(forKey: key)
        let requested: JSONValue? = isSet ? EditCommand.value(words[2], for: descriptor) : nil
        let edit: PreferenceEdit = requested.map { .set(key: key, value: $0) } ?? .clear(key: key)
        let layer = try await invocation.explicitLayer()
        let store = invocation.store
        let changes: [StoredChange]
        do {
            changes = try await store.apply(
                edit, publication: invocation.publication, context: invocation.context, to: layer,
                allowingUnknownKeys: invocation.arguments.flags.contains("unknown"))
        } catch let error as PreferenceError {
            let hint = PreferenceErrorHint.text(for: error, catalogue: Schema.catalogue)
            throw ToolError.failure(
                "\(words[0]) \(key) failed: \(error.code.rawValue): \(error)\(hint); nothing was written")
        }
        var lines: [String] = []
        var entries: [JSONValue] = []
        for change in changes {
            let note = EditNote.text(
                written: change.key, value: change.newValue, edited: key, requested: requested,
                descriptor: descriptor, isOverride: change.layer == .overrides)
            let place = await invocation.describe(change.layer)
            lines.append(
                "\(change.key): \(change.oldValue?.jsonString() ?? "none") → \(change.newValue?.jsonString() ?? "none")"
                    + " in \(place)" + (note.map { " (\($0))" } ?? ""))
            var entry: JSONObject = [
                "layer": .string(StoreInvocation<Schema>.name(of: change.layer)),
                "file": .string(
                    invocation.storage.path(of: .layer(configurable: Schema.identifier, change.layer))),
                "key": .string(change.key), "old": change.oldValue ?? .null, "new": change.newValue ?? .null,
            ]
            if let note { entry["note"] = .string(note) }
            entries.append(.object(entry))
        }
        let message = changes.isEmpty ? try await nothing(isSet: isSet, key: key, in: layer, invocation) : nil
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

    /// What to say when nothing was written: where the key is, and how to change it there.
    private static func nothing<Schema>(
        isSet: Bool, key: String, in explicit: StoreLayer?, _ invocation: StoreInvocation<Schema>
    ) async throws -> String {
        let store = invocation.store
        if isSet, let explicit {
            return
                "nothing changed: \(key) already holds that value in \(await invocation.describe(explicit))"
        }
        let active = try await store.activeProfile()
        var layers: [StoreLayer] = [active.map { .profile($0.id) } ?? .shared]
        if active != nil { layers.append(.shared) }
        if let publication = invocation.publication { layers.append(.publication(publication)) }
        layers.append(.overrides)
        var holders: [(StoreLayer, JSONValue)] = []
        for layer in layers {
            if let value = try await store.storedPreferences(in: layer)[key] {
                holders.append((layer, value))
            }
        }
        if isSet {
            let place = holders.first.map { layer, _ in " in \(layer)" } ?? ""
            return "nothing changed: \(key) already holds that value\(place)"
        }
        guard !holders.isEmpty else {
            return "nothing removed: \(key) is not stored in any layer"
                + (invocation.publication == nil ? " (a publication's own value needs --publication ID)" : "")
        }
        var parts: [String] = []
        for (layer, value) in holders {
            let place = await invocation.describe(layer)
            let why: String
            switch layer {
            case .shared where active != nil:
                why = "which the active profile \(active?.name ?? "") replaces"
            case .overrides:
                why = "a debug layer this edit does not touch"
            default:
                why = "which this edit did not reach"
            }
            parts.append(
                "\(place) holds \(value.jsonString()), \(why): use --layer \(StoreInvocation<Schema>.name(of: layer)) to remove it there"
            )
        }
        return "nothing removed: " + parts.joined(separator: "; ")
    }
}
