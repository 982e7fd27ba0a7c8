/// The settings a navigator actually uses: the result of resolving preferences against app
/// defaults and the publication (SPEC 1, 5.3).
///
/// ```swift
/// let settings = editor.settings
/// settings[.fontSize]      // 1.2
/// settings[.theme]         // .dark
/// ```
public struct ResolvedSettings<Schema: SettingsSchema>: Sendable, Hashable {
    /// The resolved value of every slot; `nil` means the setting resolved to none (the navigator
    /// applies nothing and the publisher's style shows).
    public var values: SettingValues<Schema>
    /// The publication's layout.
    public var layout: PublicationLayout
    /// The stylesheet variant, for configurables that have one.
    public var stylesheets: StylesheetVariant?
    /// Whether scroll is forced (vertical text, a screen reader).
    public var isScrollForced: Bool

    /// Creates settings with every value unset, for a reflowable publication.
    public init() {
        values = SettingValues()
        layout = .reflowable
        stylesheets = nil
        isScrollForced = false
    }

    /// The resolved typed value of a setting.
    public subscript<Value>(setting: Setting<Schema, Value>) -> Value? {
        values[setting]
    }

    /// The resolved value of a key.
    public subscript(key key: String) -> SettingValue? {
        values[key: key]
    }

    /// The resolved settings as JSON: every key of the catalogue, with `null` for a setting that
    /// resolved to none (SPEC 11).
    public var jsonObject: JSONObject {
        var object = JSONObject()
        for (slot, descriptor) in Schema.catalogue.descriptors.enumerated() {
            object[descriptor.key] = .null
            if let value = values[slot: slot] {
                object[descriptor.key] = descriptor.coder.encode(value)
            }
        }
        return object
    }
}
