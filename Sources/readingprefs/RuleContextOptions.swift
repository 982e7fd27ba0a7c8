import ReadingPreferences
import ReadingPreferencesStore

/// `--appearance light|dark`, `--time HH:MM`, `--collection NAME[,NAME...]` and
/// `--device-class CLASS`: the context profile rules are evaluated in (Specs/Store.md §4.5), on
/// `inspect`, `resolve`, `css`, `why` and the store's commands.
struct RuleContextOptions {
    static let spec = OptionSpec(
        valued: ["appearance", "time", "collection", "device-class"],
        placeholders: [
            "appearance": "light|dark", "time": "HH:MM (local time)",
            "collection": "NAME[,NAME...]: the publication's series, shelves, folders",
            "device-class": "CLASS: phone, tablet, eink, desktop, web or the app's own",
        ])

    var appearance: SystemAppearance?
    var minuteOfDay: Int?
    var collections: [String]?
    var deviceClass: String?

    /// Reads the options, or fails with a message that says what is expected.
    init(_ arguments: Arguments) throws(ToolError) {
        if let text = arguments.values["appearance"] {
            guard let appearance = SystemAppearance(rawValue: text) else {
                throw .usage("--appearance takes light or dark, got '\(text)'")
            }
            self.appearance = appearance
        }
        if let text = arguments.values["time"] {
            guard let minute = LocalTimeWindow.minuteOfDay(text) else {
                throw .usage("--time takes a local time HH:MM (00:00 to 23:59), got '\(text)'")
            }
            minuteOfDay = minute
        }
        if let text = arguments.values["collection"] {
            let names = text.split(separator: ",").map { String($0) }
            guard !names.isEmpty, !names.contains(where: { $0.isEmpty }) else {
                throw .usage("--collection takes one or more names separated by commas, got '\(text)'")
            }
            collections = names
        }
        if let text = arguments.values["device-class"] {
            guard
                (try? ProfileRules(json: [["profile": "x", "when": ["deviceClass": .string(text)]]])) != nil
            else {
                throw .usage(
                    "--device-class takes a class such as eink (lower-case letters, digits and hyphens), got '\(text)'"
                )
            }
            deviceClass = text
        }
    }

    /// The publication context with the collections given, if any.
    func applied(to context: PublicationContext) -> PublicationContext {
        var context = context
        if let collections { context.collections = collections }
        return context
    }

    /// The environment with the appearance given, if any.
    func applied(to environment: ReadingEnvironment) -> ReadingEnvironment {
        var environment = environment
        if let appearance { environment.appearance = appearance }
        return environment
    }

    /// The device's part of the rule context: the options given, the appearance otherwise light.
    var ruleContext: ProfileRuleContext {
        ProfileRuleContext(
            appearance: appearance ?? .light, minuteOfDay: minuteOfDay, deviceClass: deviceClass)
    }
}
