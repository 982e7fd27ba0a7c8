/// The resolution every setting starts from: the preference ?? the app default ?? the
/// descriptor's fallback (Specs/Resolution.md §4 step 6).
///
/// Schemas with no rules of their own (audio, an app's feature settings) use it as their
/// resolver; others apply ``resolveEach(_:defaults:into:)`` first and then their own steps.
///
/// ```swift
/// var defaults = Audio.Defaults()
/// defaults[.speed] = 1.5
/// let settings = StandardResolver<Audio>(defaults: defaults).resolve(preferences)
/// ```
public struct StandardResolver<Schema: SettingsSchema>: SettingsResolver, Hashable {
    /// The app defaults (keys defaults may not set are ignored).
    public var defaults: SettingValueTable<Schema>
    /// The layout reported in the resolved settings.
    public var layout: PublicationLayout

    /// Creates a resolver.
    ///
    /// - Parameters:
    ///   - defaults: The app defaults.
    ///   - layout: The layout reported in the resolved settings.
    public init(
        defaults: SettingValueTable<Schema> = SettingValueTable(), layout: PublicationLayout = .reflowable
    ) {
        self.defaults = defaults
        self.layout = layout
    }

    /// Resolves every slot to its preference, default or fallback.
    ///
    /// - Parameters:
    ///   - preferences: The decoded, validated preferences.
    ///   - settings: The settings to overwrite.
    public func resolve(
        _ preferences: SettingValueTable<Schema>, into settings: inout ResolvedSettings<Schema>
    ) {
        settings.layout = layout
        Self.resolveEach(preferences, defaults: defaults, into: &settings.values)
    }

    /// Re-resolves one slot: nothing else depends on it.
    ///
    /// - Parameters:
    ///   - slot: The slot whose preference changed.
    ///   - preferences: The decoded, validated preferences.
    ///   - settings: The settings to update.
    public func resolve(
        changedSlot slot: Int, _ preferences: SettingValueTable<Schema>,
        into settings: inout ResolvedSettings<Schema>
    ) {
        guard settings.layout == layout else { return resolve(preferences, into: &settings) }
        Self.resolveSlot(slot, preferences, defaults: defaults, into: &settings.values)
    }

    /// Specs/Resolution.md §4 step 6 for every slot: preference ?? default (where defaults may set the key) ??
    /// fallback. Other resolvers call it first, then apply their own rules.
    ///
    /// - Parameters:
    ///   - preferences: The decoded, validated preferences.
    ///   - defaults: The app defaults.
    ///   - values: The resolved values to overwrite.
    public static func resolveEach(
        _ preferences: SettingValueTable<Schema>, defaults: SettingValueTable<Schema>,
        into values: inout SettingValueTable<Schema>
    ) {
        Schema.catalogue.storage.resolveEach(preferences.storage, defaults.storage, into: &values.storage)
    }

    /// Specs/Resolution.md §4 step 6 for one slot, after an edit of that slot alone.
    static func resolveSlot(
        _ slot: Int, _ preferences: SettingValueTable<Schema>, defaults: SettingValueTable<Schema>,
        into values: inout SettingValueTable<Schema>
    ) {
        values.storage[slot] = Schema.catalogue.storage.value(
            ofSlot: slot, preferences.storage, defaults.storage)
    }
}
