/// The resolution every setting starts from: the preference ?? the app default ?? the
/// descriptor's fallback (SPEC 5.3 step 6).
///
/// Schemas with no rules of their own (audio, an app's feature settings) use it as their
/// resolver; others apply it first and then their own steps.
///
/// ```swift
/// var defaults = Audio.Defaults()
/// defaults[.speed] = 1.5
/// let settings = StandardResolver<Audio>(defaults: defaults).resolve(preferences)
/// ```
public struct StandardResolver<Schema: SettingsSchema>: SettingsResolver, Hashable {
    /// The app defaults (keys defaults may not set are ignored).
    public var defaults: SettingValues<Schema>
    /// The layout reported in the resolved settings.
    public var layout: PublicationLayout

    /// Creates a resolver.
    public init(defaults: SettingValues<Schema> = SettingValues(), layout: PublicationLayout = .reflowable) {
        self.defaults = defaults
        self.layout = layout
    }

    /// Resolves every slot to its preference, default or fallback.
    public func resolve(_ preferences: SettingValues<Schema>, into settings: inout ResolvedSettings<Schema>) {
        settings.layout = layout
        Self.resolveEach(preferences, defaults: defaults, into: &settings.values)
    }

    /// Step 6 for every slot: preference ?? default (where accepted) ?? fallback.
    static func resolveEach(
        _ preferences: SettingValues<Schema>, defaults: SettingValues<Schema>,
        into values: inout SettingValues<Schema>
    ) {
        let descriptors = Schema.catalogue.descriptors
        let prefs = preferences.storage
        let defaults = defaults.storage
        values.storage.withUnsafeMutableBufferPointer { out in
            for slot in out.indices where slot < descriptors.count {
                let descriptor = descriptors[slot]
                out[slot] =
                    prefs[slot] ?? (descriptor.acceptsDefault ? defaults[slot] : nil) ?? descriptor.fallback
            }
        }
    }
}
