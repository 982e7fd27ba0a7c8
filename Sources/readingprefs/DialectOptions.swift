import ReadingPreferences

/// The Readium dialects on the command line (`--dialect`, `convert --from/--to`): the library's
/// names (`readium-swift`, `readium-kotlin`, `readium-ts`) or their short forms (`swift`,
/// `kotlin`, `ts`), so a dialect the library adds is accepted here with no change.
enum DialectOptions {
    /// `--dialect NAME` for `inspect` and `resolve`.
    static let spec = OptionSpec(valued: ["dialect"], placeholders: ["dialect": "NAME"])

    /// The names a person may type, for messages and usage text.
    static var accepted: String {
        ReadiumDialect.allCases.map { "\($0.shortName) (\($0.name))" }.joined(separator: ", ")
    }

    /// The dialect named by an option, `nil` when the option is absent.
    static func dialect(_ arguments: Arguments, option: String = "dialect") throws(ToolError)
        -> ReadiumDialect?
    {
        guard let name = arguments.values[option] else { return nil }
        guard let dialect = ReadiumDialect(nameOrShortName: name) else {
            throw .usage("unknown dialect '\(name)' for --\(option) (expected one of \(accepted))")
        }
        return dialect
    }

    /// Reports an import's untranslated members on standard error.
    static func report(_ reading: DialectImport, from dialect: ReadiumDialect) {
        for diagnostic in reading.diagnostics {
            Console.error("readingprefs: note: \(dialect.name): \(DiagnosticLine.text(diagnostic))")
        }
    }

    /// Reports what an export dropped or changed on standard error.
    static func report(_ export: DialectExport, to dialect: ReadiumDialect) {
        for dropped in export.dropped {
            Console.error(
                "readingprefs: note: \(dialect.name): \(dropped.key) not written: \(dropped.reason)")
        }
        for change in export.changed {
            Console.error("readingprefs: note: \(dialect.name): \(DiagnosticLine.text(change))")
        }
    }
}
