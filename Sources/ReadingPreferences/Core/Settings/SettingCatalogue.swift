/// The ordered list of a configurable's setting descriptors, with fast lookup by key.
///
/// Each descriptor has a slot: its index in ``descriptors``. Values of a catalogue's settings are
/// kept in slot tables (``SettingValueTable``), so lookups never hash a parsed string twice.
///
/// ```swift
/// let catalogue = SettingCatalogue([Labs.compact.descriptor, Labs.width.descriptor])
/// catalogue.slot(forKey: "width")   // 1
/// ```
public struct SettingCatalogue: Sendable, Hashable {
    // A reference keeps copies to one retain: schemas hand their catalogue out on every edit.
    // The hot work (decoding values into slots, resolution's step 6) runs in methods of this
    // class (`SettingCatalogue+Slots.swift`), which borrow its plain-data tables.
    final class Storage: Sendable {
        let descriptors: [SettingDescriptor]
        let slotsByKey: KeyTable
        let slotsByAlias: KeyTable
        let problems: [Problem]
        /// How each slot's stored JSON decodes and validates.
        let decoders: [SlotDecoder]
        /// The accepted strings of the choice slots.
        let choices: ChoiceTable
        /// Whether app defaults may set each slot.
        let acceptsDefault: [Bool]
        /// Every slot unset: the table every new table shares until it is written.
        let empty: SlotStorage
        /// Every slot's fallback: the table resolution starts from, shared until written.
        let fallbacks: SlotStorage
        /// The slots of the descriptors themselves, for typed settings.
        let slotsByDescriptor: DescriptorSlotTable
        /// The groups a settings form shows (`SettingCatalogue+Groups.swift`).
        let groups: [Group]
        /// Each slot's group and position in it, or `nil` when no group lists it.
        let groupPlaces: [(group: Int, position: Int)?]
        /// The keys whose right value depends on the screen.
        let screenKeys: [String]

        init(
            descriptors: [SettingDescriptor], slotsByKey: KeyTable, slotsByAlias: KeyTable,
            problems: [Problem], groups: [Group] = [], screenKeys: [String] = []
        ) {
            self.groups = groups
            self.screenKeys = screenKeys
            groupPlaces = SettingCatalogue.groupPlaces(groups, slots: slotsByKey, count: descriptors.count)
            self.descriptors = descriptors
            self.slotsByKey = slotsByKey
            self.slotsByAlias = slotsByAlias
            self.problems = problems
            var choices = ChoiceTable()
            decoders = descriptors.map { SlotDecoder($0, choiceTable: &choices) }
            self.choices = choices
            acceptsDefault = descriptors.map(\.acceptsDefault)
            empty = SlotStorage(count: descriptors.count)
            var fallbacks = empty
            for (slot, descriptor) in descriptors.enumerated() where descriptor.fallback != nil {
                fallbacks[slot] = descriptor.fallback
            }
            self.fallbacks = fallbacks
            slotsByDescriptor = DescriptorSlotTable(descriptors)
        }

        // Looking up through a method borrows the tables; reading them as properties from the
        // struct would copy (retain and release) their three arrays on every lookup.
        func slot(forKey key: String) -> Int? { slotsByKey[key] }
        func slot(forAlias key: String) -> Int? { slotsByAlias[key] }
        // The descriptor itself, else any descriptor with its key (a setting built separately).
        func slot(of descriptor: SettingDescriptor) -> Int? {
            slotsByDescriptor.slot(of: descriptor) ?? slotsByKey[descriptor.key]
        }
    }

    let storage: Storage

    /// The descriptors, in slot order.
    public var descriptors: [SettingDescriptor] { storage.descriptors }

    /// Creates a catalogue; a descriptor whose key repeats an earlier one is ignored, and every
    /// declaration mistake is listed in ``problems``.
    ///
    /// - Parameters:
    ///   - descriptors: The descriptors, in slot order.
    ///   - groups: The groups a settings form shows, in order, each with its settings in the
    ///     order a reader expects (``Group``); none by default.
    ///   - screenKeys: The keys whose right value depends on the screen (``screenKeys``); none
    ///     by default.
    public init(_ descriptors: [SettingDescriptor], groups: [Group] = [], screenKeys: [String] = []) {
        var unique: [SettingDescriptor] = []
        var slots = KeyTable()
        for descriptor in descriptors where slots[descriptor.key] == nil {
            slots.insert(descriptor.key, value: unique.count)
            unique.append(descriptor)
        }
        var aliases = KeyTable()
        for (slot, descriptor) in unique.enumerated() {
            for alias in descriptor.renamedFrom where slots[alias] == nil {
                aliases.insert(alias, value: slot)
            }
        }
        storage = Storage(
            descriptors: unique, slotsByKey: slots, slotsByAlias: aliases,
            problems: Self.problems(of: descriptors, keys: slots) + Self.groupProblems(groups, keys: slots),
            groups: groups, screenKeys: screenKeys.filter { slots[$0] != nil })
    }

    /// The declaration mistakes found when the catalogue was built, in declaration order; empty
    /// for a sound catalogue. Check it in a test of an app-defined schema:
    ///
    /// ```swift
    /// #expect(Labs.catalogue.problems.isEmpty)
    /// ```
    public var problems: [Problem] { storage.problems }

    /// The number of settings.
    public var count: Int { descriptors.count }

    /// The keys, in slot order.
    public var keys: [String] { descriptors.map(\.key) }

    /// The slot of a key, comparing by Unicode scalars.
    ///
    /// - Parameter key: The key.
    /// - Returns: The slot, or `nil` when the catalogue declares no such key.
    public func slot(forKey key: String) -> Int? {
        storage.slot(forKey: key)
    }

    /// The slot of a typed setting; `nil` when the catalogue does not hold it.
    ///
    /// - Parameter setting: The setting.
    /// - Returns: The slot, or `nil`.
    public func slot<Owner, Value>(of setting: Setting<Owner, Value>) -> Int? {
        storage.slot(of: setting.descriptor)
    }

    /// The slot whose value a stored key holds: the setting's own key, or one of its
    /// `renamedFrom` aliases (Specs/Resolution.md §9.2); the one place aliases are looked up.
    ///
    /// - Parameter key: A stored key.
    /// - Returns: The slot and whether the key is an alias, or `nil` for an unknown key.
    func storedSlot(forKey key: String) -> (slot: Int, isAlias: Bool)? {
        if let slot = storage.slot(forKey: key) { return (slot, false) }
        if let slot = storage.slot(forAlias: key) { return (slot, true) }
        return nil
    }

    /// The descriptor of a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The descriptor, or `nil` when the catalogue declares no such key.
    public func descriptor(forKey key: String) -> SettingDescriptor? {
        slot(forKey: key).map { descriptors[$0] }
    }

    /// The descriptor in a slot.
    ///
    /// - Parameter slot: The slot.
    /// - Returns: The descriptor, or `nil` when the slot is out of range.
    public func descriptor(atSlot slot: Int) -> SettingDescriptor? {
        let descriptors = storage.descriptors
        return descriptors.indices.contains(slot) ? descriptors[slot] : nil
    }

    /// Whether the catalogue declares a key (aliases excluded).
    ///
    /// - Parameter key: The key.
    /// - Returns: `true` when a descriptor has this key.
    public func contains(key: String) -> Bool { slot(forKey: key) != nil }

    /// The keys of the publication-specific settings (Specs/Resolution.md §6).
    public var publicationKeys: [String] {
        descriptors.filter { $0.scope == .publication }.map(\.key)
    }

    /// The keys whose right value depends on the screen (a font size right for an e-ink reader
    /// is wrong on a phone), which the form-factor scope policy keeps per device class
    /// (Specs/Store.md §3.1); those of the catalogue's settings, in the order given.
    public var screenKeys: [String] { storage.screenKeys }

    /// Every key this catalogue declares, with the `renamedFrom` aliases.
    public var keysWithAliases: [String] {
        descriptors.flatMap(\.storedKeys)
    }

    /// Catalogues are equal when their descriptors and their groups are.
    public static func == (lhs: SettingCatalogue, rhs: SettingCatalogue) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.descriptors == rhs.descriptors && lhs.groups == rhs.groups
                && lhs.screenKeys == rhs.screenKeys)
    }

    /// Hashes the descriptors.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(descriptors)
    }
}
