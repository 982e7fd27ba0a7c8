import ReadingPreferences

/// `readingprefs migrate FILE [--to NAME | --from NAME]`: our EPUB keys to a Readium key set
/// (Readium CSS 2's by default), or back (Specs/CSS.md §5).
enum MigrateCommand {
    static func run(_ tokens: [String]) throws(ToolError) -> Int32 {
        let spec = OptionSpec(valued: ["to", "from"], placeholders: ["to": "NAME", "from": "NAME"])
        let arguments = try Arguments.parse(tokens, command: "migrate", spec: spec)
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .migrate))
            return 0
        }
        try arguments.requirePositionals(
            1, 1, command: "migrate", usage: "a FILE (a JSON object of preferences)")
        guard try arguments.configurable() == .epub else {
            throw .usage("migrate applies to the epub configurable only")
        }
        if arguments.values["to"] != nil, arguments.values["from"] != nil {
            throw .usage("migrate takes --to or --from, not both")
        }
        let reading = arguments.values["from"] != nil
        let dialect = try Self.dialect(arguments.values["from"] ?? arguments.values["to"] ?? "readium-css2")
        let object = try InputFiles.decode(arguments.positionals[0], role: "preferences") {
            json throws(JSONMemberError) in
            guard case .object(let object) = json else {
                throw JSONMemberError(path: "", message: "expected a JSON object, got \(json.typeName)")
            }
            return object
        }
        if reading {
            let read = Preferences.imported(object, dialect: dialect, for: EPUB.self)
            Console.out(read.preferences.jsonString(options: .init(prettyPrinted: true)))
            for item in read.keptAside {
                Console.error("kept: \(item.key) as \(item.keptAs): \(item.reason)")
            }
            for item in read.dropped { Console.error("dropped: \(item.key): \(item.reason)") }
            read.coerced.map(DiagnosticLine.text).forEach { Console.error("coerced: \($0)") }
            return 0
        }
        let migrated = EPUB.migrate(Preferences(object), to: dialect)
        Console.out(JSONValue.object(migrated.object).jsonString(options: .init(prettyPrinted: true)))
        for item in migrated.dropped { Console.error("dropped: \(item.key): \(item.reason)") }
        migrated.changed.map(DiagnosticLine.text).forEach { Console.error("changed: \($0)") }
        return 0
    }

    static func dialect(_ name: String) throws(ToolError) -> ReadiumDialect {
        guard let dialect = ReadiumDialect(rawValue: name) else {
            throw .usage(
                "unknown key set '\(name)' (expected one of \(ReadiumDialect.names.joined(separator: ", ")))"
            )
        }
        return dialect
    }
}
