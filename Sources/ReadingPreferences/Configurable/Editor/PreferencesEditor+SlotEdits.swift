// The untyped edits every public form (typed settings, keys) goes through (Specs/Settings.md §5, §6).
extension PreferencesEditor {
    func descriptor(_ slot: Int) -> SettingDescriptor { Schema.catalogue.descriptors[slot] }

    /// The stored value of a slot, decoded but not validated (Specs/Settings.md §5 `get`).
    func storedValue(slot: Int) -> SettingValue? {
        let descriptor = descriptor(slot)
        guard let stored = preferences.storedMember(of: descriptor),
            case .success(let value) = descriptor.coder.decode(stored.value)
        else { return nil }
        return value
    }

    /// The effective value of a slot (Specs/Resolution.md §5).
    func effectiveValue(slot: Int) -> SettingValue? {
        resolver.effectiveValue(ofSlot: slot, in: settings)
    }

    /// Writes a value from code or JSON once it is valid (`set`), or throws the failure.
    mutating func set(slot: Int, validated: Result<SettingValue, ValueFailure>, activate: Bool)
        throws(PreferenceError)
    {
        try set(slot: slot, descriptor: descriptor(slot), validated: validated, activate: activate)
    }

    /// ``set(slot:validated:activate:)`` with the slot's descriptor at hand.
    mutating func set(
        slot: Int, descriptor: SettingDescriptor, validated: Result<SettingValue, ValueFailure>,
        activate: Bool
    ) throws(PreferenceError) {
        switch validated {
        case .success(let valid): commit(valid, slot: slot, descriptor: descriptor, activate: activate)
        case .failure(let failure): throw PreferenceError(failure.code, key: descriptor.key)
        }
    }

    mutating func set(slot: Int, value: SettingValue?, activate: Bool) throws(PreferenceError) {
        guard let value else {
            clear(slot: slot)
            return
        }
        try set(slot: slot, validated: descriptor(slot).acceptAndValidate(value), activate: activate)
    }

    mutating func set(slot: Int, json: JSONValue?, activate: Bool) throws(PreferenceError) {
        guard let json, json != .null else {
            clear(slot: slot)
            return
        }
        try set(
            slot: slot, validated: descriptor(slot).decodeAndValidate(json).map(\.valid), activate: activate)
    }

    mutating func clear(slot: Int) {
        unstore(slot: slot)
        reresolve(changedSlot: slot)
    }

    mutating func toggle(slot: Int) throws(PreferenceError) {
        let descriptor = descriptor(slot)
        guard descriptor.kind == .toggle else { throw PreferenceError(.wrongKind, key: descriptor.key) }
        let current = (storedValue(slot: slot) ?? effectiveValue(slot: slot))?.boolValue ?? false
        try set(slot: slot, validated: descriptor.acceptAndValidate(.bool(!current)), activate: true)
    }

    /// Specs/Settings.md §5 `toggle(enumSetting, value)`: the stored value → removed, otherwise set.
    mutating func toggle(slot: Int, validated: Result<SettingValue, ValueFailure>) throws(PreferenceError) {
        let descriptor = descriptor(slot)
        guard descriptor.kind.isChoice else { throw PreferenceError(.wrongKind, key: descriptor.key) }
        let valid: SettingValue
        switch validated {
        case .success(let value): valid = value
        case .failure(let failure): throw PreferenceError(failure.code, key: descriptor.key)
        }
        if let stored = storedValue(slot: slot), stored.matches(valid) {
            clear(slot: slot)
        } else {
            commit(valid, slot: slot, activate: true)
        }
    }

    /// The start of a progression: the stored value validated and coerced, or the effective
    /// value when unset or undecodable (Specs/Settings.md §6).
    func progressionStart(slot: Int) -> Double {
        progressionStart(slot: slot, descriptor: descriptor(slot))
    }

    private func progressionStart(slot: Int, descriptor: SettingDescriptor) -> Double {
        if let value = values.storage[slot]?.doubleValue { return value }
        if let value = effectiveValue(slot: slot)?.doubleValue { return value }
        return descriptor.range?.lowerBound ?? 0
    }

    mutating func step(slot: Int, up: Bool) throws(PreferenceError) {
        let descriptor = descriptor(slot)
        guard descriptor.kind.isRange else { throw PreferenceError(.wrongKind, key: descriptor.key) }
        let start = progressionStart(slot: slot, descriptor: descriptor)
        let next: Double
        if let steps = descriptor.suggestedSteps, !steps.isEmpty {
            next = Self.nextStep(from: start, in: steps, up: up) ?? start
        } else {
            let amount = up ? descriptor.effectiveIncrement : -descriptor.effectiveIncrement
            next = NumberFormatting.stepped(start, by: amount)
        }
        try set(
            slot: slot, descriptor: descriptor, validated: descriptor.acceptAndValidate(.number(next)),
            activate: true)
    }

    /// Specs/Settings.md §6: the nearest step beyond a tolerance of 0.001, or `nil` when there is none.
    static func nextStep(from start: Double, in steps: [Double], up: Bool) -> Double? {
        let tolerance = 0.001
        if up { return steps.first { $0 > start + tolerance } }
        return steps.last { $0 < start - tolerance }
    }

    mutating func adjust(slot: Int, by amount: Double) throws(PreferenceError) {
        let descriptor = descriptor(slot)
        guard descriptor.kind.isRange else { throw PreferenceError(.wrongKind, key: descriptor.key) }
        guard amount.isFinite else { throw PreferenceError(.notANumber, key: descriptor.key) }
        let next = NumberFormatting.stepped(progressionStart(slot: slot), by: amount)
        try set(slot: slot, validated: descriptor.acceptAndValidate(.number(next)), activate: true)
    }

    mutating func activate(slot: Int) throws(PreferenceError) {
        if isActive(slot: slot) { return }
        guard runActivation(slot: slot, includingManual: true) else {
            throw PreferenceError(.notActivatable, key: descriptor(slot).key)
        }
    }
}
