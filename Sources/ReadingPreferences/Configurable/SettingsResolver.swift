/// Resolves preferences into settings for one configurable (Specs/Resolution.md §4, §8).
///
/// A resolver is a value holding everything besides the preferences: the app defaults, the
/// publication context and the environment. Resolution is a pure function; it must not fail.
///
/// Most resolvers start from ``StandardResolver/resolveEach(_:defaults:into:)`` (preference ??
/// default ?? fallback, Specs/Resolution.md §4 step 6) and then apply their own rules:
///
/// ```swift
/// struct ReaderResolver: SettingsResolver {
///     typealias Schema = Reader
///     var defaults = SettingValueTable<Reader>()
///     func resolve(_ preferences: SettingValueTable<Reader>, into settings: inout ResolvedSettings<Reader>) {
///         StandardResolver<Reader>.resolveEach(preferences, defaults: defaults, into: &settings.values)
///     }
/// }
/// ```
public protocol SettingsResolver: Sendable {
    /// The schema whose settings this resolves.
    associatedtype Schema: SettingsSchema

    /// The app defaults: passed to resolution, never merged into preferences (Specs/Store.md §1.2). A settings
    /// form reads them to tell a value a default supplies from one the configurable's own rule
    /// supplies (Specs/Resolution.md §5).
    var defaults: SettingValueTable<Schema> { get }

    /// Resolves the decoded, validated preference values into settings, in place.
    ///
    /// - Parameters:
    ///   - preferences: The decoded, validated preferences.
    ///   - settings: The settings to overwrite.
    func resolve(_ preferences: SettingValueTable<Schema>, into settings: inout ResolvedSettings<Schema>)

    /// Re-resolves after only `slot`'s preference changed. The default resolves everything;
    /// a resolver may update just the settings that depend on that slot (Specs/Resolution.md §10.2).
    ///
    /// - Parameters:
    ///   - slot: The slot whose preference changed.
    ///   - preferences: The decoded, validated preferences.
    ///   - settings: The settings resolved before the change, to update.
    func resolve(
        changedSlot slot: Int, _ preferences: SettingValueTable<Schema>,
        into settings: inout ResolvedSettings<Schema>)

    /// What an editor handle shows as the effective value of a slot (Specs/Resolution.md §5): the resolved
    /// value, or what the navigator uses when the setting resolves to none.
    ///
    /// - Parameters:
    ///   - slot: The slot.
    ///   - settings: The resolved settings.
    /// - Returns: The effective value, or `nil` when there is none.
    func effectiveValue(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> SettingValue?

    /// The values a picker offers for a slot; `nil` means the descriptor's.
    ///
    /// - Parameters:
    ///   - slot: The slot.
    ///   - settings: The resolved settings.
    /// - Returns: The values, or `nil` for the descriptor's own list.
    func supportedValues(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> [SettingValue]?

    /// Why a setting's resolved value is forced by a rule whatever its preference says (EPUB: scroll,
    /// by vertical text or a screen reader), or `nil` when its preference decides it.
    ///
    /// A setting that requires another setting's value reports this reason instead of the
    /// requirement when the other is forced, since no edit can meet the requirement (issue 11).
    ///
    /// - Parameters:
    ///   - slot: The slot of the setting whose value is required.
    ///   - settings: The resolved settings.
    /// - Returns: The reason the value is forced, or `nil`.
    func forcedReason(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> IneffectiveReason?

    /// Where the effective value of a slot comes from (Specs/Store.md §2.2 attribution): a preference, an app
    /// default, the publication's metadata, a rule, or the fallback.
    ///
    /// - Parameters:
    ///   - slot: The slot.
    ///   - preferences: The decoded, validated preferences that were resolved.
    ///   - settings: The resolved settings.
    /// - Returns: The origin.
    func origin(
        ofSlot slot: Int, preferences: SettingValueTable<Schema>, settings: ResolvedSettings<Schema>
    ) -> SettingOrigin

    /// Whether a stored value is available for the publication (Specs/Resolution.md §5, fonts by script).
    ///
    /// - Parameters:
    ///   - value: The stored value.
    ///   - slot: The slot.
    ///   - settings: The resolved settings.
    /// - Returns: `true` when the value can apply to this publication.
    func isAvailable(_ value: SettingValue, ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> Bool

    /// Decodes and resolves stored preferences into new settings: what
    /// ``resolve(_:into:)`` gives for `SettingValueTable(preferences)`. The default does exactly
    /// that; a resolver may decode straight into the settings instead.
    ///
    /// - Parameter preferences: The stored preferences.
    /// - Returns: The resolved settings.
    func resolve(_ preferences: Preferences) -> ResolvedSettings<Schema>
}

extension SettingsResolver {
    /// Resolves everything again.
    ///
    /// - Parameters:
    ///   - slot: The slot whose preference changed (unused).
    ///   - preferences: The decoded, validated preferences.
    ///   - settings: The settings to overwrite.
    public func resolve(
        changedSlot slot: Int, _ preferences: SettingValueTable<Schema>,
        into settings: inout ResolvedSettings<Schema>
    ) {
        resolve(preferences, into: &settings)
    }

    /// The resolved value, or the descriptor's ``SettingDescriptor/effectiveValueWhenNone``.
    ///
    /// - Parameters:
    ///   - slot: The slot.
    ///   - settings: The resolved settings.
    /// - Returns: The resolved value of the slot, or what the navigator uses without one.
    public func effectiveValue(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> SettingValue? {
        settings.values[slot: slot] ?? Schema.catalogue.descriptor(atSlot: slot)?.effectiveValueWhenNone
    }

    /// The descriptor's supported values.
    ///
    /// - Parameters:
    ///   - slot: The slot.
    ///   - settings: The resolved settings (unused).
    /// - Returns: The descriptor's supported values.
    public func supportedValues(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> [SettingValue]? {
        Schema.catalogue.descriptor(atSlot: slot)?.supportedValues
    }

    /// Preference ?? app default ?? fallback (Specs/Resolution.md §4 step 6); a slot that resolved to none
    /// comes from the fallback.
    ///
    /// - Parameters:
    ///   - slot: The slot.
    ///   - preferences: The decoded, validated preferences.
    ///   - settings: The resolved settings.
    /// - Returns: The origin.
    public func origin(
        ofSlot slot: Int, preferences: SettingValueTable<Schema>, settings: ResolvedSettings<Schema>
    ) -> SettingOrigin {
        guard settings.values[slot: slot] != nil else { return .fallback }
        return .standard(ofSlot: slot, preferences: preferences, defaults: defaults)
    }

    /// Nothing is forced.
    ///
    /// - Parameters:
    ///   - slot: The slot (unused).
    ///   - settings: The resolved settings (unused).
    /// - Returns: `nil`.
    public func forcedReason(ofSlot slot: Int, in settings: ResolvedSettings<Schema>) -> IneffectiveReason? {
        nil
    }

    /// Every value is available.
    ///
    /// - Parameters:
    ///   - value: The stored value (unused).
    ///   - slot: The slot (unused).
    ///   - settings: The resolved settings (unused).
    /// - Returns: `true`.
    public func isAvailable(
        _ value: SettingValue, ofSlot slot: Int, in settings: ResolvedSettings<Schema>
    ) -> Bool {
        true
    }

    /// Resolves preference values into new settings.
    ///
    /// - Parameter preferences: The decoded, validated preferences.
    /// - Returns: The resolved settings.
    public func resolve(_ preferences: SettingValueTable<Schema>) -> ResolvedSettings<Schema> {
        var settings = ResolvedSettings<Schema>()
        resolve(preferences, into: &settings)
        return settings
    }

    /// Decodes and resolves preferences into new settings.
    ///
    /// ```swift
    /// let settings = EPUB.Resolver(publication: context).resolve(preferences)
    /// settings[.fontSize]   // 1.2
    /// ```
    ///
    /// - Parameter preferences: The stored preferences.
    /// - Returns: The resolved settings.
    public func resolve(_ preferences: Preferences) -> ResolvedSettings<Schema> {
        resolve(SettingValueTable<Schema>(preferences))
    }
}
