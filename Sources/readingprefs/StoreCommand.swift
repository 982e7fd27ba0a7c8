import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `readingprefs store --root DIR [--configurable NAME] COMMAND`: the preferences store in a
/// folder of plain JSON files (SPEC 9).
enum StoreCommand {
    static let spec = OptionSpec(
        valued: ["root", "publication", "metadata", "defaults"], flags: ["json", "override"])

    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "store", spec: spec)
        if arguments.wantsHelp || arguments.positionals.isEmpty {
            Console.out(Usage.text(for: .store))
            return arguments.wantsHelp ? 0 : 2
        }
        guard let root = arguments.values["root"] else { throw .usage("store needs --root DIR") }
        let kind = try arguments.configurable()
        return try await run(kind.schema, root: root, arguments: arguments)
    }

    private static func run<Schema: ResolvableSchema>(
        _ schema: Schema.Type, root: String, arguments: Arguments
    ) async throws(ToolError) -> Int32 {
        var defaults = SettingValueTable<Schema>()
        if arguments.values["defaults"] != nil {
            let files = try InputFiles.load(arguments, catalogue: Schema.catalogue)
            defaults = SettingValueTable(files.inputs.defaults, asDefaults: true)
        }
        var context = PublicationContext()
        if let path = arguments.values["metadata"] {
            context = try InputFiles.decode(path, role: "metadata") { json throws(JSONMemberError) in
                try PublicationContext(json: json)
            }
        }
        let store = PreferencesStore<Schema>(
            storage: FileStorage(root: URL(fileURLWithPath: root)), defaults: defaults)
        let words = Array(arguments.positionals)
        let status: Int32
        do {
            status = try await execute(words, store: store, context: context, arguments: arguments)
        } catch let error as ToolError {
            throw error
        } catch let error as PreferenceError {
            throw .failure("\(words.first ?? "store") failed: \(error.code.rawValue): \(error)")
        } catch {
            throw .failure("\(error)")
        }
        // Damaged data is set aside and reported; the command still succeeds on the rest.
        for problem in await store.problems {
            Console.error("readingprefs: warning: \(problem.message)")
        }
        return status
    }

    private static func execute<Schema>(
        _ words: [String], store: PreferencesStore<Schema>, context: PublicationContext, arguments: Arguments
    ) async throws -> Int32 {
        let publication = arguments.values["publication"]
        let override = arguments.flags.contains("override")
        switch words[0] {
        case "show":
            try require(words, count: 1, "show")
            let settings = try await store.settings(for: publication, context: context)
            var merged = try await store.preferences(for: publication)
            let overrides = try await store.storedPreferences(in: .overrides)
            merged.merge(Preferences(members: overrides.members.filter { !Preferences.isReserved($0.key) }))
            if arguments.flags.contains("json") {
                Console.out(json(merged, settings).jsonString(options: .init(prettyPrinted: true)))
            } else {
                let form = try await store.editor(for: publication, context: context).form(locale: nil)
                table(settings, form: form).forEach(Console.out)
            }
            return 0
        case "set":
            try require(words, count: 3, "set KEY VALUE")
            let value = EditCommand.value(words[2], for: Schema.catalogue.descriptor(forKey: words[1]))
            try await store.apply(
                .set(key: words[1], value: value), publication: publication, context: context,
                override: override)
            return 0
        case "remove":
            try require(words, count: 2, "remove KEY")
            try await store.apply(
                .clear(key: words[1]), publication: publication, context: context, override: override)
            return 0
        case "profile":
            return try await profile(Array(words.dropFirst()), store: store)
        default:
            throw ToolError.usage(
                "unknown store command '\(words[0])' (expected show, set, remove or profile)")
        }
    }

    private static func profile<Schema>(_ words: [String], store: PreferencesStore<Schema>) async throws
        -> Int32
    {
        guard let command = words.first else {
            throw ToolError.usage("profile needs list, create, rename, duplicate, activate or delete")
        }
        switch command {
        case "list":
            try require(words, count: 1, "profile list")
            let active = try await store.activeProfile()?.id
            for profile in try await store.profiles() {
                Console.out("\(profile.id)  \(profile.name)\(profile.id == active ? "  (active)" : "")")
            }
        case "create":
            try require(words, count: 2, "profile create NAME")
            Console.out(try await store.createProfile(named: words[1]).id)
        case "rename":
            try require(words, count: 3, "profile rename ID NAME")
            try await store.renameProfile(words[1], to: words[2])
        case "duplicate":
            try require(words, count: 3, "profile duplicate ID NAME")
            Console.out(try await store.duplicateProfile(words[1], named: words[2]).id)
        case "activate":
            try require(words, count: 2, "profile activate ID")
            try await store.activateProfile(words[1])
        case "delete":
            try require(words, count: 2, "profile delete ID")
            try await store.deleteProfile(words[1])
        default:
            throw ToolError.usage("unknown profile command '\(command)'")
        }
        return 0
    }

    private static func require(_ words: [String], count: Int, _ shape: String) throws {
        guard words.count == count else {
            throw ToolError.usage("store \(shape) takes \(count - 1) argument(s)")
        }
    }

    /// `{"preferences": {...}, "settings": {"<key>": {"value": ..., "source": "...", "effective": ...}}}`.
    static func json(_ preferences: Preferences, _ settings: [AttributedSetting]) -> JSONValue {
        var object = JSONObject()
        for setting in settings {
            object[setting.key] = [
                "value": setting.value ?? .null, "source": .string(setting.source.code),
                "effective": .bool(setting.isEffective),
            ]
        }
        return ["preferences": .object(preferences.jsonObject), "settings": .object(object)]
    }

    /// The inspect table with a SOURCE column.
    private static func table(_ settings: [AttributedSetting], form: SettingsForm) -> [String] {
        var table = TextTable(header: [
            "KEY", "STORED", "EFFECTIVE VALUE", "FORMATTED", "SOURCE", "EFFECTIVE", "WHY NOT",
        ])
        let rows = Dictionary(form.rows.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        for setting in settings {
            let row = rows[setting.key]
            table.lines.append(
                .cells([
                    setting.key, row?.storedValue?.jsonString() ?? "-", setting.value?.jsonString() ?? "-",
                    row?.formattedValue ?? "", setting.source.description, setting.isEffective ? "yes" : "no",
                    row?.reasons.map(\.text).joined(separator: "; ") ?? "",
                ]))
        }
        return table.rendered
    }
}
