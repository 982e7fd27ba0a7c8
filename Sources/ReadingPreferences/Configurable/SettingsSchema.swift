/// A kind of configurable: its catalogue of settings and how they resolve.
///
/// The package's schemas are ``EPUB``, and later PDF, audio and TTS; an app declares its own for
/// its feature settings. A schema is usually a caseless `enum` used as a namespace, and the
/// `Owner` of its ``Setting``s.
public protocol SettingsSchema: Sendable {
    /// The resolver type, which holds the defaults, the publication and the environment.
    associatedtype Resolver: SettingsResolver where Resolver.Schema == Self

    /// The settings, in slot order.
    static var catalogue: SettingCatalogue { get }

    /// A short identifier, such as `epub` (by default the type's name in lower case).
    static var identifier: String { get }
}

extension SettingsSchema {
    /// The type's name in lower case.
    public static var identifier: String { String(describing: Self.self).lowercased() }
}

/// Resolves preferences into settings for one configurable (SPEC 5.3, 6).
///
/// A resolver is a value holding everything besides the preferences: the app defaults, the
/// publication context and the environment. Resolution is a pure function; it must not fail.
public protocol SettingsResolver: Sendable {
    /// The schema whose settings this resolves.
    associatedtype Schema: SettingsSchema

    /// Resolves the decoded, validated preference values into settings, in place.
    func resolve(_ preferences: SettingValues<Schema>, into settings: inout ResolvedSettings<Schema>)

    /// Re-resolves after only `slot`'s preference changed. The default resolves everything;
    /// a resolver may update just the settings that depend on that slot (SPEC 13).
    func resolve(
        changedSlot slot: Int, _ preferences: SettingValues<Schema>,
        into settings: inout ResolvedSettings<Schema>)

    /// What an editor handle shows as the effective value of a slot (SPEC 5.4): the resolved
    /// value, or what the navigator uses when the setting resolves to none.
    func effectiveValue(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> SettingValue?

    /// The values a picker offers for a slot; `nil` means the descriptor's.
    func supportedValues(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> [SettingValue]?

    /// Whether a stored value is available for the publication (SPEC 5.4, fonts by script).
    func isAvailable(_ value: SettingValue, ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> Bool
}

extension SettingsResolver {
    /// Resolves everything again.
    public func resolve(
        changedSlot slot: Int, _ preferences: SettingValues<Schema>,
        into settings: inout ResolvedSettings<Schema>
    ) {
        resolve(preferences, into: &settings)
    }

    /// The resolved value.
    public func effectiveValue(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> SettingValue? {
        settings.values[slot: slot]
    }

    /// The descriptor's supported values.
    public func supportedValues(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> [SettingValue]? {
        Schema.catalogue.descriptors[slot].supportedValues
    }

    /// Every value is available.
    public func isAvailable(
        _ value: SettingValue, ofSlot slot: Int, in settings: ResolvedSettings<Schema>
    ) -> Bool {
        true
    }

    /// Resolves preference values into new settings.
    public func resolve(_ preferences: SettingValues<Schema>) -> ResolvedSettings<Schema> {
        var settings = ResolvedSettings<Schema>()
        resolve(preferences, into: &settings)
        return settings
    }

    /// Decodes and resolves preferences into new settings.
    public func resolve(_ preferences: Preferences) -> ResolvedSettings<Schema> {
        resolve(SettingValues<Schema>(preferences))
    }
}
