/// The resolver of an app-defined schema (Specs/Resolution.md §9): every setting resolves to its preference,
/// the app default or its fallback, and pickers may compute their values from the other
/// settings.
///
/// ```swift
/// var resolver = FeatureResolver<Labs>()
/// resolver.dynamicValues["reader.font"] = { settings in
///     settings[key: "reader.script"] == .string("arab") ? [.string("Amiri")] : [.string("Literata")]
/// }
/// ```
public struct FeatureResolver<Schema: SettingsSchema>: SettingsResolver {
    /// Computes a picker's values from the resolved settings.
    public typealias ValueProvider = @Sendable (ResolvedSettings<Schema>) -> [SettingValue]

    /// The app defaults.
    public var defaults: SettingValueTable<Schema>
    /// Pickers whose values are computed, by key.
    public var dynamicValues: [String: ValueProvider]

    /// Creates a resolver.
    public init(
        defaults: SettingValueTable<Schema> = SettingValueTable(),
        dynamicValues: [String: ValueProvider] = [:]
    ) {
        self.defaults = defaults
        self.dynamicValues = dynamicValues
    }

    /// Preference ?? default ?? fallback for every setting.
    public func resolve(
        _ preferences: SettingValueTable<Schema>, into settings: inout ResolvedSettings<Schema>
    ) {
        StandardResolver<Schema>.resolveEach(preferences, defaults: defaults, into: &settings.values)
    }

    /// The computed values of a dynamic picker, or the descriptor's.
    public func supportedValues(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> [SettingValue]? {
        let descriptor = Schema.catalogue.descriptors[slot]
        if let provider = dynamicValues[descriptor.key] { return provider(settings) }
        return descriptor.supportedValues
    }
}
