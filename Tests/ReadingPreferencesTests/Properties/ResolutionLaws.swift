import TestSupport
import Testing

@testable import ReadingPreferences

@Suite("Laws: resolution (Specs/Settings.md §4, Specs/Resolution.md §4, §8)")
struct ResolutionLaws {
    @Test(
        "resolution is total: every range setting lands in its range, every enum on a supported value",
        arguments: LawConfigurable.allCases)
    func total(_ configurable: LawConfigurable) {
        Self.total(configurable.subject)
    }

    static func total<Subject: LawSubject>(_ subject: Subject) {
        forAll("resolution is total and in range", subject) { input in
            var editor = subject.editor(try input.document.preferences, input.context)
            try check(editor)
            editor.applyIgnoringErrors(input.edits)
            try check(editor)
        }
    }

    private static func check<Schema>(_ editor: PreferencesEditor<Schema>) throws(PropertyFailure) {
        for (slot, descriptor) in Schema.catalogue.descriptors.enumerated() {
            let resolved = editor.settings.values[slot: slot]
            let effective = editor.handle(forKey: descriptor.key)?.effectiveValue
            for (what, value) in [("resolved", resolved), ("effective", effective)] {
                guard let value else { continue }
                switch descriptor.kind {
                case .range, .percent:
                    guard let number = value.doubleValue, let range = descriptor.range else {
                        throw PropertyFailure(
                            description: "\(descriptor.key): \(what) \(value) is not a number")
                    }
                    try ensure(
                        range.contains(number), "\(descriptor.key): \(what) \(number) is outside \(range)")
                case .enumeration:
                    guard let supported = descriptor.supportedValues else { continue }
                    try ensure(
                        supported.contains { $0.matches(value) },
                        "\(descriptor.key): \(what) \(value) is not one of \(supported)")
                case .toggle:
                    try ensure(value.boolValue != nil, "\(descriptor.key): \(what) \(value) is not a Bool")
                case .color:
                    try ensure(value.colorValue != nil, "\(descriptor.key): \(what) \(value) is not a color")
                case .value:
                    continue
                }
            }
        }
    }

    @Test(
        "resolving stored preferences gives what resolving their decoded table gives",
        arguments: LawConfigurable.allCases)
    func resolvingPreferences(_ configurable: LawConfigurable) {
        Self.resolvingPreferences(configurable.subject)
    }

    static func resolvingPreferences<Subject: LawSubject>(_ subject: Subject) {
        forAll("resolve(preferences) == resolve(SettingValueTable(preferences))", subject) { input in
            let preferences = try input.document.preferences
            let resolver = subject.resolver(input.context)
            var expected = ResolvedSettings<Subject.Schema>()
            resolver.resolve(SettingValueTable(preferences), into: &expected)
            let resolved = resolver.resolve(preferences)
            try ensure(
                resolved == expected, "\(resolved.values.preferences) != \(expected.values.preferences)")
        }
    }

    @Test(
        "isEffective holds exactly when every part of the setting's activator holds",
        arguments: LawConfigurable.allCases)
    func effectiveness(_ configurable: LawConfigurable) {
        Self.effectiveness(configurable.subject)
    }

    static func effectiveness<Subject: LawSubject>(_ subject: Subject) {
        forAll("isEffective <=> every condition holds", subject) { input in
            var editor = subject.editor(try input.document.preferences, input.context)
            editor.applyIgnoringErrors(input.edits)
            for (slot, descriptor) in Subject.Schema.catalogue.descriptors.enumerated() {
                guard let handle = editor.handle(forKey: descriptor.key) else { continue }
                let failing = descriptor.activator.parts.filter {
                    !Oracle.holds($0, slot: slot, in: editor)
                }
                try ensure(
                    handle.isEffective == failing.isEmpty,
                    "\(descriptor.key): isEffective \(handle.isEffective), but parts not holding: \(failing)")
                try ensure(
                    handle.isEffective == handle.reasons.isEmpty,
                    "\(descriptor.key): isEffective \(handle.isEffective) with reasons \(handle.reasons)")
            }
        }
    }

    @Test(
        "activate makes a setting effective when writing its requirements can, else fails with notActivatable and changes nothing",
        arguments: LawConfigurable.allCases)
    func activation(_ configurable: LawConfigurable) {
        Self.activation(configurable.subject)
    }

    static func activation<Subject: LawSubject>(_ subject: Subject) {
        forAll("activate succeeds exactly when activation can work", subject) { input in
            var editor = subject.editor(try input.document.preferences, input.context)
            editor.applyIgnoringErrors(input.edits)
            guard let descriptor = input.pick(Subject.Schema.catalogue.descriptors),
                let slot = Subject.Schema.catalogue.slot(forKey: descriptor.key)
            else { return }
            // The oracle: write every requirement that does not hold (Specs/Settings.md §4), then look.
            let wasEffective = editor.handle(forKey: descriptor.key)?.isEffective ?? false
            var written = editor
            for part in descriptor.activator.parts where !Oracle.holds(part, slot: slot, in: editor) {
                guard case .requiresPreference(let key, let value, _) = part else { continue }
                let coder = Subject.Schema.catalogue.descriptor(forKey: key)?.coder ?? .json
                try written.apply(.set(key: key, value: coder.encode(value), activate: false))
            }
            let canActivate = wasEffective || (written.handle(forKey: descriptor.key)?.isEffective ?? false)
            let before = editor.preferences
            let outcome = Result { () throws(PreferenceError) in
                try editor.apply(.activate(key: descriptor.key))
            }
            switch outcome {
            case .success:
                try ensure(
                    canActivate, "\(descriptor.key): activate succeeded although the oracle says it cannot")
                try ensure(
                    editor.handle(forKey: descriptor.key)?.isEffective == true,
                    "\(descriptor.key): not effective after activate")
                if wasEffective {
                    try ensure(
                        LawCheck.identical(before, editor.preferences),
                        "activating an effective setting wrote")
                }
            case .failure(let error):
                try ensure(
                    error.code == .notActivatable, "\(descriptor.key): activate failed with \(error.code)")
                try ensure(
                    !canActivate,
                    "\(descriptor.key): activate failed although writing \(written.preferences) works")
                try ensure(
                    LawCheck.identical(before, editor.preferences),
                    "a failed activate changed the preferences")
            }
        }
    }
}

/// An independent reading of the activator parts of Specs/Settings.md §4, to check the editor against.
enum Oracle {
    static func holds<Schema>(_ part: SettingActivator, slot: Int, in editor: PreferencesEditor<Schema>)
        -> Bool
    {
        switch part {
        case .none: return true
        case .requiresPreference(let key, let value, _):
            return editor.settings[key: key]?.matches(value) ?? false
        case .condition(let condition): return holds(condition, slot: slot, in: editor)
        case .allOf(let parts): return parts.allSatisfy { holds($0, slot: slot, in: editor) }
        }
    }

    static func holds<Schema>(_ condition: SettingCondition, slot: Int, in editor: PreferencesEditor<Schema>)
        -> Bool
    {
        let descriptor = Schema.catalogue.descriptors[slot]
        switch condition {
        case .isSet:
            // "set": the preference is stored (under its key or an alias) and usable, or an app
            // default supplies it (Specs/Settings.md §4: defaults count).
            let stored = ([descriptor.key] + descriptor.renamedFrom).contains { key in
                editor.preferences[key].map { descriptor.validValue(of: $0) != nil } ?? false
            }
            return stored || (descriptor.acceptsDefault && editor.resolver.defaults[slot: slot] != nil)
        case .valueResolved:
            return editor.settings.values[slot: slot] != nil
        case .layout(let layout):
            return editor.settings.layout == layout
        case .derived(let derived):
            // Only EPUB derives anything: its stylesheet variant and whether scroll is forced.
            guard let settings = editor.settings as? ResolvedSettings<EPUB> else { return false }
            switch derived.name {
            case "stylesheets": return derived.values.contains(settings.stylesheets.rawValue)
            case "readiumCSS":
                return derived.values.allSatisfy {
                    readiumCSSApplies($0, in: settings.stylesheets, version: settings.readiumCSSVersion)
                }
            case "scrollForced": return derived.values.contains(settings.isScrollForced ? "true" : "false")
            default: return false
            }
        case .settingEquals(let key, let value):
            return editor.settings[key: key]?.matches(value) ?? false
        case .settingDiffers(let key, let value):
            return !(editor.settings[key: key]?.matches(value) ?? false)
        case .availableForPublication:
            guard let value = editor.values[slot: slot] else { return true }
            return editor.resolver.isAvailable(value, ofSlot: slot, in: editor.settings)
        case .anyOf(let conditions):
            return conditions.contains { holds($0, slot: slot, in: editor) }
        }
    }

    /// Specs/Resolution.md §5.2's table, written here again: the variants whose stylesheets
    /// apply a Readium CSS user setting.
    static func readiumCSSApplies(
        _ name: String, in variant: EPUB.StylesheetVariant, version: ReadiumCSSVersion
    )
        -> Bool
    {
        let all: Set<EPUB.StylesheetVariant> = [.default, .rtl, .cjkHorizontal, .cjkVertical]
        let table: [String: Set<EPUB.StylesheetVariant>]
        switch version {
        case .v1:
            table = [
                "a11yNormalize": [.default], "bodyHyphens": [.default], "letterSpacing": [.default],
                "wordSpacing": [.default], "ligatures": [.rtl], "paraIndent": [.default, .rtl],
                "textAlign": [.default, .rtl], "pageMargins": all, "typeScale": all,
            ]
        case .v2:
            table = [
                "a11yNormalize": [.default], "bodyHyphens": [.default],
                "letterSpacing": [.default, .cjkHorizontal, .cjkVertical], "wordSpacing": [.default, .rtl],
                "ligatures": [.default, .rtl], "paraIndent": [.default, .rtl], "textAlign": [.default, .rtl],
                "pageMargins": [], "typeScale": [],
            ]
        }
        return table[name]?.contains(variant) ?? false
    }
}
