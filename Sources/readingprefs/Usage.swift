import ReadingPreferences

/// The usage text, whole and per command.
enum Usage {
    static let full = """
        readingprefs \(ReadingPrefsTool.version): inspect, edit and test reading preferences

        Usage: readingprefs [COMMAND] [OPTIONS]
        With no command, inspects a built-in sample publication.

        Commands:
        \(commandList)

        Input options (inspect, resolve, css, edit; --dialect: inspect, resolve):
          --preferences FILE   a JSON object of preferences, e.g. {"fontSize": 1.2, "theme": "dark"}
          --defaults FILE      the app defaults, a JSON object with the same keys
          --publication FILE   e.g. {"layout": "reflowable", "languages": ["en"], "readingProgression": "auto"}
          --environment FILE   e.g. {"forceScroll": false, "appearance": "dark", "readiumCSS": 2}
          --readium-css 1|2    the navigator's Readium CSS (default 1): what css writes for, and
                               what effectiveness follows (EPUB)
          --dialect DIALECT    the preferences file is a Readium toolkit's JSON (\(shortDialects))
          --configurable NAME  \(configurables)
                               css is EPUB only; PDF reads the publication's readingProgression,
                               TTS its first language, audio nothing (the environment is EPUB only)

        Edit operations: \(PreferenceEdit.Operation.allNames.joined(separator: ", "))
          VALUE is JSON, or a plain string when it is not JSON (set theme dark).

        Exit status: 0 success, 1 failure (bad input file, failed edit, failed vector), 2 usage error.

        Examples:
          readingprefs inspect --preferences prefs.json --publication book.json
          readingprefs inspect --configurable pdf --json
          readingprefs edit prefs.json set wordSpacing 0.3
          readingprefs edit prefs.json adjustBy fontSize -0.1
          readingprefs css --preferences prefs.json --json
          readingprefs css --preferences prefs.json --readium-css 2
          readingprefs resolve --preferences thorium.json --dialect readium-ts
          readingprefs convert prefs.json --to kotlin
          readingprefs conformance Specs/Conformance

        Run 'readingprefs help COMMAND' for one command.
        """

    static var shortDialects: String {
        ReadiumDialect.allCases.map(\.shortName).joined(separator: ", ")
    }

    static var configurables: String {
        ConfigurableKind.allNames.joined(separator: ", ") + " (default epub)"
    }

    /// The command list: each command's synopsis and what it does, aligned.
    static var commandList: String {
        let rows = ReadingPrefsTool.Command.allCases.map(summary)
        let width = rows.map(\.synopsis.count).max() ?? 0
        return rows.map { row in
            "  " + row.synopsis + String(repeating: " ", count: width - row.synopsis.count + 2) + row.purpose
        }
        .joined(separator: "\n")
    }

    static func summary(of command: ReadingPrefsTool.Command) -> (synopsis: String, purpose: String) {
        switch command {
        case .inspect:
            return ("inspect", "the settings form as a table (or --json): stored, effective, why not")
        case .resolve: return ("resolve", "the resolved settings as JSON")
        case .edit: return ("edit FILE OP [KEY] [VALUE]", "apply one edit to a preferences file, atomically")
        case .css: return ("css", "the Readium CSS inline style and page layout (EPUB)")
        case .convert:
            return ("convert FILE --from/--to DIALECT", "preferences to or from a Readium toolkit's JSON")
        case .validate: return ("validate FILE", "the diagnostics of a preferences file; exit 1 on errors")
        case .migrateLegacy: return ("migrate-legacy FILE", "convert Readium's legacy --USER__* settings")
        case .migrate: return ("migrate FILE [--to|--from NAME]", "to or from Readium CSS 2's key set (EPUB)")
        case .conformance: return ("conformance PATH...", "run conformance vectors (files or folders)")
        case .catalogue: return ("catalogue [FILE]", "check a catalogue document, or print a configurable's")
        case .store:
            return (
                "store --root DIR COMMAND", "the preferences store: show, set, remove, move, profile, device"
            )
        case .rules:
            return (
                "rules --root DIR COMMAND", "the ordered rules that choose a profile: list, add, remove, move"
            )
        case .sync:
            return (
                "sync --root DIR --mirror DIR",
                "sync a store with a mirror folder shared by devices, or a server"
            )
        case .why: return ("why KEY --root DIR", "why a setting has its value: every layer, who set it, when")
        case .history:
            return ("history [KEY] --root DIR", "the changes recorded, with device, time and cause")
        case .revert:
            return (
                "revert KEY|--all --root DIR --to ENTRY|TIME", "go back to an earlier value, as a new edit"
            )
        case .help: return ("help [COMMAND]", "this text, or one command's")
        }
    }
}
