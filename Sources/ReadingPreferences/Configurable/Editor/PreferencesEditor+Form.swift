import Foundation

extension PreferencesEditor {
    /// The settings form of this editor's current state (Specs/Resolution.md §9.4). Hidden
    /// settings are absent.
    ///
    /// Sections follow the catalogue's groups (``SettingCatalogue/groups``), in order, each with
    /// its rows in the group's order; a setting no group lists goes to the section of its
    /// descriptor's `group` (a feature and its options), after them. Settings that cannot apply
    /// to this publication (``PreferenceHandle/isOutsidePublication``) are in a last section of
    /// their own, ``SettingsForm/Section/outsidePublicationID``, in the same order.
    ///
    /// - Parameter locale: The locale of formatted values, or `nil` for the fixed format.
    /// - Returns: The form.
    public func form(locale: Locale? = nil) -> SettingsForm {
        form(locale: locale, suggesting: [:])
    }

    /// The settings form, with values offered for open settings (Specs/Resolution.md §9.4).
    ///
    /// ```swift
    /// // The fonts the app ships, offered with the reader's own kept:
    /// let form = editor.form(suggesting: ["fontFamily": ["Literata", "OpenDyslexic"]])
    /// ```
    ///
    /// - Parameters:
    ///   - locale: The locale of formatted values, or `nil` for the fixed format.
    ///   - suggestions: Values offered for open settings (a text value with no list of its
    ///     own, such as an unrestricted font family), by key: their control becomes
    ///     ``SettingsForm/Control/suggestions(options:)``, which keeps the stored value as an
    ///     option. Values that do not decode for the setting are left out.
    /// - Returns: The form.
    public func form(locale: Locale? = nil, suggesting suggestions: [String: [JSONValue]])
        -> SettingsForm
    {
        let catalogue = Schema.catalogue
        var grouped: [[(position: Int, row: SettingsForm.Row)]] = Array(
            repeating: [], count: catalogue.groups.count)
        var outside: [(place: (group: Int, position: Int), row: SettingsForm.Row)] = []
        var others: [SettingsForm.Section] = []
        for handle in handles where handle.descriptor.isUserFacing {
            let descriptor = handle.descriptor
            let row = formRow(handle, locale: locale, suggestions: suggestions[descriptor.key] ?? [])
            let place = catalogue.groupPlace(ofSlot: handle.slot)
            if handle.isOutsidePublication {
                outside.append((place ?? (catalogue.groups.count, handle.slot), row))
            } else if let place {
                grouped[place.group].append((place.position, row))
            } else {
                let group = descriptor.group ?? "general"
                if let last = others.indices.last, others[last].id == group {
                    others[last].rows.append(row)
                } else {
                    let title = catalogue.descriptor(forKey: group)?.title
                    others.append(SettingsForm.Section(id: group, title: title, rows: [row]))
                }
            }
        }
        var sections: [SettingsForm.Section] = []
        for (group, rows) in zip(catalogue.groups, grouped) where !rows.isEmpty {
            sections.append(
                SettingsForm.Section(
                    id: group.id, title: group.title,
                    rows: rows.sorted { $0.position < $1.position }.map(\.row)))
        }
        sections += others
        if !outside.isEmpty {
            let rows = outside.sorted {
                ($0.place.group, $0.place.position) < ($1.place.group, $1.place.position)
            }
            sections.append(
                SettingsForm.Section(
                    id: SettingsForm.Section.outsidePublicationID, title: "Not for this book",
                    rows: rows.map(\.row)))
        }
        return SettingsForm(configurable: Schema.identifier, sections: sections)
    }

    private func formRow(
        _ handle: PreferenceHandle<Schema, SettingValue>, locale: Locale?, suggestions: [JSONValue]
    )
        -> SettingsForm.Row
    {
        let descriptor = handle.descriptor
        let effective = handle.effectiveValue
        return SettingsForm.Row(
            key: descriptor.key,
            titleKey: "settings.\(descriptor.key).title",
            title: descriptor.title ?? descriptor.key,
            summary: descriptor.summary,
            control: control(handle, suggestions: suggestions),
            presentation: descriptor.presentation,
            storedValue: handle.storedJSON,
            effectiveValue: effective.map { descriptor.coder.encode($0) },
            formattedValue: effective.map { descriptor.format($0, locale: locale) },
            accessibilityLabel: effective.map { descriptor.accessibilityLabel($0, locale: locale) },
            isEffective: handle.isEffective,
            canActivate: handle.canActivate,
            reasons: handle.reasons.map { SettingsForm.Reason($0, catalogue: Schema.catalogue) })
    }

    private func control(_ handle: PreferenceHandle<Schema, SettingValue>, suggestions: [JSONValue])
        -> SettingsForm.Control
    {
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
            if values.isEmpty, descriptor.kind == .value, !suggestions.isEmpty {
                return suggestionsControl(handle, suggestions)
            }
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

    /// The suggested values that decode for the setting, each once, then the stored value when it
    /// is not one of them (the reader's own entry is kept), after the entry that clears it.
    private func suggestionsControl(
        _ handle: PreferenceHandle<Schema, SettingValue>, _ suggestions: [JSONValue]
    )
        -> SettingsForm.Control
    {
        let descriptor = handle.descriptor
        var options: [SettingsForm.Option] = []
        var seen: [JSONValue] = []
        func offer(_ json: JSONValue) {
            guard let value = descriptor.validValue(of: json) else { return }
            let encoded = descriptor.coder.encode(value)
            guard !seen.contains(encoded) else { return }
            seen.append(encoded)
            options.append(SettingsForm.Option(value: encoded, label: descriptor.format(value)))
        }
        suggestions.forEach(offer)
        if let stored = handle.storedJSON { offer(stored) }
        if descriptor.fallback == nil && !isResolvedByRule(descriptor) {
            options.insert(
                SettingsForm.Option(value: nil, label: descriptor.noneLabel ?? handle.noneLabel), at: 0)
        }
        return .suggestions(options: options)
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
