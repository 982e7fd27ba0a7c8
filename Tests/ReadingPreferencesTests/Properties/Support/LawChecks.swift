import TestSupport

@testable import ReadingPreferences

/// Comparisons the laws share.
enum LawCheck {
    /// Same entries and the same key order, keys compared by Unicode scalars.
    static func identical(_ lhs: Preferences, _ rhs: Preferences) -> Bool {
        lhs == rhs && sameKeys(lhs.keys, rhs.keys)
    }

    static func sameKeys(_ lhs: [String], _ rhs: [String]) -> Bool {
        lhs.elementsEqual(rhs) { $0.isScalarEqual(to: $1) }
    }

    static func contains(_ keys: [String], _ key: String) -> Bool {
        keys.contains { $0.isScalarEqual(to: key) }
    }

    /// The requires-preference parts of a setting's activator: the keys and values activation
    /// may write (Specs/Settings.md §4).
    static func requirements(of descriptor: SettingDescriptor) -> [(key: String, value: SettingValue)] {
        descriptor.activator.parts.compactMap { part in
            guard case .requiresPreference(let key, let value, _) = part else { return nil }
            return (key, value)
        }
    }

    /// Checks that `after` differs from `before` only at `key` (and its aliases) and by
    /// activation writes of `descriptor`.
    static func onlyActivationWrites(
        _ before: Preferences, _ after: Preferences, besides descriptor: SettingDescriptor,
        catalogue: SettingCatalogue
    ) throws(PropertyFailure) {
        let own = [descriptor.key] + descriptor.renamedFrom
        let requirements = requirements(of: descriptor)
        for key in before.keys + after.keys where !contains(own, key) {
            if before[key] == after[key] { continue }
            guard let requirement = requirements.first(where: { $0.key.isScalarEqual(to: key) }) else {
                throw PropertyFailure(
                    description:
                        "\(key) changed from \(before[key]?.description ?? "unset") to \(after[key]?.description ?? "unset")"
                )
            }
            let coder = catalogue.descriptor(forKey: key)?.coder ?? .json
            try ensure(
                after[key] == coder.encode(requirement.value),
                "\(key) changed to \(after[key]?.description ?? "unset"), which is not an activation write")
        }
    }
}

extension PreferencesEditor {
    /// Applies edits, ignoring those that fail.
    mutating func applyIgnoringErrors(_ edits: [PreferenceEdit]) {
        for edit in edits { try? apply(edit) }
    }
}
