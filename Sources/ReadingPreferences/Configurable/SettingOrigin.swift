/// Where a resolved value comes from, as resolution sees it (Specs/Resolution.md §4, Specs/Store.md §2.1): the engine's part of
/// the store's attribution, which further tells which stored layer a preference came from.
///
/// ```swift
/// let origin = resolver.origin(ofSlot: slot, preferences: editor.values, settings: editor.settings)
/// // .preference, .appDefault, .publicationMetadata, .derived(from: ["language"]), .forced(by: "verticalText")...
/// ```
public enum SettingOrigin: Sendable, Hashable, CustomStringConvertible {
    /// A stored preference supplied the value.
    case preference
    /// An app default supplied the value.
    case appDefault
    /// The publication's metadata supplied it (its language, its declared reading progression);
    /// not to be confused with a publication's stored preferences.
    case publicationMetadata
    /// A rule derived it from other settings or inputs (reading progression from the language,
    /// vertical text from CJK and right to left, colors from the theme, theme from the appearance).
    case derived(from: [String])
    /// A rule forces it whatever the preference (scroll, by vertical text or a screen reader).
    case forced(by: String)
    /// The descriptor's fallback, or none.
    case fallback

    /// `preference`, `appDefault`, `publicationMetadata`, `derived(language)`, `forced(verticalText)`,
    /// `fallback`.
    public var description: String {
        switch self {
        case .preference: return "preference"
        case .appDefault: return "appDefault"
        case .publicationMetadata: return "publicationMetadata"
        case .derived(let keys): return "derived(\(keys.joined(separator: ", ")))"
        case .forced(let cause): return "forced(\(cause))"
        case .fallback: return "fallback"
        }
    }

    /// Specs/Resolution.md §4 step 6: preference ?? default (where defaults may set the slot) ?? fallback.
    static func standard<Schema: SettingsSchema>(
        ofSlot slot: Int, preferences: SettingValueTable<Schema>, defaults: SettingValueTable<Schema>
    ) -> SettingOrigin {
        if preferences[slot: slot] != nil { return .preference }
        let acceptsDefault = Schema.catalogue.descriptor(atSlot: slot)?.acceptsDefault ?? false
        if acceptsDefault && defaults[slot: slot] != nil { return .appDefault }
        return .fallback
    }
}
