import Foundation
import ReadingPreferences

// The change journal of a `UserDefaults` storage (Specs/Store.md §15.1): each layer document's
// entries under `<prefix>.journal/<location>`, one JSON text each, recorded under the storage's
// lock in the batch's step; the replica clock kept as the replica-clock document, under the same
// lock.

extension UserDefaultsStorage {
    /// The first component of every journal's key.
    var journalPrefix: String { keyPrefix + ".journal/" }

    private func journalKey(_ location: StorageLocation) -> String {
        journalPrefix
            + String(decoding: key(of: location).utf8.dropFirst(keyPrefix.utf8.count + 1), as: UTF8.self)
    }

    /// Stamps and records a batch's changes of keys, once the storage is a replica. Runs under the
    /// lock.
    func recordJournal(_ changes: [DocumentChange]) {
        let journaled = changes.filter { $0.location.isLayer && !$0.journal.isEmpty }
        guard !journaled.isEmpty, var clock = currentClock() else { return }
        let now = Milliseconds.now()
        for change in journaled {
            let key = journalKey(change.location)
            var lines = defaults.stringArray(forKey: key) ?? []
            for var entry in change.journal {
                if let stamp = entry.stamp {
                    clock.observe(stamp)
                } else if let stamp = clock.tick(now: entry.time) {
                    entry.stamp = stamp
                } else {
                    continue
                }
                lines.append(entry.jsonValue.jsonString())
            }
            if lines.reduce(0, { $0 + $1.utf8.count + 1 }) > JournalBounds.standard.maximumBytes {
                var sized: [(entry: JournalEntry, bytes: Int)] = []
                for line in lines {
                    guard let value = try? JSONValue(json: line), let entry = try? JournalEntry(json: value)
                    else {
                        continue
                    }
                    sized.append((entry, line.utf8.count + 1))
                }
                let kept = JournalBounds.standard.kept(sized, now: now)
                lines = kept.map { sized[$0].0.jsonValue.jsonString() }
                defaults.set(generation(of: key) + 1, forKey: key + "#generation")
            }
            defaults.set(lines, forKey: key)
        }
        saveClock(clock)
    }

    private func generation(of key: String) -> Int { defaults.integer(forKey: key + "#generation") }

    /// A journal's lines and how many times it was compacted, read under the lock.
    private func readJournal(_ key: String) -> (lines: [String], generation: Int) {
        lock.withLock { () -> (lines: [String], generation: Int) in
            (defaults.stringArray(forKey: key) ?? [], generation(of: key))
        }
    }

    /// The replica clock: its document, else the sync state's clock, else none.
    private func currentClock() -> HybridClock? {
        if let stored = try? read(key(of: .replicaClock), .replicaClock)?.document,
            let clock = HybridClock(document: stored.preferences)
        {
            return clock
        }
        guard let state = try? read(key(of: .syncState), .syncState)?.document else { return nil }
        return (try? SyncState(document: state.preferences))?.clock
    }

    private func saveClock(_ clock: HybridClock) {
        defaults.set(
            ["json": clock.document.jsonString(), "version": UUID().uuidString.lowercased()],
            forKey: key(of: .replicaClock))
    }

    /// A document's journal after a cursor (`<compactions>:<count read>`).
    ///
    /// - Parameters:
    ///   - location: A layer document.
    ///   - cursor: Where an earlier read got to.
    /// - Returns: The entries recorded since, and the cursor after them.
    /// - Throws: ``StorageError`` for an identifier no storage holds.
    public func journal(of location: StorageLocation, after cursor: JournalCursor?) async throws(StorageError)
        -> JournalRead
    {
        try location.checked()
        guard location.isLayer else { return JournalRead() }
        let key = journalKey(location)
        let (lines, generation) = readJournal(key)
        var start = 0
        if let parts = cursor?.rawValue.split(separator: ":"), parts.count == 2, Int(parts[0]) == generation,
            let read = Int(parts[1]), read <= lines.count
        {
            start = read
        }
        var entries: [JournalEntry] = []
        for line in lines[start...] {
            guard let value = try? JSONValue(json: line), let entry = try? JournalEntry(json: value),
                entry.stamp != nil
            else { continue }
            entries.append(entry)
        }
        return JournalRead(entries: entries, cursor: JournalCursor("\(generation):\(lines.count)"))
    }

    /// Runs `body` with the replica clock, under the storage's lock.
    public func updateReplicaClock<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        try lock.withLock {
            var clock = currentClock()
            let before = clock
            let result = try body(&clock)
            if let clock, clock != before { saveClock(clock) }
            return result
        }
    }
}
