import Foundation
import ReadingPreferences

/// `readingprefs inspect`: the settings form as a table (or JSON), then the diagnostics.
enum InspectCommand {
    static let spec = OptionSpec.inputs.adding(.init(flags: ["json"])).adding(DialectOptions.spec)
        .adding(StoreInputs.spec)

    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "inspect", spec: spec)
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .inspect))
            return 0
        }
        try arguments.requirePositionals(0, 0, command: "inspect", usage: "no arguments")
        let kind = try arguments.configurable()
        let dialect = try DialectOptions.dialect(arguments).map { ($0, kind) }
        let files = try await StoreInputs.load(arguments, kind: kind, dialect: dialect)
        let editor = kind.editor(for: files)
        if arguments.flags.contains("json") {
            try printJSON(editor, diagnostics: files.diagnostics)
        } else {
            printTable(editor, diagnostics: files.diagnostics)
        }
        return 0
    }

    /// No arguments: inspect the built-in sample, so a newcomer sees a full table at once.
    static func runSample(_ arguments: Arguments) throws(ToolError) -> Int32 {
        if arguments.wantsHelp {
            Console.out(Usage.full)
            return 0
        }
        let kind = try arguments.configurable()
        let sample = SampleBook.sample(for: kind)
        let (preferences, diagnostics) = sample.preferences(for: kind)
        var files = InputFiles()
        files.preferences = preferences
        files.diagnostics = diagnostics
        files.inputs = sample.inputs
        Console.out("Sample publication: \(sample.title) (\(sample.summary))")
        Console.out("Preferences: \(preferences.jsonString())")
        Console.out("Defaults:    \(sample.inputs.defaults.jsonString())")
        Console.out("")
        printTable(kind.editor(for: files), diagnostics: diagnostics)
        Console.out("")
        Console.out(
            "Inspect your own files with 'readingprefs inspect --preferences FILE'; see 'readingprefs help'.")
        return 0
    }

    /// The form as a table (rendered by the library), then the diagnostics.
    static func printTable(_ editor: AnyPreferencesEditor, diagnostics: [PreferenceDiagnostic]) {
        editor.form(locale: nil).tableLines().forEach(Console.out)
        Console.out("")
        if diagnostics.isEmpty {
            Console.out("Diagnostics: none")
        } else {
            Console.out("Diagnostics:")
            for diagnostic in diagnostics { Console.out("  " + DiagnosticLine.text(diagnostic)) }
        }
    }

    /// The form as pretty JSON with sorted keys on standard output, so it can be piped; the
    /// diagnostics go to standard error.
    static func printJSON(_ editor: AnyPreferencesEditor, diagnostics: [PreferenceDiagnostic])
        throws(ToolError)
    {
        let data: Data
        do {
            data = try editor.form(locale: nil).jsonData()
        } catch {
            throw .failure("the settings form cannot be encoded: \(error)")
        }
        Console.out(String(decoding: data, as: UTF8.self))
        for diagnostic in diagnostics {
            Console.error("readingprefs: note: " + DiagnosticLine.text(diagnostic))
        }
    }
}

/// One diagnostic as `key: code: message`.
enum DiagnosticLine {
    static func text(_ diagnostic: PreferenceDiagnostic) -> String {
        // The library's description starts with the key; print it once.
        var message = diagnostic.description
        let prefix = diagnostic.key + ": "
        if message.hasPrefix(prefix) { message.removeFirst(prefix.count) }
        return "\(diagnostic.key): \(diagnostic.code.rawValue): \(message)"
    }
}

extension ConfigurableKind {
    /// An editor of the files' preferences, resolving with their inputs.
    func editor(for files: InputFiles) -> AnyPreferencesEditor {
        makeEditor(preferences: files.preferences, inputs: files.inputs)
    }
}
