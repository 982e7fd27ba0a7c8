import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `store profile list | create NAME | rename PROFILE NAME | duplicate PROFILE NAME | activate
/// PROFILE | activate --auto | deactivate | delete PROFILE`, where PROFILE is an id or a display
/// name only one profile has. Each change says what it did.
enum StoreProfileCommand {
    static let usage =
        "profile list | create NAME | rename PROFILE NAME | duplicate PROFILE NAME | activate PROFILE | activate --auto | deactivate | delete PROFILE"

    static func run<Schema>(_ words: [String], _ invocation: StoreInvocation<Schema>) async throws -> Int32 {
        let store = invocation.store
        guard let command = words.first else {
            throw ToolError.usage("store profile needs a command: \(usage)")
        }
        let json = invocation.arguments.flags.contains("json")
        if ["create", "rename", "duplicate"].contains(command), let name = words.last, words.count > 1,
            name.trimmingCharacters(in: .whitespaces).isEmpty
        {
            throw ToolError.usage("a profile's NAME must not be empty (profile \(command) … NAME)")
        }
        switch command {
        case "list":
            try StoreCommand.require(words, count: 1, "profile list [--json]")
            let active = try await store.activeProfile()?.id
            let profiles = try await store.profiles()
            if json {
                let list = profiles.map { profile -> JSONValue in
                    [
                        "id": .string(profile.id), "name": .string(profile.name),
                        "active": .bool(profile.id == active),
                    ]
                }
                Console.out(JSONValue.array(list).jsonString(options: .init(prettyPrinted: true)))
            } else if profiles.isEmpty {
                Console.out("no profiles (create one with: store profile create NAME)")
            } else {
                for profile in profiles {
                    Console.out("\(profile.id)  \(profile.name)\(profile.id == active ? "  (active)" : "")")
                }
            }
        case "create":
            try StoreCommand.require(words, count: 2, "profile create NAME")
            let profile = try await store.createProfile(named: words[1])
            say("created profile \(profile.name) with id \(profile.id)", profile, json)
        case "rename":
            try StoreCommand.require(words, count: 3, "profile rename PROFILE NAME")
            let profile = try await find(words[1], store)
            try await store.renameProfile(profile.id, to: words[2])
            say(
                "renamed profile \(profile.id): \(profile.name) → \(words[2])",
                Profile(id: profile.id, name: words[2]), json)
        case "duplicate":
            try StoreCommand.require(words, count: 3, "profile duplicate PROFILE NAME")
            let source = try await find(words[1], store)
            let copy = try await store.duplicateProfile(source.id, named: words[2])
            say("duplicated profile \(source.name) as \(copy.name) with id \(copy.id)", copy, json)
        case "activate" where invocation.arguments.flags.contains("auto"):
            try StoreCommand.require(
                words, count: 1, "profile activate --auto (no PROFILE: the rules choose)")
            try await store.activateAutomatically()
            let selection = try await store.profileSelection(context: invocation.context)
            let text =
                "this device follows the rules again: "
                + (selection.profile.map {
                    "profile \($0.name) (\(selection.choice?.description ?? "")) applies"
                }
                    ?? "no rule holds, shared preferences apply")
            if json {
                Console.out(
                    JSONValue.object(["message": .string(text), "automatic": true]).jsonString(
                        options: .init(prettyPrinted: true)))
            } else {
                Console.out(text)
            }
        case "activate":
            try StoreCommand.require(words, count: 2, "profile activate PROFILE (or --auto)")
            let profile = try await find(words[1], store)
            let before = try await store.activeProfile()
            try await store.activateProfile(profile.id)
            say(
                before?.id == profile.id
                    ? "profile \(profile.name) was already active"
                    : "activated profile \(profile.name) (\(profile.id)); it replaces shared preferences on this device "
                        + "and beats the rules until 'store profile activate --auto'",
                profile, json)
        case "deactivate":
            try StoreCommand.require(words, count: 1, "profile deactivate")
            let before = try await store.activeProfile()
            try await store.activateProfile(nil)
            let text =
                before.map { "deactivated profile \($0.name); shared preferences apply again" }
                ?? "no profile was active"
            if json {
                Console.out(
                    JSONValue.object(["message": .string(text)]).jsonString(
                        options: .init(prettyPrinted: true)))
            } else {
                Console.out(text)
            }
        case "delete":
            try StoreCommand.require(words, count: 2, "profile delete PROFILE")
            let profile = try await find(words[1], store)
            try await store.deleteProfile(profile.id)
            say("deleted profile \(profile.name) (\(profile.id))", profile, json)
        default:
            throw ToolError.usage("unknown profile command '\(command)' (expected \(usage))")
        }
        return 0
    }

    /// The profile an argument names: its id, or a display name only one profile has.
    static func find<Schema>(_ name: String, _ store: PreferencesStore<Schema>) async throws -> Profile {
        let profiles = try await store.profiles()
        if let byID = profiles.first(where: { $0.id == name }) { return byID }
        let named = profiles.filter { $0.name == name }
        if named.count == 1, let profile = named.first { return profile }
        let list = profiles.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
        guard !profiles.isEmpty else {
            throw ToolError.failure(
                "no profile '\(name)': there are no profiles (create one with: store profile create NAME)")
        }
        if named.count > 1 {
            throw ToolError.failure(
                "\(named.count) profiles are named '\(name)'; name one by its id: \(list)")
        }
        throw ToolError.failure("no profile with the id or name '\(name)'; expected one of: \(list)")
    }

    private static func say(_ text: String, _ profile: Profile, _ json: Bool) {
        guard json else { return Console.out(text) }
        let object: JSONValue = [
            "id": .string(profile.id), "name": .string(profile.name), "message": .string(text),
        ]
        Console.out(object.jsonString(options: .init(prettyPrinted: true)))
    }
}
