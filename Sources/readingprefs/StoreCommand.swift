import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `readingprefs store --root DIR [--configurable NAME] COMMAND`: the preferences store in a
/// folder of plain JSON files (Specs/Store.md §5.1). Every command that changes data says what it changed;
/// every error says what was expected.
enum StoreCommand {
    static let spec = OptionSpec(
        valued: ["root", "publication", "metadata", "defaults", "layer", "name", "to", "class", "policy"],
        flags: ["json", "override", "unknown", "no-name", "history", "no-class", "auto"],
        placeholders: [
            "root": "DIR", "publication": "ID: the publication's identifier", "metadata": "FILE",
            "defaults": "FILE", "layer": "one of \(StoreLayerName.all)",
            "name": "NAME: the device's display name", "to": "one of base, class, device, book",
            "class": "ID: the device's class (eink, phone, tablet, desktop, web...)",
            "policy": "one of default, formFactor",
        ]
    ).adding(RuleContextOptions.spec)

    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "store", spec: spec)
        if arguments.wantsHelp || arguments.positionals.isEmpty {
            Console.out(Usage.text(for: .store))
            if !arguments.wantsHelp {
                throw .usage("store needs a COMMAND: show, set, remove, move, profile, device or restore")
            }
            return 0
        }
        let root = try arguments.root(of: "store")
        let kind = try arguments.configurable()
        return try await run(kind.schema, root: root, arguments: arguments)
    }

    private static func run<Schema: ResolvableSchema>(
        _ schema: Schema.Type, root: String, arguments: Arguments
    )
        async throws(ToolError) -> Int32
    {
        let invocation = try await StoreInvocation<Schema>.opened(root: root, arguments: arguments)
        let words = arguments.positionals
        let status: Int32
        do {
            switch words[0] {
            case "show": status = try await StoreShowCommand.run(words, invocation)
            case "set", "remove": status = try await StoreEditCommand.run(words, invocation)
            case "move": status = try await StoreMoveCommand.run(words, invocation)
            case "profile": status = try await StoreProfileCommand.run(Array(words.dropFirst()), invocation)
            case "device": status = try await StoreDeviceCommand.run(words, invocation)
            case "restore": status = try await StoreRestoreCommand.run(words, invocation)
            default:
                let close = Suggestion.closest(
                    to: words[0], among: ["show", "set", "remove", "move", "profile", "device", "restore"])
                throw ToolError.usage(
                    "unknown store command '\(words[0])' (expected show, set, remove, move, profile, device or restore"
                        + (close.map { "; did you mean \($0)?" } ?? "") + ")")
            }
        } catch let error as ToolError {
            throw error
        } catch let error as ProfileError {
            throw .failure("\(error)")
        } catch let error as EditTargetError {
            throw .failure("\(words[0]) failed: \(error)")
        } catch {
            throw .failure("\(words[0]) failed: \(error)")
        }
        // Damaged data is set aside and reported; the command still succeeds on the rest.
        for problem in await invocation.store.problems {
            Console.error("readingprefs: warning: \(problem.message)")
        }
        return status
    }

    /// Throws a usage error unless the command has exactly `count` words.
    static func require(_ words: [String], count: Int, _ shape: String) throws(ToolError) {
        guard words.count == count else {
            let extra =
                words.count > count
                ? "; got an extra argument '\(words[count])' (quote a value with spaces)" : ""
            throw .usage("usage: store \(shape)\(extra)")
        }
    }
}

/// The layer names `--layer` takes.
enum StoreLayerName {
    static let all =
        "shared, profile, publication (or book), base (the active profile, or shared), class (this device's "
        + "class), device (this device only), overrides"
}

/// What every store command works with: the store, its files, the publication and options.
struct StoreInvocation<Schema: ResolvableSchema> {
    let store: PreferencesStore<Schema>
    let storage: FileStorage
    let root: String
    let arguments: Arguments
    let context: PublicationContext
    /// The rule context the options give (Specs/Store.md §4.5).
    let rules: RuleContextOptions
    var publication: String? { arguments.values["publication"] }

    /// The store in `root`, given the device's part of the rule context from the options.
    static func opened(root: String, arguments: Arguments) async throws(ToolError) -> Self {
        let invocation = try Self(root: root, arguments: arguments)
        await invocation.store.setRuleContext(invocation.rules.ruleContext)
        return invocation
    }

    init(root: String, arguments: Arguments) throws(ToolError) {
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
        let rules = try RuleContextOptions(arguments)
        self.root = root
        self.arguments = arguments
        self.context = rules.applied(to: context)
        self.rules = rules
        storage = FileStorage(root: URL(fileURLWithPath: root))
        store = PreferencesStore<Schema>(
            storage: storage, defaults: defaults, environment: rules.applied(to: ReadingEnvironment()))
    }

    /// The layer `--layer` (or `--override`) names, or `nil` for the save rule.
    func explicitLayer() async throws -> StoreLayer? {
        let name = arguments.values["layer"] ?? (arguments.flags.contains("override") ? "overrides" : nil)
        switch name {
        case nil: return nil
        case "shared": return .shared
        case "overrides": return .overrides
        case "base":
            return try await store.profileSelection(context: context).profile.map { .profile($0.id) }
                ?? .shared
        case "device": return .device
        case "class":
            guard try await store.device.deviceClass() != nil else {
                throw ToolError.usage(
                    "--layer class writes to this device's class, and it has none; "
                        + "set one with 'store device --class ID' (eink, phone, tablet...)")
            }
            return try await store.layer(for: .deviceClass)
        case "publication", "book":
            guard let publication else {
                throw ToolError.usage(
                    "--layer publication needs --publication ID (the publication's identifier)")
            }
            return .publication(publication)
        case "profile":
            guard let active = try await store.activeProfile() else {
                throw ToolError.usage(
                    "--layer profile writes to the active profile, and none is active; "
                        + "activate one with 'store profile activate NAME', or use --layer shared")
            }
            return .profile(active.id)
        case let other?:
            throw ToolError.usage("unknown layer '\(other)' (expected one of \(StoreLayerName.all))")
        }
    }

    /// Where a layer lives, for people: `shared (epub/shared.json)`, `profile Night (...)`.
    func describe(_ layer: StoreLayer) async -> String {
        let path = storage.path(of: .layer(configurable: Schema.identifier, layer))
        let relative =
            path.hasPrefix(storage.root.path + "/")
            ? String(path.dropFirst(storage.root.path.count + 1)) : path
        switch layer {
        case .shared: return "shared (\(relative))"
        case .overrides: return "overrides (\(relative))"
        case .rules: return "rules (\(relative))"
        case .publication: return "publication (\(relative))"
        case .deviceClass(let id): return "devices like this (\(id)) (\(relative))"
        case .device: return "this device (\(relative))"
        case .profile(let id):
            let name = (try? await store.profiles().first { $0.id == id }?.name) ?? id
            return "profile \(name) (\(relative))"
        }
    }

    /// The layer's name for JSON: `shared`, `profile`, `deviceClass`, `device`, `publication` or
    /// `overrides`.
    static func name(of layer: StoreLayer) -> String { layer.code }
}
