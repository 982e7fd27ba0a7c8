import ReadingPreferences

/// `readingprefs resolve`: the resolved settings as pretty JSON, in catalogue order; with
/// `--dialect`, the preferences file is read in that Readium dialect and the settings are written
/// in it (Specs/CSS.md §2), what it cannot hold said on standard error.
enum ResolveCommand {
    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(
            tokens, command: "resolve",
            spec: OptionSpec.inputs.adding(DialectOptions.spec).adding(StoreInputs.spec))
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .resolve))
            return 0
        }
        try arguments.requirePositionals(0, 0, command: "resolve", usage: "no arguments")
        let kind = try arguments.configurable()
        let dialect = try DialectOptions.dialect(arguments)
        let files = try await StoreInputs.load(arguments, kind: kind, dialect: dialect.map { ($0, kind) })
        let editor = kind.editor(for: files)
        var settings = editor.resolvedSettingsJSON
        if let dialect {
            // The settings that resolved to a value, as the preferences a navigator is given.
            let resolved = Preferences(members: settings.members.filter { !$0.value.isNull })
            let export = kind.exported(resolved, dialect: dialect)
            DialectOptions.report(export, to: dialect)
            settings = export.object
        }
        Console.out(JSONValue.object(settings).jsonString(options: .init(prettyPrinted: true)))
        return 0
    }
}
