extension PreferencesEditor {
    /// Whether the setting in `slot` is effective: its activator's answer (Specs/Settings.md §4).
    func isActive(slot: Int) -> Bool {
        let descriptors = Schema.catalogue.descriptors
        guard descriptors.indices.contains(slot), !isOverridden(slot: slot) else { return false }
        return isActive(descriptors[slot].activator, slot: slot)
    }

    func isActive(_ activator: SettingActivator, slot: Int) -> Bool {
        switch activator {
        case .none:
            return true
        case .requiresPreference(let key, let value, _):
            return settings[key: key]?.matches(value) ?? false
        case .condition(let condition):
            return holds(condition, slot: slot)
        case .allOf(let parts):
            return parts.allSatisfy { isActive($0, slot: slot) }
        }
    }

    func holds(_ condition: SettingCondition, slot: Int) -> Bool {
        switch condition {
        case .isSet:
            // "set": the preference is stored, or an app default supplies it (Specs/Settings.md §4: the
            // context is the resolved settings, so app defaults count).
            return values[slot: slot] != nil
                || (descriptor(slot).acceptsDefault && resolver.defaults[slot: slot] != nil)
        case .valueResolved:
            return settings.values[slot: slot] != nil
        case .layout(let layout):
            return settings.layout == layout
        case .settingEquals(let key, let value):
            return settings[key: key]?.matches(value) ?? false
        case .settingDiffers(let key, let value):
            return !(settings[key: key]?.matches(value) ?? false)
        case .derived(let condition):
            return settings.derived.holds(condition)
        case .availableForPublication:
            guard let value = values[slot: slot] else { return true }
            return resolver.isAvailable(value, ofSlot: slot, in: settings)
        case .anyOf(let conditions):
            return conditions.contains { holds($0, slot: slot) }
        }
    }

    /// Whether the setting in `slot` cannot apply to this publication whatever is stored: a part
    /// of its activator that does not hold is a condition the publication decides (its layout,
    /// or a derived value such as EPUB's stylesheet variant), Specs/Resolution.md §9.4.
    func isOutsidePublication(slot: Int) -> Bool {
        guard Schema.catalogue.descriptors.indices.contains(slot) else { return false }
        return Schema.catalogue.descriptors[slot].activator.parts.contains { part in
            guard case .condition(let condition) = part, !holds(condition, slot: slot) else { return false }
            switch condition {
            case .layout: return true
            case .derived(let derived): return settings.derived.isDecidedByPublication(derived)
            default: return false
            }
        }
    }

    /// Why the setting in `slot` is not effective: the reasons of the parts that are not active.
    func reasons(slot: Int) -> [IneffectiveReason] {
        guard Schema.catalogue.descriptors.indices.contains(slot) else { return [] }
        var reasons: [IneffectiveReason] = isOverridden(slot: slot) ? [.overridden] : []
        for part in Schema.catalogue.descriptors[slot].activator.parts where !isActive(part, slot: slot) {
            guard let reason = reason(part), !reasons.contains(reason) else { continue }
            reasons.append(reason)
        }
        return reasons
    }

    private func reason(_ part: SettingActivator) -> IneffectiveReason? {
        switch part {
        case .none, .allOf: return nil
        case .requiresPreference(let key, let value, _):
            // A requirement no edit can meet is reported by what forces the other setting.
            if let target = Schema.catalogue.slot(forKey: key),
                let forced = resolver.forcedReason(ofSlot: target, in: settings)
            {
                return forced
            }
            return .requiresPreference(key: key, value: value)
        case .condition(let condition): return reason(condition)
        }
    }

    /// Whether an explicit `activate` would make the setting effective now (Specs/Settings.md §4): `false`
    /// when it is effective already or when activation cannot succeed.
    func canActivate(slot: Int) -> Bool {
        guard Schema.catalogue.descriptors.indices.contains(slot), !isActive(slot: slot) else { return false }
        var candidate = self
        return candidate.runActivation(slot: slot, includingManual: true)
    }

    private func reason(_ condition: SettingCondition) -> IneffectiveReason {
        switch condition {
        case .isSet: return .notSet
        case .valueResolved: return .noValue
        case .layout(let layout): return .needsLayout(layout)
        case .settingEquals(let key, let value): return .requiresSetting(key: key, value: value)
        case .settingDiffers(let key, let value): return .excludedBySetting(key: key, value: value)
        case .derived(let condition): return settings.derived.reason(condition)
        case .availableForPublication: return .notAvailableForPublication
        case .anyOf(let conditions): return .anyOf(conditions.map(reason))
        }
    }
}
