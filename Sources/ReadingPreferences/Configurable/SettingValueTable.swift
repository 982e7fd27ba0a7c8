/// Decoded, validated values of a schema's settings, one optional value per setting.
///
/// Preferences decode into a table before resolution; app defaults are a table too, which is
/// why ``EPUB/Defaults`` is an alias of this type, and resolved settings keep their values in
/// one.
///
/// ```swift
/// var defaults = EPUB.Defaults()
/// defaults[.pageMargins] = 1.5
/// defaults[.scroll] = true
/// ```
public struct SettingValueTable<Schema: SettingsSchema>: Sendable, Hashable {
    var storage: SlotStorage

    /// Creates a table with every setting unset.
    public init() {
        storage = Schema.catalogue.storage.empty
    }

    /// Decodes and validates preferences: undecodable and rejected values are unset, values out
    /// of range are coerced, unknown and reserved keys are ignored, and a `renamedFrom` alias
    /// supplies a value when its setting's own key is absent (Specs/Resolution.md §9.2).
    ///
    /// With `asDefaults`, keys whose descriptor does not accept defaults are ignored (Specs/Resolution.md §5).
    ///
    /// - Parameters:
    ///   - preferences: The stored preferences.
    ///   - asDefaults: Whether the preferences are app defaults.
    public init(_ preferences: Preferences, asDefaults: Bool = false) {
        storage = Schema.catalogue.storage.values(of: preferences, asDefaults: asDefaults)
    }

    /// The value of a slot; out-of-range slots read as unset and ignore writes.
    ///
    /// Setting validates the value like every other write (Specs/Settings.md §3): an out-of-range number is
    /// coerced, and a rejected value (NaN, an infinity, an unsupported choice, the wrong kind)
    /// leaves the slot unset, so nothing invalid ever reaches resolution or CSS.
    ///
    /// - Parameter slot: The slot.
    public subscript(slot slot: Int) -> SettingValue? {
        get { storage[slot] }
        set {
            guard let newValue, let descriptor = Schema.catalogue.descriptor(atSlot: slot),
                case .success(let valid) = descriptor.acceptAndValidate(newValue)
            else {
                storage[slot] = nil
                return
            }
            storage[slot] = valid
        }
    }

    /// The value of a key.
    ///
    /// - Parameter key: The setting's key.
    public subscript(key key: String) -> SettingValue? {
        Schema.catalogue.slot(forKey: key).flatMap { storage[$0] }
    }

    /// The typed value of a setting. Setting validates the value: an out-of-range number is
    /// coerced, and a rejected value leaves the setting unset.
    ///
    /// - Parameter setting: The setting.
    public subscript<Value>(setting: Setting<Schema, Value>) -> Value? {
        get {
            guard let slot = Schema.catalogue.slot(of: setting) else { return nil }
            return storage[slot].flatMap(Value.init(settingValue:))
        }
        set {
            guard let slot = Schema.catalogue.slot(of: setting) else { return }
            guard let newValue,
                case .success(let valid) = setting.descriptor.acceptAndValidate(newValue.settingValue)
            else {
                storage[slot] = nil
                return
            }
            storage[slot] = valid
        }
    }

    /// The set values as preferences, in slot order, with canonical JSON.
    public var preferences: Preferences {
        var members: [JSONObject.Member] = []
        storage.forEachValue { slot, value in
            guard let descriptor = Schema.catalogue.descriptor(atSlot: slot) else { return }
            members.append(JSONObject.Member(key: descriptor.key, value: descriptor.coder.encode(value)))
        }
        return Preferences(members: members)
    }
}
