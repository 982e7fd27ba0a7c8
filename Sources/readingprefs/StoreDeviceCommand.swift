import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `store device [--name NAME | --no-name] [--history] [--class ID | --no-class]
/// [--policy default|formFactor] [--json]`: this device as its store knows it (Specs/Store.md
/// §15.3): its replica id and display name, its class and its scope policy (§1.4, §3.1). Naming
/// it, or `--history`, makes it a replica now: its edits are kept as history and take their
/// stamps when made.
enum StoreDeviceCommand {
    static let usage =
        "device [--name NAME | --no-name] [--history] [--class ID | --no-class] [--policy default|formFactor] [--json]"

    static func run<Schema>(_ words: [String], _ invocation: StoreInvocation<Schema>) async throws -> Int32 {
        try StoreCommand.require(words, count: 1, usage)
        let device = invocation.store.device
        let arguments = invocation.arguments
        for (value, flag) in [("class", "no-class"), ("name", "no-name")]
        where arguments.values[value] != nil && arguments.flags.contains(flag) {
            throw ToolError.usage("--\(value) and --\(flag) say opposite things: give one")
        }
        if let id = arguments.values["class"] {
            guard ReplicaID(id) != nil else {
                throw ToolError.usage(
                    "--class needs a class id: 1 to 64 lower-case letters, digits and hyphens (eink, phone, tablet)"
                )
            }
            try await device.setClass(id)
        } else if arguments.flags.contains("no-class") {
            try await device.setClass(nil)
        }
        if let name = arguments.values["policy"] {
            guard let policy = ScopePolicy.Name(rawValue: name) else {
                throw ToolError.usage(
                    "unknown policy '\(name)' for --policy (expected default or formFactor)")
            }
            try await device.setScopePolicy(policy)
        }
        let deviceClass = try await device.deviceClass()
        let policy = try await device.scopePolicy()
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
            var object = value.objectValue ?? JSONObject()
            object["class"] = deviceClass.map(JSONValue.string) ?? .null
            object["policy"] = .string(policy.rawValue)
            Console.out(JSONValue.object(object).jsonString(options: .init(prettyPrinted: true)))
        } else if let identity {
            Console.out("this device: \(identity.id)" + (identity.name.map { " \"\($0)\"" } ?? " (no name)"))
            Console.out("history: kept (edits take their sync stamps when made)")
        } else {
            Console.out("this device has no replica id yet: it never synced, and keeps no history")
            Console.out("name it to start: readingprefs store --root DIR device --name \"Kobo Clara\"")
        }
        if !arguments.flags.contains("json") {
            Console.out("class: " + (deviceClass ?? "none (no class layer)"))
            Console.out("scope policy: \(policy)")
        }
        return 0
    }
}
