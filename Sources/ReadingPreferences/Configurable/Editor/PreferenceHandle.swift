import Foundation

/// A read-only view of one setting in an editor (Specs/Resolution.md §1): its stored value, effective value,
/// whether it is effective and why not, and its presentation.
///
/// Handles are snapshots: edit through the editor, then read a new handle.
///
/// ```swift
/// let size = editor[.fontSize]
/// size.value                 // 1.2 (stored), or nil when unset
/// size.effectiveValue        // what the navigator uses
/// size.formattedValue        // "120%"
/// editor[.wordSpacing].reasons  // [requiresPreference(publisherStyles, false)]
/// ```
public struct PreferenceHandle<Schema: SettingsSchema, Value: SettingValueConvertible>: Sendable {
    let editor: PreferencesEditor<Schema>
    let slot: Int
    /// The setting's descriptor.
    public let descriptor: SettingDescriptor

    init(editor: PreferencesEditor<Schema>, slot: Int, descriptor: SettingDescriptor) {
        self.editor = editor
        self.slot = slot
        self.descriptor = descriptor
    }

    private var isKnown: Bool { editor.catalogue.descriptors.indices.contains(slot) }

    /// The stored preference, decoded but not validated; `nil` when unset or undecodable.
    public var value: Value? {
        guard isKnown else { return nil }
        return editor.storedValue(slot: slot).flatMap(Value.init(settingValue:))
    }

    /// The stored JSON, verbatim (also when it cannot be decoded).
    public var storedJSON: JSONValue? { editor.preferences[descriptor.key] }

    /// What the navigator would use if these preferences were submitted, whether or not the
    /// setting is effective (Specs/Resolution.md §5).
    public var effectiveValue: Value? {
        guard isKnown else { return nil }
        return editor.effectiveValue(slot: slot).flatMap(Value.init(settingValue:))
    }

    /// The resolved setting; `nil` when it resolved to none.
    public var resolvedValue: Value? {
        editor.settings.values[slot: slot].flatMap(Value.init(settingValue:))
    }

    /// Whether the setting takes effect (Specs/Settings.md §4).
    public var isEffective: Bool { isKnown && editor.isActive(slot: slot) }

    /// Whether the setting cannot apply to this publication whatever is stored: it needs
    /// another layout, or (EPUB) another stylesheet variant than the book's language and
    /// direction give. A settings form puts such settings apart (Specs/Resolution.md §9.4).
    public var isOutsidePublication: Bool { isKnown && editor.isOutsidePublication(slot: slot) }

    /// Whether ``PreferencesEditor/activate(_:)`` would make the setting effective: `false` when
    /// it is effective already, or when no preference write can make it so (a fixed layout, a
    /// forced scroll...).
    public var canActivate: Bool { isKnown && editor.canActivate(slot: slot) }

    /// Why the setting is not effective; empty when it is.
    public var reasons: [IneffectiveReason] { isKnown ? editor.reasons(slot: slot) : [] }

    /// Formats a value (Specs/Settings.md §7); `locale` is only used when given.
    public func format(_ value: Value, locale: Locale? = nil) -> String {
        descriptor.format(value.settingValue, locale: locale)
    }

    /// The formatted effective value, or an empty string when there is none.
    public func formattedValue(locale: Locale? = nil) -> String {
        guard isKnown, let value = editor.effectiveValue(slot: slot) else { return "" }
        return descriptor.format(value, locale: locale)
    }

    /// The accessibility label of the effective value ("120 percent").
    public func accessibilityLabel(locale: Locale? = nil) -> String {
        guard isKnown, let value = editor.effectiveValue(slot: slot) else { return "" }
        return descriptor.accessibilityLabel(value, locale: locale)
    }

    /// The range of a range or percent setting.
    public var supportedRange: ClosedRange<Double>? { descriptor.range }

    /// The suggested steps of a range setting.
    public var suggestedSteps: [Double]? { descriptor.suggestedSteps }

    /// The values a picker offers (computed from the publication when the configurable does so);
    /// empty when the values are open (colors, languages).
    public var supportedValues: [Value] {
        guard isKnown else { return [] }
        let values = editor.resolver.supportedValues(ofSlot: slot, in: editor.settings) ?? []
        return values.compactMap(Value.init(settingValue:))
    }

    /// The label of a value in a picker.
    public func label(_ value: Value) -> String {
        descriptor.format(value.settingValue)
    }

    /// The label of a picker's "none" entry, which clears the preference: it names what then
    /// applies, such as "Default (Justify)" when an app default supplies justify (Specs/Resolution.md §5).
    public var noneLabel: String {
        guard isKnown else { return "Default" }
        var cleared = editor
        cleared.clear(slot: slot)
        guard let value = cleared.settings.values[slot: slot] else { return "Default" }
        return "Default (\(descriptor.format(value)))"
    }
}
