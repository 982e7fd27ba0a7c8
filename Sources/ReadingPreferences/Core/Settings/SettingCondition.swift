/// A predicate on the resolved settings and the publication (Specs/Settings.md §4, Specs/Resolution.md §5, §8).
public indirect enum SettingCondition: Sendable, Hashable {
    /// The setting's own preference is stored (and decodes).
    case isSet
    /// The setting resolved to a value, from the preference or a default.
    case valueResolved
    /// The publication has this layout.
    case layout(PublicationLayout)
    /// The resolved setting `key` equals `value`.
    case settingEquals(key: String, value: SettingValue)
    /// The resolved setting `key` does not equal `value`.
    case settingDiffers(key: String, value: SettingValue)
    /// A condition on what the schema derives during resolution besides the setting values,
    /// such as EPUB's stylesheet variant (see ``DerivedSettings``).
    case derived(DerivedCondition)
    /// The setting's value is available for this publication (for example a font for its script).
    case availableForPublication
    /// At least one of the conditions holds.
    case anyOf([SettingCondition])
}
