// The catalogue's hot paths, run on its plain-data tables (Specs/Settings.md §9.1, §9.2): stored
// values into slots (Specs/Settings.md §2, §3, Specs/Resolution.md §9.2) and resolution's step 6
// (Specs/Resolution.md §4). Each is one method of the storage class, so the tables are borrowed,
// never copied, and a document costs work per stored key (Specs/Resolution.md §10.1).
extension SettingCatalogue.Storage {
    /// The valid value of stored JSON for a slot, or `nil` when it does not decode or is
    /// rejected: what the slot's descriptor's `validValue(of:)` returns, from its compiled decoder.
    @inline(__always)
    func validValue(ofSlot slot: Int, _ json: JSONValue) -> SettingValue? {
        let decoder = decoders[slot]
        switch decoder.kind {
        case .toggle:
            guard case .bool(let flag) = json else { return nil }
            return .bool(flag)
        case .number:
            guard case .number(let number) = json, number.isFinite else { return nil }
            return .number(SettingValidator.coerce(number.doubleValue, into: decoder.range))
        case .choice:
            guard case .string(let raw) = json, choices.contains(raw, in: decoder.choices) else { return nil }
            return .string(raw)
        case .text:
            guard case .string(let raw) = json, !raw.isEmpty else { return nil }
            return .string(raw)
        case .general:
            return descriptors[slot].validValue(of: json)
        }
    }

    /// Decodes and validates preferences into a slot table: undecodable and rejected values are
    /// unset, values out of range are coerced, unknown and reserved keys are ignored, and a
    /// `renamedFrom` alias supplies a value when its setting's own key is absent (Specs/Resolution.md §9.2). With
    /// `asDefaults`, keys defaults may not set are ignored (Specs/Resolution.md §5).
    func values(of preferences: Preferences, asDefaults: Bool) -> SlotStorage {
        var values = empty
        overlay(preferences, onto: &values, asDefaults: asDefaults)
        return values
    }

    /// Decodes preferences as ``values(of:asDefaults:)`` does and writes the valid values over
    /// `values` (a value that does not decode leaves the slot as it was), so preferences can be
    /// decoded straight over the fallbacks and defaults they resolve against (Specs/Resolution.md §4 step 6).
    ///
    /// - Returns: The slots written, as a mask of the first 64.
    @discardableResult
    func overlay(_ preferences: Preferences, onto values: inout SlotStorage, asDefaults: Bool = false)
        -> UInt64
    {
        var written: UInt64 = 0
        var aliasedSlots: [Int] = []
        preferences.members.withUnsafeBufferPointer { members in
            // Keys are unique, so each slot is written at most once here.
            for member in members {
                guard let slot = slot(forKey: member.key) else {
                    if let slot = slot(forAlias: member.key) { aliasedSlots.append(slot) }
                    continue
                }
                if asDefaults && !acceptsDefault[slot] { continue }
                if let value = validValue(ofSlot: slot, member.value) {
                    values[slot] = value
                    if slot < 64 { written |= 1 << UInt64(slot) }
                }
            }
        }
        // Rare: an old key of a renamed setting. It counts only when the new key is absent.
        for slot in aliasedSlots {
            let descriptor = descriptors[slot]
            if asDefaults && !descriptor.acceptsDefault { continue }
            guard let stored = preferences.storedMember(of: descriptor), stored.isAlias,
                let value = descriptor.validValue(of: stored.value)
            else { continue }
            values[slot] = value
            if slot < 64 { written |= 1 << UInt64(slot) }
        }
        return written
    }

    /// Specs/Resolution.md §4 step 6 for one slot: the preference ?? the default, where defaults may set the
    /// slot ?? the fallback.
    func value(ofSlot slot: Int, _ preferences: SlotStorage, _ defaults: SlotStorage) -> SettingValue? {
        guard slot >= 0, slot < acceptsDefault.count else { return nil }
        return preferences[slot] ?? (acceptsDefault[slot] ? defaults[slot] : nil) ?? fallbacks[slot]
    }

    /// ``value(ofSlot:_:_:)`` for every slot, as layers: the fallbacks, the defaults that may
    /// apply over them, the preferences over both. The work is per value set, not per slot.
    func resolveEach(_ preferences: SlotStorage, _ defaults: SlotStorage, into values: inout SlotStorage) {
        values.assign(fallbacks)
        if !defaults.isUnset {
            values.overlay(defaults) { acceptsDefault[$0] }
        }
        values.overlay(preferences)
    }
}
