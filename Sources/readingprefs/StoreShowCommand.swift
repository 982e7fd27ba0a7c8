import ReadingPreferences
import ReadingPreferencesStore

/// `store show`: every setting of a publication with its effective value and where it came
/// from, as a table or as JSON.
enum StoreShowCommand {
    static func run<Schema>(_ words: [String], _ invocation: StoreInvocation<Schema>) async throws -> Int32 {
        try StoreCommand.require(
            words, count: 1, "show [--publication ID] [--metadata FILE] [--defaults FILE] [--json]")
        let store = invocation.store
        let publication = invocation.publication
        // One read of the stored state for the table and the JSON alike.
        let state = try await store.state(for: publication, context: invocation.context)
        let settings = state.settings
        var merged = state.preferences
        merged.merge(Preferences(members: state.overrides.members.filter { !Preferences.isReserved($0.key) }))
        if invocation.arguments.flags.contains("json") {
            Console.out(json(merged, settings).jsonString(options: .init(prettyPrinted: true)))
        } else {
            let form = try await store.editor(for: publication, context: invocation.context).form(locale: nil)
            table(settings, form: form).forEach(Console.out)
        }
        return 0
    }

    /// `{"preferences": {...}, "settings": {"<key>": {"value": ..., "source": "...", "from"?: ...,
    /// "chosenBy"?: ..., "effective": ...}}}`: the source with its argument, as the table shows
    /// it, and who chose the profile a value comes from (Specs/Store.md §2.1).
    static func json(_ preferences: Preferences, _ settings: [AttributedSetting]) -> JSONValue {
        let members = settings.map { setting in
            JSONObject.Member(
                key: setting.key,
                value: .object(
                    JSONObject(
                        members: [.init(key: "value", value: setting.value ?? .null)]
                            + setting.source.jsonMembers
                            + (setting.profileChoice.map { [.init(key: "chosenBy", value: $0.jsonValue)] }
                                ?? [])
                            + [.init(key: "effective", value: .bool(setting.isEffective))])))
        }
        return [
            "preferences": .object(preferences.jsonObject), "settings": .object(JSONObject(members: members)),
        ]
    }

    /// The inspect table with a SOURCE column.
    private static func table(_ settings: [AttributedSetting], form: SettingsForm) -> [String] {
        var table = TextTable(header: [
            "KEY", "STORED", "EFFECTIVE VALUE", "FORMATTED", "SOURCE", "EFFECTIVE", "WHY NOT",
        ])
        let rows = Dictionary(form.rows.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        for setting in settings {
            let row = rows[setting.key]
            table.lines.append(
                .cells([
                    setting.key, row?.storedValue?.jsonString() ?? "-", setting.value?.jsonString() ?? "-",
                    row?.formattedValue ?? "", setting.source.description, setting.isEffective ? "yes" : "no",
                    row?.reasons.map(\.text).joined(separator: "; ") ?? "",
                ]))
        }
        return table.rendered
    }
}
