import Foundation
import ReadingPreferences

/// The input files shared by `inspect`, `resolve`, `css` and `edit`, read and decoded.
struct InputFiles {
    /// The preferences to inspect or edit.
    var preferences = Preferences()
    /// The diagnostics of the preferences file (duplicate keys included).
    var diagnostics: [PreferenceDiagnostic] = []
    /// The publication, defaults and environment.
    var inputs = ConfigurableInputs()

    /// Reads the files named by `--preferences`, `--defaults`, `--publication` and
    /// `--environment`; a missing option means empty input. `--readium-css 1|2` names the
    /// environment's Readium CSS, over the environment file's.
    ///
    /// With `missingPreferencesIsEmpty` (for `edit`), a preferences file that does not exist
    /// reads as empty preferences. With `dialect`, the preferences file is a Readium toolkit's
    /// object, read into ours (Specs/CSS.md §2); what could not be translated is said on standard
    /// error.
    static func load(
        _ arguments: Arguments, catalogue: SettingCatalogue, preferencesPath: String? = nil,
        missingPreferencesIsEmpty: Bool = false, dialect: (ReadiumDialect, ConfigurableKind)? = nil
    ) throws(ToolError) -> InputFiles {
        var files = InputFiles()
        if let path = preferencesPath ?? arguments.values["preferences"], let (dialect, kind) = dialect {
            let toolkit = try Self.object(path, role: "\(dialect.name) preferences")
            let reading = kind.imported(toolkit, dialect: dialect)
            DialectOptions.report(reading, from: dialect)
            files.preferences = reading.preferences
            do throws(JSONDecodingError) {
                files.diagnostics = try catalogue.decode(json: reading.preferences.jsonData()).diagnostics
            } catch {
                throw .failure("\(dialect.name) preferences file \(path): \(error)")
            }
        } else if let path = preferencesPath ?? arguments.values["preferences"] {
            if !(missingPreferencesIsEmpty && !FileManager.default.fileExists(atPath: path)) {
                let data = try read(path, role: "preferences")
                do throws(JSONDecodingError) {
                    (files.preferences, files.diagnostics) = try catalogue.decode(json: data)
                } catch {
                    throw .failure("preferences file \(path): \(error)")
                }
            }
        }
        if let path = arguments.values["defaults"] {
            let data = try read(path, role: "defaults")
            do throws(JSONDecodingError) {
                let (defaults, _) = try catalogue.decode(json: data)
                files.inputs.defaults = defaults
                // A default that has no effect is said, never ignored without a word.
                for diagnostic in catalogue.diagnostics(forDefaults: defaults) {
                    Console.error(
                        "readingprefs: note: defaults file \(path): \(DiagnosticLine.text(diagnostic))")
                }
            } catch {
                throw .failure("defaults file \(path): \(error)")
            }
        }
        if let path = arguments.values["publication"] {
            files.inputs.publication = try decode(path, role: "publication") { json throws(JSONMemberError) in
                try PublicationContext(json: json)
            }
        }
        if let path = arguments.values["environment"] {
            files.inputs.environment = try decode(path, role: "environment") { json throws(JSONMemberError) in
                try ReadingEnvironment(json: json)
            }
        }
        if let version = try arguments.readiumCSSVersion() { files.inputs.environment.readiumCSS = version }
        // Specs/Store.md §4.5: the rule context's appearance and collections reach resolution too.
        let rules = try RuleContextOptions(arguments)
        files.inputs.environment = rules.applied(to: files.inputs.environment)
        files.inputs.publication = rules.applied(to: files.inputs.publication)
        return files
    }

    /// Reads a file, or fails with a one-line message naming it.
    static func read(_ path: String, role: String) throws(ToolError) -> Data {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .failure("\(role) file \(path): no such file")
        }
        guard !isFolder.boolValue else { throw .failure("\(role) file \(path): is a folder, not a file") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .failure("\(role) file \(path): cannot be read (check its permissions)")
        }
    }

    /// Reads a JSON file whose top level must be an object (a preferences object in any dialect,
    /// legacy settings).
    static func object(_ path: String, role: String, of what: String = "a JSON object") throws(ToolError)
        -> JSONObject
    {
        try decode(path, role: role) { json throws(JSONMemberError) in
            guard case .object(let object) = json else {
                throw JSONMemberError(path: "", message: "expected \(what), got \(json.typeName)")
            }
            return object
        }
    }

    /// Reads a JSON file and decodes it member by member.
    static func decode<Value>(
        _ path: String, role: String, _ body: (JSONValue) throws(JSONMemberError) -> Value
    ) throws(ToolError) -> Value {
        let data = try read(path, role: role)
        let json: JSONValue
        do throws(JSONDecodingError) {
            json = try JSONValue(json: data)
        } catch {
            throw .failure("\(role) file \(path): \(error)")
        }
        do throws(JSONMemberError) {
            return try body(json)
        } catch {
            throw .failure("\(role) file \(path): \(error)")
        }
    }
}
