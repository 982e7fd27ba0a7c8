/// Wraps preferences for one configurable and edits them through its setting descriptors
/// (Specs/Resolution.md §1).
///
/// The editor is a `Sendable` value: create it from preferences and a resolver (which holds the
/// app defaults, the publication context and the environment), edit with its `mutating`
/// methods, read each setting through a handle, and submit ``preferences`` to the navigator.
/// After every edit the editor re-resolves its ``settings``.
///
/// ```swift
/// var editor = EPUB.Editor(preferences: stored, resolver: EPUB.Resolver(publication: context))
/// try editor.increment(.fontSize)
/// try editor.set(.theme, .dark)
/// editor[.wordSpacing].isEffective   // false until publisher styles are off
/// save(editor.preferences)
/// ```
///
/// Any schema built from descriptors gets this editor for free: ``set(_:_:activate:)`` validates
/// and activates, ``toggle(_:)-(Setting<Schema,Bool>)``, ``increment(_:)`` and friends follow Specs/Settings.md §5 and §6, and
/// every failure is a typed ``PreferenceError`` that leaves the preferences unchanged.
public struct PreferencesEditor<Schema: SettingsSchema>: Sendable {
    /// The resolver: app defaults, publication context and environment.
    public let resolver: Schema.Resolver
    /// The edited preferences, ready to store and submit.
    public private(set) var preferences: Preferences
    /// Temporary overrides (a debug layer, Specs/Store.md §1.2): they win over ``preferences`` in resolution
    /// but are never edited. A handle of an overridden key is not effective, with the reason
    /// ``IneffectiveReason/overridden``, and an edit of it is still stored in ``preferences``.
    public let overrides: Preferences
    /// The decoded, validated values resolution uses, by slot: the preferences with the
    /// overrides over them.
    public private(set) var values: SettingValueTable<Schema>
    /// The settings these preferences resolve to.
    public private(set) var settings: ResolvedSettings<Schema>

    /// Creates an editor for preferences.
    ///
    /// - Parameters:
    ///   - preferences: The preferences to edit.
    ///   - resolver: The app defaults, publication context and environment.
    ///   - overrides: Temporary overrides that win over the preferences and are never edited.
    public init(
        preferences: Preferences = Preferences(), resolver: Schema.Resolver,
        overrides: Preferences = Preferences()
    ) {
        self.resolver = resolver
        self.preferences = preferences
        self.overrides = overrides
        self.values = SettingValueTable(overrides.isEmpty ? preferences : preferences.merging(overrides))
        self.settings = ResolvedSettings()
        resolver.resolve(values, into: &settings)
    }

    /// The schema's catalogue.
    public var catalogue: SettingCatalogue { Schema.catalogue }

    /// The diagnostics of the edited preferences (Specs/Settings.md §8).
    public var diagnostics: [PreferenceDiagnostic] { Schema.catalogue.diagnostics(for: preferences) }

    /// A read-only view of one setting.
    public subscript<Value>(setting: Setting<Schema, Value>) -> PreferenceHandle<Schema, Value> {
        PreferenceHandle(
            editor: self, slot: Schema.catalogue.storage.slot(of: setting.descriptor) ?? -1,
            descriptor: setting.descriptor)
    }

    /// An untyped view of the setting with this key, or `nil` when the schema has no such key.
    public func handle(forKey key: String) -> PreferenceHandle<Schema, SettingValue>? {
        guard let slot = Schema.catalogue.slot(forKey: key) else { return nil }
        return PreferenceHandle(editor: self, slot: slot, descriptor: Schema.catalogue.descriptors[slot])
    }

    /// Untyped views of every setting, in catalogue order.
    public var handles: [PreferenceHandle<Schema, SettingValue>] {
        Schema.catalogue.descriptors.indices.map {
            PreferenceHandle(editor: self, slot: $0, descriptor: Schema.catalogue.descriptors[$0])
        }
    }

    /// Whether an override sets the setting in `slot`.
    func isOverridden(slot: Int) -> Bool {
        guard !overrides.isEmpty, let descriptor = Schema.catalogue.descriptor(atSlot: slot) else {
            return false
        }
        return overrides.storedMember(of: descriptor) != nil
    }

    // MARK: - State changes shared by every edit

    mutating func reresolve() {
        resolver.resolve(values, into: &settings)
    }

    /// Re-resolves after an edit of one slot only.
    mutating func reresolve(changedSlot slot: Int) {
        resolver.resolve(changedSlot: slot, values, into: &settings)
    }

    /// Stores an accepted, validated value, removing any `renamedFrom` alias (Specs/Resolution.md §9.2).
    mutating func store(_ value: SettingValue, slot: Int) {
        store(value, slot: slot, descriptor: Schema.catalogue.descriptors[slot])
    }

    /// ``store(_:slot:)`` with the slot's descriptor at hand.
    mutating func store(_ value: SettingValue, slot: Int, descriptor: SettingDescriptor) {
        preferences[descriptor.key] = descriptor.coder.encode(value)
        for alias in descriptor.renamedFrom { preferences[alias] = nil }
        if !isOverridden(slot: slot) { values.storage[slot] = value }
    }

    /// Stores (or removes) a key no setting declares, as it is: it resolves to nothing.
    mutating func storeUndeclared(_ key: String, _ value: JSONValue?) {
        preferences[key] = value
    }

    /// Removes a slot's key and its aliases.
    mutating func unstore(slot: Int) {
        let descriptor = Schema.catalogue.descriptors[slot]
        preferences[descriptor.key] = nil
        for alias in descriptor.renamedFrom { preferences[alias] = nil }
        if !isOverridden(slot: slot) { values.storage[slot] = nil }
    }

    /// `set` once the value is valid: store, re-resolve, then activate the automatic parts
    /// when asked and needed (Specs/Settings.md §4, §5).
    mutating func commit(_ value: SettingValue, slot: Int, activate: Bool) {
        commit(value, slot: slot, descriptor: Schema.catalogue.descriptors[slot], activate: activate)
    }

    /// ``commit(_:slot:activate:)`` with the slot's descriptor at hand. Only automatic
    /// requirements are activated here, so a setting without one skips the check.
    mutating func commit(_ value: SettingValue, slot: Int, descriptor: SettingDescriptor, activate: Bool) {
        store(value, slot: slot, descriptor: descriptor)
        reresolve(changedSlot: slot)
        if activate && descriptor.storage.hasAutomaticRequirement && !isActive(slot: slot) {
            _ = runActivation(slot: slot, includingManual: false)
        }
    }

    /// Transactional activation (Specs/Settings.md §4): write every inactive requires-preference part on a
    /// copy, re-resolve, keep the copy only when the setting is now active.
    mutating func runActivation(slot: Int, includingManual: Bool) -> Bool {
        let catalogue = Schema.catalogue
        var candidate = self
        var wrote = false
        for part in catalogue.descriptors[slot].activator.parts {
            guard case .requiresPreference(let key, let value, let automatic) = part,
                automatic || includingManual, !isActive(part, slot: slot)
            else { continue }
            if let target = catalogue.slot(forKey: key) {
                candidate.store(value, slot: target)
            } else {
                candidate.preferences[key] = SettingCoder.json.encode(value)
            }
            wrote = true
        }
        guard wrote else { return false }
        candidate.reresolve()
        guard candidate.isActive(slot: slot) else { return false }
        self = candidate
        return true
    }
}
