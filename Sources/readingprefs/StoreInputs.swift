import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `--root DIR` on `inspect`, `resolve` and `css`: the preferences are the store's in DIR, as they
/// resolve on this device with no book open: the profile chosen by hand or by the rules in the
/// context the options give (`--appearance`, `--time`, `--device-class`, `--collection`, the
/// languages of `--publication FILE`; Specs/Store.md §4.5), with the overrides.
enum StoreInputs {
    static let spec = OptionSpec(
        valued: ["root"], placeholders: ["root": "DIR: read the preferences from the store in DIR"])

    /// The input files, with the store's preferences in place of `--preferences` when `--root`
    /// is given.
    static func load(
        _ arguments: Arguments, kind: ConfigurableKind, dialect: (ReadiumDialect, ConfigurableKind)? = nil
    ) async throws(ToolError) -> InputFiles {
        if arguments.values["root"] != nil, arguments.values["preferences"] != nil {
            throw .usage("--root and --preferences both give the preferences; give one of them")
        }
        var files = try InputFiles.load(arguments, catalogue: kind.catalogue, dialect: dialect)
        guard let root = arguments.values["root"] else { return files }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            throw .failure("--root \(root): no such folder")
        }
        files.preferences = try await preferences(
            kind.schema, root: root, rules: RuleContextOptions(arguments), context: files.inputs.publication)
        return files
    }

    private static func preferences<Schema: ResolvableSchema>(
        _ schema: Schema.Type, root: String, rules: RuleContextOptions, context: PublicationContext
    ) async throws(ToolError) -> Preferences {
        let store = PreferencesStore<Schema>(
            storage: FileStorage(root: URL(fileURLWithPath: root)),
            environment: rules.applied(to: ReadingEnvironment()))
        await store.setRuleContext(rules.ruleContext)
        do {
            // Specs/Store.md §4.5: a rule naming a missing profile is skipped, and said so.
            for index in try await store.profileSelection(context: context).skippedRules {
                Console.error(
                    "readingprefs: warning: rule \(index + 1) holds but names a missing profile: skipped "
                        + "(readingprefs rules --root DIR list)")
            }
            let state = try await store.state(context: context)
            return state.overrides.isEmpty ? state.preferences : state.preferences.merging(state.overrides)
        } catch {
            throw .failure("the store in \(root): \(error)")
        }
    }
}
