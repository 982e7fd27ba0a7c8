import ReadingPreferences

/// The entries of one synced document (Specs/Sync.md §1): per key, its value or removal with its stamp.
///
/// Keys compare by their Unicode scalars (Specs/Sync.md §1): `café` written precomposed and with a
/// combining accent are two keys. Merging keeps, per key, the entry that
/// ``SyncEntry/wins(over:)``.
///
/// ```swift
/// var document = SyncDocument()
/// document.merge(SyncEntry(value: 1.4, stamp: stamp), forKey: "fontSize")
/// document["fontSize"]?.value   // 1.4
/// ```
public struct SyncDocument: Sendable, Hashable {
    private(set) var entries: [JSONScalarKey: SyncEntry] = [:]

    /// An empty document.
    public init() {}

    /// The entry of a key.
    ///
    /// - Parameter key: The key, compared by Unicode scalars.
    public subscript(key: String) -> SyncEntry? {
        get { entries[JSONScalarKey(key)] }
        set { entries[JSONScalarKey(key)] = newValue }
    }

    /// The number of keys, removals included.
    public var count: Int { entries.count }

    /// Whether no key has an entry.
    public var isEmpty: Bool { entries.isEmpty }

    /// The keys, sorted by their UTF-8 bytes.
    public var keys: [String] { entries.keys.sorted().map(\.string) }

    /// Every key with its entry, in no particular order.
    public var all: some Sequence<(key: String, entry: SyncEntry)> {
        entries.lazy.map { (key: $0.key.string, entry: $0.value) }
    }

    /// The values of the entries that are not removals, keys sorted by their UTF-8 bytes.
    public var values: Preferences {
        var members: [JSONObject.Member] = []
        members.reserveCapacity(entries.count)
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
            if let value = entry.value { members.append(JSONObject.Member(key: key.string, value: value)) }
        }
        return Preferences(members: members)
    }

    /// Keeps `entry` for `key` when it wins over the entry held (Specs/Sync.md §3).
    ///
    /// - Parameters:
    ///   - entry: The entry.
    ///   - key: Its key.
    /// - Returns: Whether the document changed.
    @discardableResult
    public mutating func merge(_ entry: SyncEntry, forKey key: String) -> Bool {
        let wrapped = JSONScalarKey(key)
        if let current = entries[wrapped], !entry.wins(over: current) { return false }
        entries[wrapped] = entry
        return true
    }

    /// Keeps, per key, the winning entry of the two documents: the one merge of sync.
    ///
    /// - Parameter other: The other document.
    public mutating func merge(_ other: SyncDocument) {
        if entries.isEmpty {
            entries = other.entries
            return
        }
        for (key, entry) in other.entries {
            if let current = entries[key], !entry.wins(over: current) { continue }
            entries[key] = entry
        }
    }

    /// Makes room for `count` entries in all.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
    }

    /// Removes the entries `drop` selects.
    mutating func removeAll(where drop: (SyncEntry) -> Bool) {
        guard entries.values.contains(where: drop) else { return }
        entries = entries.filter { !drop($0.value) }
    }
}
