import ReadingPreferences

/// `readingprefs css`: the Readium CSS inline style and the page layout (EPUB only).
enum CSSCommand {
    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(
            tokens, command: "css",
            spec: OptionSpec.inputs.adding(.init(flags: ["json"])).adding(StoreInputs.spec))
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .css))
            return 0
        }
        try arguments.requirePositionals(0, 0, command: "css", usage: "no arguments")
        let kind = try arguments.configurable()
        let files = try await StoreInputs.load(arguments, kind: kind)
        guard let settings = kind.editor(for: files).resolvedSettings(as: EPUB.self) else {
            throw .usage("css applies to the epub configurable only, not '\(kind.rawValue)'")
        }
        let css = settings.readiumCSS()
        if arguments.flags.contains("json") {
            var object = JSONObject()
            for property in css { object[property.name] = .string(property.value) }
            Console.out(JSONValue.object(object).jsonString(options: .init(prettyPrinted: true)))
            return 0
        }
        let layout = settings.pageLayout
        Console.out(
            "style: \(css.isEmpty ? "(none: Readium CSS does not apply to fixed layouts)" : css.inlineStyle)")
        Console.out("stylesheets: \(layout.stylesheets.rawValue)")
        Console.out("dir: \(layout.htmlDirection?.rawValue ?? "(none)")")
        Console.out("lang: \(layout.language?.code ?? "(none)")")
        return 0
    }
}
