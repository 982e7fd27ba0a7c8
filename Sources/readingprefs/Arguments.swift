import ReadingPreferences

/// The options a command accepts.
struct OptionSpec {
    /// Options followed by a value (`--preferences FILE`), without the leading dashes.
    var valued: [String] = []
    /// Options without a value (`--json`), without the leading dashes.
    var flags: [String] = []
    /// What a valued option's value is, for messages (`ID`, `DIR`); `FILE` when not given.
    var placeholders: [String: String] = [:]

    /// The options every command accepts besides its own.
    static let common = OptionSpec(valued: ["configurable"], placeholders: ["configurable": "NAME"])

    /// The input files of `inspect`, `resolve` and `css`, and the Readium CSS to resolve for.
    static let inputs = OptionSpec(
        valued: ["preferences", "defaults", "publication", "environment", "readium-css"],
        placeholders: ["readium-css": "1|2"]
    ).adding(RuleContextOptions.spec)

    /// Both specs' options.
    func adding(_ other: OptionSpec) -> OptionSpec {
        OptionSpec(
            valued: valued + other.valued, flags: flags + other.flags,
            placeholders: placeholders.merging(other.placeholders) { mine, _ in mine })
    }
}

/// A command's arguments: positionals in order, option values and flags.
struct Arguments {
    /// The arguments that are not options, in order.
    var positionals: [String] = []
    /// The values of valued options, by name (without dashes); each option is given at most once.
    var values: [String: String] = [:]
    /// The flags given, by name (without dashes).
    var flags: Set<String> = []
    /// Whether `--help` or `-h` was given.
    var wantsHelp = false

    /// Parses a command's arguments.
    ///
    /// `--name value` and `--name=value` are accepted; `--` ends the options. A token that
    /// starts with `-` but is a number (`-0.1`) is a positional, so `adjustBy fontSize -0.1` works.
    static func parse(_ tokens: [String], command: String, spec: OptionSpec) throws(ToolError) -> Arguments {
        let spec = spec.adding(.common)
        var arguments = Arguments()
        var index = 0
        var optionsEnded = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if optionsEnded || !token.hasPrefix("-") || token == "-" || Self.isNumber(token) {
                arguments.positionals.append(token)
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            if token == "-h" || token == "--help" {
                arguments.wantsHelp = true
                continue
            }
            var name = String(token.drop { $0 == "-" })
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if spec.flags.contains(name) || spec.valued.contains(name) {
                // A repeated option is a mistake, not "the last one wins".
                guard !arguments.flags.contains(name), arguments.values[name] == nil else {
                    throw .usage("--\(name) is given more than once")
                }
            }
            if spec.flags.contains(name) {
                guard inlineValue == nil else { throw .usage("--\(name) takes no value") }
                arguments.flags.insert(name)
            } else if spec.valued.contains(name) {
                if let inlineValue {
                    arguments.values[name] = inlineValue
                } else if index < tokens.count {
                    arguments.values[name] = tokens[index]
                    index += 1
                } else {
                    throw .usage("--\(name) needs a value (\(spec.placeholders[name] ?? "FILE"))")
                }
            } else {
                let known = (spec.valued + spec.flags).sorted().map { "--" + $0 }.joined(separator: ", ")
                let close = Self.suggestion(for: name, in: spec)
                throw .usage(
                    "unknown option '\(token)' for \(command)"
                        + (close.isEmpty ? " (expected one of \(known))" : close))
            }
        }
        // An empty value is a slip (an unset shell variable), never a folder, a key or a name:
        // `--root ""` would otherwise be the current folder.
        for (name, value) in arguments.values where value.isEmpty {
            throw .usage("--\(name) needs a value (\(spec.placeholders[name] ?? "FILE")), not an empty text")
        }
        return arguments
    }

    /// `--root DIR`, which every command on a store's folder needs.
    ///
    /// - Parameter command: The command, for the message.
    /// - Returns: The folder.
    /// - Throws: A usage error when `--root` is missing.
    func root(of command: String) throws(ToolError) -> String {
        guard let root = values["root"] else {
            throw .usage("\(command) needs --root DIR (the folder the store keeps its files in)")
        }
        return root
    }

    /// Throws unless there are between `minimum` and `maximum` positionals.
    func requirePositionals(
        _ minimum: Int, _ maximum: Int, command: String, usage: String
    ) throws(ToolError) {
        if positionals.count < minimum {
            throw .usage("\(command) needs \(usage)")
        }
        if positionals.count > maximum {
            let extra = positionals[maximum]
            var message =
                maximum == 0
                ? "\(command) takes no arguments, only options; got '\(extra)'"
                : "unexpected argument '\(extra)' for \(command) (\(usage))"
            if maximum == 0, extra.hasSuffix(".json") { message += " (did you mean --preferences \(extra)?)" }
            throw .usage(message)
        }
    }

    /// The configurable named by `--configurable` (default `epub`).
    func configurable() throws(ToolError) -> ConfigurableKind {
        let name = values["configurable"] ?? ConfigurableKind.epub.rawValue
        guard let kind = ConfigurableKind(rawValue: name) else {
            throw .usage(
                "unknown configurable '\(name)' (expected one of \(ConfigurableKind.allNames.joined(separator: ", ")))"
            )
        }
        return kind
    }

    private static func isNumber(_ token: String) -> Bool {
        guard case .number? = try? JSONValue(json: token) else { return false }
        return true
    }

    /// ` (did you mean --preferences?)` for a close option name, or nothing.
    private static func suggestion(for name: String, in spec: OptionSpec) -> String {
        guard let close = Suggestion.closest(to: name, among: spec.valued + spec.flags) else { return "" }
        return " (did you mean --\(close)?)"
    }
}
