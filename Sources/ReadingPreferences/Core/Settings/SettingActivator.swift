/// Says whether a setting is active for given resolved settings, and how to activate it (SPEC 3.3).
///
/// A setting's activator is the all-of of the items in its "effective when" cell, in the order
/// written; `isEffective` is exactly that activator's answer.
public indirect enum SettingActivator: Sendable, Hashable {
    /// Always active.
    case none
    /// Active when the resolved setting `key` equals `value`; activation writes `value` into the
    /// preferences. Automatic parts are activated by `set`; manual ones only by an explicit
    /// `activate`.
    case requiresPreference(key: String, value: SettingValue, automatic: Bool)
    /// A predicate on the resolved context that no preference write can satisfy.
    case condition(SettingCondition)
    /// Active when every part is active; activation activates the parts in order.
    case allOf([SettingActivator])

    /// Every part of this activator, flattened, in order.
    var parts: [SettingActivator] {
        switch self {
        case .none: return []
        case .allOf(let parts): return parts.flatMap(\.parts)
        default: return [self]
        }
    }
}

/// A predicate on the resolved settings and the publication (SPEC 3.3, 5.4, 6).
public indirect enum SettingCondition: Sendable, Hashable {
    /// The setting's own preference is stored (and decodes).
    case isSet
    /// The setting resolved to a value, from the preference or a default.
    case valueResolved
    /// The publication has this layout.
    case layout(PublicationLayout)
    /// The resolved stylesheet variant is one of these.
    case stylesheets([StylesheetVariant])
    /// The resolved setting `key` equals `value`.
    case settingEquals(key: String, value: SettingValue)
    /// The resolved setting `key` does not equal `value`.
    case settingDiffers(key: String, value: SettingValue)
    /// Scroll is not forced by the environment (a screen reader) or by vertical text.
    case scrollNotForced
    /// The setting's value is available for this publication (for example a font for its script).
    case availableForPublication
    /// At least one of the conditions holds.
    case anyOf([SettingCondition])
}

/// The layout of a publication (SPEC 5.1).
public enum PublicationLayout: String, Sendable, Hashable, Codable, CaseIterable {
    /// Text that reflows to the screen; the user's style settings apply.
    case reflowable
    /// Pre-paginated pages; style settings do not apply.
    case fixed
}

/// The Readium CSS stylesheet variant chosen for a publication (SPEC 5.3 step 5).
public enum StylesheetVariant: String, Sendable, Hashable, Codable, CaseIterable {
    /// Left-to-right, non-CJK text.
    case `default`
    /// Right-to-left scripts.
    case rtl
    /// Chinese, Japanese or Korean written horizontally.
    case cjkHorizontal
    /// Chinese, Japanese or Korean written vertically.
    case cjkVertical
}
