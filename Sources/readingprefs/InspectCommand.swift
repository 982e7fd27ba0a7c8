import ReadingPreferences

/// `readingprefs inspect`: a table of every setting, then the diagnostics.
enum InspectCommand {
    static func run(_ tokens: [String]) throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(tokens, command: "inspect", spec: .inputs)
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .inspect))
            return 0
        }
        try arguments.requirePositionals(0, 0, command: "inspect", usage: "no arguments")
        let kind = try arguments.configurable()
        let files = try InputFiles.load(arguments, catalogue: kind.catalogueOrFail())
        let editor = try kind.editor(for: files)
        printTable(editor, diagnostics: files.diagnostics)
        return 0
    }

    /// No arguments: inspect the built-in sample, so a newcomer sees a full table at once.
    static func runSample(_ arguments: Arguments) throws(ToolError) -> Int32 {
        if arguments.wantsHelp {
            Console.out(Usage.full)
            return 0
        }
        let kind = try arguments.configurable()
        let sample = SampleBook.epub
        let (preferences, diagnostics) = sample.preferences
        var files = InputFiles()
        files.preferences = preferences
        files.diagnostics = diagnostics
        files.inputs = sample.inputs
        Console.out("Sample publication: \(sample.title) (\(sample.summary))")
        Console.out("Preferences: \(preferences.jsonString())")
        Console.out("Defaults:    \(sample.inputs.defaults.jsonString())")
        Console.out("")
        printTable(try kind.editor(for: files), diagnostics: diagnostics)
        Console.out("")
        Console.out(
            "Inspect your own files with 'readingprefs inspect --preferences FILE'; see 'readingprefs help'.")
        return 0
    }

    static func printTable(_ editor: any PreferencesEditing, diagnostics: [PreferenceDiagnostic]) {
        var table = TextTable(header: [
            "SETTING", "STORED", "EFFECTIVE VALUE", "FORMATTED", "EFFECTIVE", "WHY NOT",
        ])
        for setting in editor.snapshots {
            table.rows.append([
                setting.key,
                setting.storedJSON?.jsonString() ?? "-",
                setting.effectiveJSON?.jsonString() ?? "-",
                setting.kind.isRange ? setting.formattedValue : "",
                setting.isEffective ? "yes" : "no",
                setting.reasons.map(\.description).joined(separator: ", "),
            ])
        }
        table.lines.forEach(Console.out)
        Console.out("")
        if diagnostics.isEmpty {
            Console.out("Diagnostics: none")
        } else {
            Console.out("Diagnostics:")
            for diagnostic in diagnostics { Console.out("  " + DiagnosticLine.text(diagnostic)) }
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
    /// The catalogue, for a configurable already checked to be supported.
    func catalogueOrFail() throws(ToolError) -> SettingCatalogue {
        do throws(UnsupportedError) {
            return try catalogue()
        } catch {
            throw .usage(error.description)
        }
    }

    /// An editor of the files' preferences, resolving with their inputs.
    func editor(for files: InputFiles) throws(ToolError) -> any PreferencesEditing {
        do throws(UnsupportedError) {
            return try makeEditor(preferences: files.preferences, inputs: files.inputs)
        } catch {
            throw .usage(error.description)
        }
    }
}
