import Foundation

extension PreferencesEditor {
    /// The settings form of this editor's current state (Specs/Resolution.md §9.4). Hidden settings are absent;
    /// rows are grouped into sections by their descriptors' `group`.
    public func form(locale: Locale? = nil) -> SettingsForm {
        var sections: [SettingsForm.Section] = []
        for handle in handles where handle.descriptor.isUserFacing {
            let descriptor = handle.descriptor
            let group = descriptor.group ?? "general"
            let row = formRow(handle, locale: locale)
            if let last = sections.indices.last, sections[last].id == group {
                sections[last].rows.append(row)
            } else {
                let title = Schema.catalogue.descriptor(forKey: group)?.title
                sections.append(SettingsForm.Section(id: group, title: title, rows: [row]))
            }
        }
        return SettingsForm(configurable: Schema.identifier, sections: sections)
    }

    private func formRow(_ handle: PreferenceHandle<Schema, SettingValue>, locale: Locale?)
        -> SettingsForm.Row
    {
        let descriptor = handle.descriptor
        let effective = handle.effectiveValue
        return SettingsForm.Row(
            key: descriptor.key,
            titleKey: "settings.\(descriptor.key).title",
            title: descriptor.title ?? descriptor.key,
            summary: descriptor.summary,
            control: control(handle),
            presentation: descriptor.presentation,
            storedValue: handle.storedJSON,
            effectiveValue: effective.map { descriptor.coder.encode($0) },
            formattedValue: effective.map { descriptor.format($0, locale: locale) },
            accessibilityLabel: effective.map { descriptor.accessibilityLabel($0, locale: locale) },
            isEffective: handle.isEffective,
            canActivate: handle.canActivate,
            reasons: handle.reasons.map { SettingsForm.Reason($0, catalogue: Schema.catalogue) })
    }

    private func control(_ handle: PreferenceHandle<Schema, SettingValue>) -> SettingsForm.Control {
        let descriptor = handle.descriptor
        if let identifier = descriptor.customControl { return .custom(identifier: identifier) }
        switch descriptor.kind {
        case .toggle:
            return .toggle
        case .range:
            let range = descriptor.range ?? 0...1
            return .stepper(
                range: range, step: descriptor.effectiveIncrement, steps: descriptor.suggestedSteps
            )
            .withoutStepWhenStepped
        case .percent:
            return .slider(range: descriptor.range ?? 0...1, step: descriptor.effectiveIncrement)
        case .color:
            return .color
        case .enumeration, .value:
            let values = handle.supportedValues
            guard !values.isEmpty || descriptor.kind == .enumeration else { return .text }
            var options = values.map {
                SettingsForm.Option(value: descriptor.coder.encode($0), label: descriptor.format($0))
            }
            // Specs/Resolution.md §5: no explicit "none" can be stored; the picker's none entry clears the preference.
            if descriptor.noneLabel != nil || descriptor.fallback == nil && !isResolvedByRule(descriptor) {
                options.insert(
                    SettingsForm.Option(value: nil, label: descriptor.noneLabel ?? handle.noneLabel), at: 0)
            }
            return .picker(options: options)
        }
    }

    /// Settings that always resolve by a configurable's own rule (language, reading
    /// progression, theme...) never offer a "none" entry. A value that only an app default
    /// supplies is not a rule: clearing the preference then shows "Default (Justify)" (Specs/Resolution.md §5).
    private func isResolvedByRule(_ descriptor: SettingDescriptor) -> Bool {
        var cleared = self
        guard let slot = Schema.catalogue.slot(forKey: descriptor.key) else { return false }
        if descriptor.acceptsDefault, resolver.defaults[slot: slot] != nil { return false }
        cleared.clear(slot: slot)
        return cleared.settings.values[slot: slot] != nil
    }
}

extension SettingsForm.Control {
    /// A stepper through explicit steps needs no step size.
    fileprivate var withoutStepWhenStepped: SettingsForm.Control {
        if case .stepper(let range, _, let steps?) = self {
            return .stepper(range: range, step: nil, steps: steps)
        }
        return self
    }
}
