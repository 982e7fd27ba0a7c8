/// The `readingprefs` command line: picks the command, runs it, turns errors into one-line
/// messages and exit statuses (0 success, 1 failure, 2 usage error).
enum ReadingPrefsTool {
    static let version = "0.1.0"

    /// The commands, by name.
    enum Command: String, CaseIterable {
        case inspect, resolve, edit, css, convert, validate
        case migrateLegacy = "migrate-legacy"
        case migrate
        case conformance, catalogue, store, rules, sync, why, history, revert, help
    }

    /// Runs the tool with the arguments after the program name; returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        do throws(ToolError) {
            return try await dispatch(arguments)
        } catch {
            switch error {
            case .usage(let message):
                Console.error("readingprefs: error: \(message)")
                let command =
                    arguments.first.flatMap(Command.init(rawValue:)).flatMap {
                        $0 == .help ? nil : " \($0.rawValue)"
                    }
                    ?? ""
                Console.error("Run 'readingprefs help\(command)' for usage.")
                return 2
            case .failure(let message):
                Console.error("readingprefs: error: \(message)")
                return 1
            }
        }
    }

    private static func dispatch(_ arguments: [String]) async throws(ToolError) -> Int32 {
        guard let first = arguments.first else { return try InspectCommand.runSample(Arguments()) }
        switch first {
        case "--version", "-V", "version":
            Console.out("readingprefs \(version)")
            return 0
        case "--help", "-h":
            Console.out(Usage.full)
            return 0
        default:
            break
        }
        guard let command = Command(rawValue: first) else {
            if first.hasPrefix("-") {
                // Options with no command apply to the sample inspection (`readingprefs --configurable epub`).
                return try InspectCommand.runSample(
                    Arguments.parse(arguments, command: "readingprefs", spec: OptionSpec()))
            }
            throw .usage("unknown command '\(first)'" + suggestion(for: first))
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case .help: return try help(rest)
        case .inspect: return try await InspectCommand.run(rest)
        case .resolve: return try await ResolveCommand.run(rest)
        case .edit: return try EditCommand.run(rest)
        case .css: return try await CSSCommand.run(rest)
        case .convert: return try ConvertCommand.run(rest)
        case .validate: return try ValidateCommand.run(rest)
        case .migrateLegacy: return try MigrateLegacyCommand.run(rest)
        case .migrate: return try MigrateCommand.run(rest)
        case .conformance: return try ConformanceCommand.run(rest)
        case .catalogue: return try CatalogueCommand.run(rest)
        case .store: return try await StoreCommand.run(rest)
        case .rules: return try await RulesCommand.run(rest)
        case .sync: return try await SyncCommand.run(rest)
        case .why: return try await WhyCommand.run(rest)
        case .history: return try await HistoryCommand.run(rest)
        case .revert: return try await RevertCommand.run(rest)
        }
    }

    /// `help` prints the whole usage; `help COMMAND` one command's. A topic that is no command
    /// is a usage error naming the topics, never the general help with success.
    private static func help(_ arguments: [String]) throws(ToolError) -> Int32 {
        guard let name = arguments.first else {
            Console.out(Usage.full)
            return 0
        }
        guard arguments.count == 1 else {
            throw .usage("help takes one topic, got \(arguments.count): \(arguments.joined(separator: " "))")
        }
        guard let command = Command(rawValue: name) else {
            throw .usage(
                "no help topic '\(name)'\(suggestion(for: name)); topics: "
                    + Command.allCases.map(\.rawValue).joined(separator: ", "))
        }
        Console.out(Usage.text(for: command))
        return 0
    }

    private static func suggestion(for name: String) -> String {
        let close = Suggestion.closest(to: name, among: Command.allCases.map(\.rawValue))
        return close.map { " (did you mean '\($0)'?)" } ?? ""
    }
}
