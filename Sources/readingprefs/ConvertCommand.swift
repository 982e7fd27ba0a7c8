import ReadingPreferences

/// `readingprefs convert FILE [--from DIALECT] [--to DIALECT]`: preferences read from a Readium
/// toolkit's JSON into ours, written from ours into a toolkit's, or both (Specs/CSS.md §2). The
/// result goes to standard output; what was dropped, changed or kept untranslated to standard
/// error.
enum ConvertCommand {
    static let spec = OptionSpec(
        valued: ["from", "to"], flags: ["compact"], placeholders: ["from": "DIALECT", "to": "DIALECT"])

    static func run(_ tokens: [String]) throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "convert", spec: spec)
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .convert))
            return 0
        }
        try arguments.requirePositionals(
            1, 1, command: "convert", usage: "a FILE (a JSON object of preferences) and --from or --to")
        let kind = try arguments.configurable()
        let from = try DialectOptions.dialect(arguments, option: "from")
        let to = try DialectOptions.dialect(arguments, option: "to")
        guard from != nil || to != nil else {
            throw .usage(
                "convert needs --from DIALECT (the file is a toolkit's), --to DIALECT (write ours for a "
                    + "toolkit) or both; dialects: \(DialectOptions.accepted)")
        }
        let path = arguments.positionals[0]
        var object = try InputFiles.object(path, role: from.map { "\($0.name) preferences" } ?? "preferences")
        if let from {
            let reading = kind.imported(object, dialect: from)
            DialectOptions.report(reading, from: from)
            object = reading.preferences.jsonObject
        }
        if let to {
            let export = kind.exported(Preferences(members: object.members), dialect: to)
            DialectOptions.report(export, to: to)
            object = export.object
        }
        let pretty = !arguments.flags.contains("compact")
        Console.out(JSONValue.object(object).jsonString(options: .init(prettyPrinted: pretty)))
        return 0
    }
}
