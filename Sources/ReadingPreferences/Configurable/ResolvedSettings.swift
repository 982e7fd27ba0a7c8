/// The settings a navigator actually uses: the result of resolving preferences against app
/// defaults and the publication (Specs/Preferences.md §1, Specs/Resolution.md §4).
///
/// ```swift
/// let settings = editor.settings
/// settings[.fontSize]      // 1.2
/// settings[.theme]         // .dark
/// ```
public struct ResolvedSettings<Schema: SettingsSchema>: Sendable, Hashable {
    /// The resolved value of every slot; `nil` means the setting resolved to none (the navigator
    /// applies nothing and the publisher's style shows).
    public var values: SettingValueTable<Schema>
    /// The publication's layout.
    public var layout: PublicationLayout
    /// What the schema's resolution derives besides the values (EPUB: the stylesheet variant
    /// and whether scroll is forced).
    public var derived: Schema.Derived

    /// Creates settings with every value unset, for a reflowable publication.
    public init() {
        values = SettingValueTable()
        layout = .reflowable
        derived = Schema.Derived()
    }

    /// The resolved typed value of a setting.
    ///
    /// - Parameter setting: The setting.
    public subscript<Value>(setting: Setting<Schema, Value>) -> Value? {
        values[setting]
    }

    /// The resolved value of a key.
    ///
    /// - Parameter key: The setting's key.
    public subscript(key key: String) -> SettingValue? {
        values[key: key]
    }

    /// The resolved settings as JSON: every key of the catalogue, with `null` for a setting that
    /// resolved to none (Specs/README.md §3).
    public var jsonObject: JSONObject {
        var members: [JSONObject.Member] = []
        for (slot, descriptor) in Schema.catalogue.descriptors.enumerated() {
            let value = values[slot: slot].map { descriptor.coder.encode($0) } ?? .null
            members.append(JSONObject.Member(key: descriptor.key, value: value))
        }
        return JSONObject(members: members)
    }
}
