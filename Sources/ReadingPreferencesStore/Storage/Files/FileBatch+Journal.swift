import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileBatch {
    // MARK: - Step 6: the change journal

    /// Stamps the batch's changes of keys with the replica clock and appends them to each
    /// document's journal, under the batch's locks. A root with no replica identity (it never
    /// synced and keeps no history) records nothing. A journal that cannot be written loses its
    /// records, which only makes the edits younger (the next sync stamps them by content).
    func recordJournal(_ entries: [Entry], _ targets: [String]) {
        let journaled = entries.indices.filter { !entries[$0].journal.isEmpty }
        guard !journaled.isEmpty else { return }
        let now = Milliseconds.now()
        let stamped = try? ReplicaClockFile.update(layout) { clock -> [[JournalEntry]]? in
            guard var current = clock else { return nil }
            var result: [[JournalEntry]] = []
            for index in journaled {
                var kept: [JournalEntry] = []
                for var entry in entries[index].journal {
                    if let stamp = entry.stamp {
                        current.observe(stamp)
                    } else if let stamp = current.tick(now: entry.time) {
                        entry.stamp = stamp
                    } else {
                        // The clock waits for the wall clock: the next sync stamps this change.
                        continue
                    }
                    kept.append(entry)
                }
                result.append(kept)
            }
            clock = current
            return result
        }
        guard let stamped = stamped ?? nil else { return }
        for (index, kept) in zip(journaled, stamped) {
            try? FileJournal.append(kept, to: layout.journalPath(of: targets[index]), now: now)
        }
    }

    /// Removes the store's own files of documents this batch removed for good: a document's lock
    /// when the root keeps no journal (nothing will sync its removal), and a document's journal
    /// and locks once sync removed its sidecar while the document is gone (its removals are
    /// forgotten). Each lock removed is held by this batch (Specs/Store.md §6.5).
    func forgetRemoved(_ entries: [Entry], _ targets: [String]) {
        var identity: Bool?
        for (entry, target) in zip(entries, targets) where entry.action == .remove {
            switch entry.location {
            case .layer:
                if identity == nil { identity = ReplicaClockFile.exists(layout) }
                if identity == false, access(target, F_OK) != 0 {
                    _ = unlink(layout.lockPath(of: target))
                }
            case .syncSnapshot(let configurable, let layer):
                guard
                    let index = entries.firstIndex(where: {
                        $0.location == .layer(configurable: configurable, layer)
                    }), access(targets[index], F_OK) != 0
                else { continue }
                _ = unlink(layout.journalPath(of: targets[index]))
                _ = unlink(layout.lockPath(of: targets[index]))
                _ = unlink(layout.lockPath(of: target))
            default: continue
            }
        }
    }
}
