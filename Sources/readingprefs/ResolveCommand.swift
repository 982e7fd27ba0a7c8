import ReadingPreferences

/// `readingprefs resolve`: the resolved settings as pretty JSON, in catalogue order.
enum ResolveCommand {
    static func run(_ tokens: [String]) throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "resolve", spec: .inputs)
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .resolve))
            return 0
        }
        try arguments.requirePositionals(0, 0, command: "resolve", usage: "no arguments")
        let kind = try arguments.configurable()
        let files = try InputFiles.load(arguments, catalogue: kind.catalogue)
        let editor = kind.editor(for: files)
        Console.out(
            JSONValue.object(editor.resolvedSettingsJSON).jsonString(options: .init(prettyPrinted: true)))
        return 0
    }
}
