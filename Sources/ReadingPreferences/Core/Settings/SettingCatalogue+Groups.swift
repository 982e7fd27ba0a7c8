extension SettingCatalogue {
    /// A group of settings a settings screen shows together, as a reader expects them ("Theme
    /// and colors", "Text", "Spacing", "Layout"), with its settings in the order a reader reads
    /// them (Specs/Resolution.md §9.4).
    ///
    /// A catalogue names each setting's group and the groups' order; a form has one section per
    /// group, in that order. A setting no group lists keeps its descriptor's own ``SettingDescriptor/group``
    /// (an app feature's options), after the catalogue's groups.
    ///
    /// ```swift
    /// EPUB.catalogue.groups.map(\.title)   // ["Theme and colors", "Text", "Spacing", "Layout"]
    /// EPUB.catalogue.group(ofKey: "lineHeight")?.id   // "spacing"
    /// ```
    public struct Group: Sendable, Hashable {
        /// A stable identifier, such as `spacing`: a form section's `id`.
        public var id: String
        /// The English title, such as `Spacing`.
        public var title: String
        /// The settings of the group, in the order a settings screen shows them.
        public var keys: [String]

        /// Creates a group.
        ///
        /// - Parameters:
        ///   - id: A stable identifier.
        ///   - title: The English title.
        ///   - keys: The settings of the group, in order.
        public init(id: String, title: String, keys: [String]) {
            self.id = id
            self.title = title
            self.keys = keys
        }
    }

    /// The groups of the catalogue's settings, in the order a settings screen shows them; empty
    /// when the catalogue declares none.
    public var groups: [Group] { storage.groups }

    /// The group that lists a key, or `nil`.
    ///
    /// - Parameter key: A setting's key.
    /// - Returns: The group, or `nil` when no group lists the key.
    public func group(ofKey key: String) -> Group? {
        guard let slot = slot(forKey: key), let place = storage.groupPlaces[slot] else { return nil }
        return storage.groups[place.group]
    }

    /// Where a slot's setting is shown: its group's index and its position in the group.
    func groupPlace(ofSlot slot: Int) -> (group: Int, position: Int)? {
        storage.groupPlaces[slot]
    }

    /// Each slot's group and position in it; a key listed twice keeps its first place.
    static func groupPlaces(_ groups: [Group], slots: KeyTable, count: Int) -> [(group: Int, position: Int)?]
    {
        var places = [(group: Int, position: Int)?](repeating: nil, count: count)
        for (index, group) in groups.enumerated() {
            for (position, key) in group.keys.enumerated() {
                guard let slot = slots[key], places[slot] == nil else { continue }
                places[slot] = (index, position)
            }
        }
        return places
    }

    /// The problems of the groups: a key no setting has, or a key listed twice.
    static func groupProblems(_ groups: [Group], keys: KeyTable) -> [Problem] {
        var problems: [Problem] = []
        var seen = KeyTable()
        for group in groups {
            for key in group.keys {
                if keys[key] == nil {
                    problems.append(.unknownKeyInGroup(key: key, group: group.id))
                } else if seen[key] != nil {
                    problems.append(.keyInTwoGroups(key: key, group: group.id))
                } else {
                    seen.insert(key, value: 0)
                }
            }
        }
        return problems
    }
}
