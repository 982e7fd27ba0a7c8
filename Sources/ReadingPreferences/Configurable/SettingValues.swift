/// Decoded, validated values of a schema's settings, one optional value per slot.
///
/// Preferences decode into `SettingValues` before resolution; app defaults are `SettingValues`
/// too, which is why ``EPUB/Defaults`` is an alias of this type.
///
/// ```swift
/// var defaults = EPUB.Defaults()
/// defaults[.pageMargins] = 1.5
/// defaults[.scroll] = true
/// ```
public struct SettingValues<Schema: SettingsSchema>: Sendable, Hashable {
    var storage: SlotStorage

    /// Creates values with every slot unset.
    public init() {
        storage = SlotStorage(count: Schema.catalogue.count)
    }

    /// Decodes and validates preferences: undecodable and rejected values are unset, values out
    /// of range are coerced, unknown and reserved keys are ignored, and a `renamedFrom` alias
    /// supplies a value when its new key is absent.
    ///
    /// With `asDefaults`, keys whose descriptor does not accept defaults are ignored (SPEC 5.4).
    public init(_ preferences: Preferences, asDefaults: Bool = false) {
        self.init()
        let catalogue = Schema.catalogue
        let descriptors = catalogue.descriptors
        var fromAlias: [Bool] = []
        storage.withUnsafeMutableBufferPointer { slots in
            for member in preferences.members {
                var isAlias = false
                var found = catalogue.slot(forKey: member.key)
                if found == nil {
                    isAlias = true
                    found = catalogue.slot(forAlias: member.key)
                }
                guard let slot = found, slot < slots.count else { continue }
                let descriptor = descriptors[slot]
                if asDefaults && !descriptor.acceptsDefault { continue }
                if isAlias {
                    // An alias never beats the new key.
                    if slots[slot] != nil && (fromAlias.isEmpty || !fromAlias[slot]) { continue }
                } else if !fromAlias.isEmpty && fromAlias[slot] {
                    fromAlias[slot] = false
                }
                slots[slot] = Self.decodeValid(member.value, descriptor)
                if isAlias {
                    if fromAlias.isEmpty { fromAlias = Array(repeating: false, count: slots.count) }
                    fromAlias[slot] = slots[slot] != nil
                }
            }
        }
    }

    /// Decodes and validates one stored value; `nil` when it cannot be used.
    static func decodeValid(_ json: JSONValue, _ descriptor: SettingDescriptor) -> SettingValue? {
        guard case .success(let decoded) = descriptor.coder.decode(json),
            case .success(let valid) = descriptor.validator.validate(decoded)
        else { return nil }
        return valid
    }

    /// The value of a slot; out-of-range slots read as unset.
    public subscript(slot slot: Int) -> SettingValue? {
        get { storage.indices.contains(slot) ? storage[slot] : nil }
        set {
            guard storage.indices.contains(slot) else { return }
            storage[slot] = newValue
        }
    }

    /// The value of a key.
    public subscript(key key: String) -> SettingValue? {
        Schema.catalogue.slot(forKey: key).flatMap { storage[$0] }
    }

    /// The typed value of a setting. Setting validates the value: an out-of-range number is
    /// coerced, and a rejected value leaves the slot unset.
    public subscript<Value>(setting: Setting<Schema, Value>) -> Value? {
        get {
            guard let slot = Schema.catalogue.slot(forKey: setting.key) else { return nil }
            return storage[slot].flatMap(Value.init(settingValue:))
        }
        set {
            guard let slot = Schema.catalogue.slot(forKey: setting.key) else { return }
            guard let newValue else {
                storage[slot] = nil
                return
            }
            let descriptor = Schema.catalogue.descriptors[slot]
            guard case .success(let accepted) = descriptor.coder.accept(newValue.settingValue),
                case .success(let valid) = descriptor.validator.validate(accepted)
            else {
                storage[slot] = nil
                return
            }
            storage[slot] = valid
        }
    }

    /// The set values as preferences, in slot order, with canonical JSON.
    public var preferences: Preferences {
        var result = Preferences()
        for (slot, value) in storage.enumerated() {
            guard let value else { continue }
            let descriptor = Schema.catalogue.descriptors[slot]
            result[descriptor.key] = descriptor.coder.encode(value)
        }
        return result
    }
}
