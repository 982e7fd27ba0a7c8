/// Says whether a setting is active for given resolved settings, and how to activate it (Specs/Settings.md §4).
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
    public var parts: [SettingActivator] {
        switch self {
        case .none: return []
        case .allOf(let parts): return parts.flatMap(\.parts)
        default: return [self]
        }
    }
}
