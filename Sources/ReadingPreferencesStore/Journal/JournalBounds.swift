import ReadingPreferences

/// How much of a document's journal is kept (Specs/Store.md §15.4): per key at least its last
/// ``entriesPerKey`` changes, and every change of the last ``days`` days, the whole within
/// ``maximumBytes`` of the journal's text. What no rule keeps is forgotten when the journal is
/// compacted; the oldest entries go first when the byte bound is reached, down to
/// ``compactedBytes``, so a journal at its bound is compacted once per quarter of the bound
/// appended, not at every append.
public struct JournalBounds: Sendable, Hashable {
    /// The changes of each key kept whatever their age.
    public var entriesPerKey: Int
    /// How long every change is kept, in days.
    public var days: Int
    /// The most bytes a document's journal keeps.
    public var maximumBytes: Int

    /// The bounds ReadingPreferences keeps: 20 changes per key, 30 days, 1 MiB per document.
    public static let standard = JournalBounds(entriesPerKey: 20, days: 30, maximumBytes: 1 << 20)

    /// What a compaction forced by the byte bound leaves at most: three quarters of
    /// ``maximumBytes``.
    public var compactedBytes: Int { maximumBytes / 4 * 3 }

    /// Creates bounds.
    public init(entriesPerKey: Int, days: Int, maximumBytes: Int) {
        self.entriesPerKey = entriesPerKey
        self.days = days
        self.maximumBytes = maximumBytes
    }

    /// The entries of a journal that the bounds keep, in their order: a key's last
    /// ``entriesPerKey`` and every entry made in the last ``days`` days, then, when those pass
    /// ``maximumBytes``, oldest first, entries dropped until the text fits ``compactedBytes``.
    /// Linear in the entries.
    ///
    /// - Parameters:
    ///   - entries: The journal's entries, oldest first, each with the size of its text.
    ///   - now: The time, in milliseconds since 1970.
    /// - Returns: The indices of the entries kept, ascending.
    public func kept(_ entries: [(entry: JournalEntry, bytes: Int)], now: UInt64) -> [Int] {
        let horizon = now &- min(now, UInt64(max(days, 0)) * 86_400_000)
        var perKey: [JSONScalarKey: Int] = [:]
        var keep = [Bool](repeating: false, count: entries.count)
        for index in entries.indices.reversed() {
            let entry = entries[index].entry
            let key = JSONScalarKey(entry.key)
            let seen = perKey[key, default: 0]
            perKey[key] = seen + 1
            if seen < entriesPerKey || (entry.stamp?.time ?? entry.time) >= horizon { keep[index] = true }
        }
        let all = entries.indices.reduce(0) { keep[$1] ? $0 + entries[$1].bytes : $0 }
        let budget = all > maximumBytes ? compactedBytes : maximumBytes
        var total = 0
        var kept: [Int] = []
        // Newest first, so the byte bound drops the oldest.
        for index in entries.indices.reversed() where keep[index] {
            total += entries[index].bytes
            guard total <= budget else { break }
            kept.append(index)
        }
        return kept.reversed()
    }
}
