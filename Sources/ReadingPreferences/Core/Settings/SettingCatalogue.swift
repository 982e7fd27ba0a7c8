/// The ordered list of a configurable's setting descriptors, with fast lookup by key.
///
/// Each descriptor has a slot: its index in ``descriptors``. Values of a catalogue's settings are
/// kept in slot arrays (``SettingValues``), so lookups never hash a parsed string twice.
public struct SettingCatalogue: Sendable, Hashable {
    // A reference keeps copies to one retain: schemas hand their catalogue out on every edit.
    private final class Storage: Sendable {
        let descriptors: [SettingDescriptor]
        let slotsByKey: KeyTable
        let slotsByAlias: KeyTable

        init(descriptors: [SettingDescriptor], slotsByKey: KeyTable, slotsByAlias: KeyTable) {
            self.descriptors = descriptors
            self.slotsByKey = slotsByKey
            self.slotsByAlias = slotsByAlias
        }

        // Looking up through a method borrows the tables; reading them as properties from the
        // struct would copy (retain and release) their three arrays on every lookup.
        func slot(forKey key: String) -> Int? { slotsByKey[key] }
        func slot(forAlias key: String) -> Int? { slotsByAlias[key] }
    }

    private let storage: Storage

    /// The descriptors, in slot order.
    public var descriptors: [SettingDescriptor] { storage.descriptors }

    /// Creates a catalogue; a descriptor whose key repeats an earlier one is ignored.
    public init(_ descriptors: [SettingDescriptor]) {
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
        storage = Storage(descriptors: unique, slotsByKey: slots, slotsByAlias: aliases)
    }

    /// The number of settings.
    public var count: Int { descriptors.count }

    /// The keys, in slot order.
    public var keys: [String] { descriptors.map(\.key) }

    /// The slot of a key, comparing by Unicode scalars.
    public func slot(forKey key: String) -> Int? {
        storage.slot(forKey: key)
    }

    /// The slot of a `renamedFrom` alias.
    func slot(forAlias key: String) -> Int? {
        storage.slot(forAlias: key)
    }

    /// The descriptor of a key.
    public func descriptor(forKey key: String) -> SettingDescriptor? {
        slot(forKey: key).map { descriptors[$0] }
    }

    /// Whether the catalogue declares a key (aliases excluded).
    public func contains(key: String) -> Bool { slot(forKey: key) != nil }

    /// The keys of the publication-specific settings (SPEC 5.5).
    public var publicationKeys: [String] {
        descriptors.filter { $0.scope == .publication }.map(\.key)
    }

    /// Every key this catalogue declares, with the `renamedFrom` aliases.
    public var keysWithAliases: [String] {
        descriptors.flatMap { [$0.key] + $0.renamedFrom }
    }

    /// Catalogues are equal when their descriptors are.
    public static func == (lhs: SettingCatalogue, rhs: SettingCatalogue) -> Bool {
        lhs.storage === rhs.storage || lhs.descriptors == rhs.descriptors
    }

    /// Hashes the descriptors.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(descriptors)
    }
}
