import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `readingprefs rules --root DIR list [--json] | add PROFILE --when JSON [--at N] | remove N |
/// move FROM TO`: the ordered rules that choose a profile on each device (Specs/Store.md §4.5).
/// Positions count from 1; every change says what it did.
enum RulesCommand {
    static let usage = "list [--json] | add PROFILE --when JSON [--at N] | remove N | move FROM TO"

    /// `readingprefs help rules`.
    static let help = """
        Usage: readingprefs rules --root DIR [--configurable NAME] COMMAND [OPTIONS]

        The rules that choose a profile on each device, in DIR/<configurable>/rules.json
        (synced, like the profiles): the first rule whose conditions all hold chooses its
        profile; when none holds, shared applies. A rule naming a missing profile is skipped.
        A profile chosen by hand ('store profile activate') beats the rules on that device
        until 'store profile activate --auto'.

        Commands (positions count from 1):
          list [--json]                      the rules, the one that applies marked
          add PROFILE --when JSON [--at N]   a rule at the end (or at N)
          remove N                           removes rule N
          move FROM TO                       moves rule FROM to position TO

        Conditions (--when), all of which must hold; {} holds always:
          "appearance": "light" | "dark"
          "deviceClass": "eink"              the device's class
          "language": ["ja", "zh"]           a primary subtag of one of the book's languages
          "collection": ["manga"]            one of the book's collections (series, shelves)
          "time": {"from": "20:30", "to": "06:45"}   local time; wraps past midnight

        The context the rules are evaluated in: --appearance light|dark, --time HH:MM,
        --device-class CLASS, --collection NAME[,NAME...], the book's languages from
        --metadata FILE; the same options work on why, store, inspect, resolve and css.

        Example:
          readingprefs store --root phone profile create Night
          readingprefs rules --root phone add Night --when '{"appearance": "dark"}'
          readingprefs rules --root phone list --appearance dark
              1. Night (3f9c2a7e51d0) when appearance dark  [applies]
          readingprefs why theme --root phone --appearance dark
        """

    static let spec = OptionSpec(
        valued: ["root", "when", "at", "metadata", "publication"],
        flags: ["json"],
        placeholders: [
            "root": "DIR", "when": #"JSON: the conditions, such as {"appearance": "dark"}"#,
            "at": "N: the position, from 1", "metadata": "FILE", "publication": "ID",
        ]
    ).adding(RuleContextOptions.spec)

    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "rules", spec: spec)
        if arguments.wantsHelp || arguments.positionals.isEmpty {
            Console.out(Usage.text(for: .rules))
            if !arguments.wantsHelp { throw .usage("rules needs a command: \(usage)") }
            return 0
        }
        let root = try arguments.root(of: "rules")
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
        do {
            switch words[0] {
            case "list":
                try require(words, count: 1, "rules list [--json]")
                try await list(invocation)
            case "add": try await add(words, invocation)
            case "remove":
                try require(words, count: 2, "rules remove N")
                let store = invocation.store
                let rules = try await store.profileRules()
                let index = try position(words[1], count: rules.rules.count)
                let removed = rules.rules[index]
                try await store.updateProfileRules { $0.rules.remove(at: index) }
                say("removed rule \(index + 1): \(try await describe(removed, store))", arguments)
            case "move":
                try require(words, count: 3, "rules move FROM TO")
                let store = invocation.store
                let rules = try await store.profileRules()
                let from = try position(words[1], count: rules.rules.count)
                let to = try position(words[2], count: rules.rules.count)
                try await store.updateProfileRules { rules in
                    let rule = rules.rules.remove(at: from)
                    rules.rules.insert(rule, at: to)
                }
                say(
                    "moved rule \(from + 1) to position \(to + 1): \(try await describe(rules.rules[from], store))",
                    arguments)
            default:
                throw ToolError.usage("unknown rules command '\(words[0])' (expected \(usage))")
            }
        } catch let error as ToolError {
            throw error
        } catch let error as ProfileRulesError {
            throw .failure("\(error)")
        } catch {
            throw .failure("rules \(words[0]) failed: \(error)")
        }
        for problem in await invocation.store.problems {
            Console.error("readingprefs: warning: \(problem.message)")
        }
        return 0
    }

    /// `1. Night (3f9c2a7e51d0) when appearance dark`, with the rule that applies now marked.
    private static func list<Schema>(_ invocation: StoreInvocation<Schema>) async throws {
        let store = invocation.store
        let rules = try await store.profileRules()
        let profiles = try await store.profiles()
        let selection = try await store.profileSelection(context: invocation.context)
        var chosen: Int?
        if case .rule(let index, _)? = selection.choice { chosen = index }
        func name(_ id: String) -> String? { profiles.first { $0.id == id }?.name }
        if invocation.arguments.flags.contains("json") {
            let items = rules.rules.enumerated().map { index, rule -> JSONValue in
                var members: [JSONObject.Member] = [
                    .init(key: "position", value: .number(JSONNumber(index + 1))),
                    .init(key: "profile", value: .string(rule.profile)),
                    .init(key: "name", value: name(rule.profile).map(JSONValue.string) ?? .null),
                    .init(key: "when", value: .object(rule.conditions.json)),
                    .init(key: "missing", value: .bool(name(rule.profile) == nil)),
                ]
                members.append(.init(key: "applies", value: .bool(index == chosen)))
                return .object(JSONObject(members: members))
            }
            let object = JSONObject(members: [
                .init(key: "rules", value: .array(items)),
                .init(key: "automatic", value: .bool(selection.isAutomatic)),
                .init(key: "active", value: selection.profile.map { .string($0.id) } ?? .null),
            ])
            Console.out(JSONValue.object(object).jsonString(options: .init(prettyPrinted: true)))
            return
        }
        if rules.rules.isEmpty {
            Console.out("no rules (add one with: rules add PROFILE --when JSON)")
        }
        for (index, rule) in rules.rules.enumerated() {
            var line =
                "\(index + 1). \(name(rule.profile) ?? rule.profile) (\(rule.profile)) when \(rule.conditions.summary)"
            if name(rule.profile) == nil { line += "  [missing profile: skipped]" }
            if index == chosen { line += "  [applies]" }
            Console.out(line)
        }
        if !selection.isAutomatic {
            Console.out(
                "this device chose \(selection.profile?.name ?? "shared") by hand; the rules apply again after "
                    + "'store profile activate --auto'")
        }
    }

    private static func add<Schema>(_ words: [String], _ invocation: StoreInvocation<Schema>) async throws {
        try require(words, count: 2, "rules add PROFILE --when JSON [--at N]")
        let store = invocation.store
        let profile = try await StoreProfileCommand.find(words[1], store)
        guard let text = invocation.arguments.values["when"] else {
            throw ToolError.usage(
                #"rules add needs --when JSON (the conditions, such as {"appearance": "dark"}; {} holds always)"#
            )
        }
        let when: JSONValue
        do throws(JSONDecodingError) {
            when = try JSONValue(json: text)
        } catch {
            throw ToolError.usage("--when is not JSON: \(error)")
        }
        let parsed = try ProfileRules(json: [["profile": .string(profile.id), "when": when]])
        guard let rule = parsed.rules.first else { return }
        let count = try await store.profileRules().rules.count
        let index = try invocation.arguments.values["at"].map { try position($0, count: count + 1) } ?? count
        try await store.updateProfileRules { $0.rules.insert(rule, at: min(index, $0.rules.count)) }
        say(
            "added rule \(index + 1): \(profile.name) (\(profile.id)) when \(rule.conditions.summary)",
            invocation.arguments)
    }

    private static func describe<Schema>(_ rule: ProfileRule, _ store: PreferencesStore<Schema>) async throws
        -> String
    {
        let name = try await store.profiles().first { $0.id == rule.profile }?.name ?? rule.profile
        return "\(name) (\(rule.profile)) when \(rule.conditions.summary)"
    }

    /// A position from 1 to `count`, as an index from 0.
    private static func position(_ text: String, count: Int) throws(ToolError) -> Int {
        guard let number = Int(text), number >= 1, number <= count else {
            throw .usage(
                count == 0
                    ? "there are no rules (position '\(text)')"
                    : "'\(text)' is no position: expected a number from 1 to \(count)")
        }
        return number - 1
    }

    private static func require(_ words: [String], count: Int, _ shape: String) throws(ToolError) {
        guard words.count == count else {
            throw .usage(
                "usage: \(shape)" + (words.count > count ? "; got an extra argument '\(words[count])'" : ""))
        }
    }

    private static func say(_ text: String, _ arguments: Arguments) {
        guard arguments.flags.contains("json") else { return Console.out(text) }
        Console.out(
            JSONValue.object(["message": .string(text)]).jsonString(options: .init(prettyPrinted: true)))
    }
}
