/// The ordered list of a configurable's setting descriptors, with fast lookup by key.
///
/// Each descriptor has a slot: its index in ``descriptors``. Values of a catalogue's settings are
/// kept in slot arrays (``SettingValues``), so lookups never hash a parsed string twice.
public struct SettingCatalogue: Sendable, Hashable {
    /// The descriptors, in slot order.
    public let descriptors: [SettingDescriptor]
    private let slotsByKey: [String: Int]
    private let slotsByAlias: [String: Int]

    /// Creates a catalogue; a descriptor whose key repeats an earlier one is ignored.
    public init(_ descriptors: [SettingDescriptor]) {
        var unique: [SettingDescriptor] = []
        var slots: [String: Int] = [:]
        for descriptor in descriptors where slots[descriptor.key] == nil {
            slots[descriptor.key] = unique.count
            unique.append(descriptor)
        }
        var aliases: [String: Int] = [:]
        for (slot, descriptor) in unique.enumerated() {
            for alias in descriptor.renamedFrom where slots[alias] == nil && aliases[alias] == nil {
                aliases[alias] = slot
            }
        }
        self.descriptors = unique
        self.slotsByKey = slots
        self.slotsByAlias = aliases
    }

    /// The number of settings.
    public var count: Int { descriptors.count }

    /// The keys, in slot order.
    public var keys: [String] { descriptors.map(\.key) }

    /// The slot of a key, comparing by Unicode scalars.
    public func slot(forKey key: String) -> Int? {
        guard let slot = slotsByKey[key], descriptors[slot].key.isScalarEqual(to: key) else { return nil }
        return slot
    }

    /// The slot of a `renamedFrom` alias.
    func slot(forAlias key: String) -> Int? {
        guard let slot = slotsByAlias[key] else { return nil }
        return descriptors[slot].renamedFrom.contains { $0.isScalarEqual(to: key) } ? slot : nil
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
        lhs.descriptors == rhs.descriptors
    }

    /// Hashes the descriptors.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(descriptors)
    }
}
