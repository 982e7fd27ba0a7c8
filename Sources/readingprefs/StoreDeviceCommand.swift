import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `store device [--name NAME | --no-name] [--history] [--json]`: this device as its store knows
/// it (Specs/Store.md §15.3): its replica id and display name. Naming it, or `--history`, makes it a
/// replica now: its edits are kept as history and take their stamps when made.
enum StoreDeviceCommand {
    static let usage = "device [--name NAME | --no-name] [--history] [--json]"

    static func run<Schema>(_ words: [String], _ invocation: StoreInvocation<Schema>) async throws -> Int32 {
        try StoreCommand.require(words, count: 1, usage)
        let device = invocation.store.device
        let arguments = invocation.arguments
        var identity: DeviceIdentity?
        if let name = arguments.values["name"] {
            guard DeviceIdentity.normalizedName(name) != nil else {
                throw ToolError.usage(
                    "--name needs a name with something else than spaces (or use --no-name)")
            }
            identity = try await device.setName(name)
        } else if arguments.flags.contains("no-name") {
            identity = try await device.setName(nil)
        } else if arguments.flags.contains("history") {
            identity = try await device.keepHistory()
        } else {
            identity = try await device.identity()
        }
        if arguments.flags.contains("json") {
            let value: JSONValue =
                identity.map {
                    [
                        "id": .string($0.id.rawValue), "name": $0.name.map(JSONValue.string) ?? .null,
                        "history": .bool(true),
                    ]
                } ?? ["id": .null, "name": .null, "history": .bool(false)]
            Console.out(value.jsonString(options: .init(prettyPrinted: true)))
        } else if let identity {
            Console.out("this device: \(identity.id)" + (identity.name.map { " \"\($0)\"" } ?? " (no name)"))
            Console.out("history: kept (edits take their sync stamps when made)")
        } else {
            Console.out("this device has no replica id yet: it never synced, and keeps no history")
            Console.out("name it to start: readingprefs store --root DIR device --name \"Kobo Clara\"")
        }
        return 0
    }
}
