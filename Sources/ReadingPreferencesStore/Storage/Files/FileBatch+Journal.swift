import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Step 6 of a batch, the change journal, in two halves: the batch's changes of keys are stamped
/// with the replica clock and their journals opened while the batch's files are flushed
/// (``prepare()``, on another thread), and the lines are appended once the files are durable
/// (``append()``), so a journal never records a change a crash could still undo. All under the
/// batch's locks. A root with no replica identity (it never synced and keeps no history) records
/// nothing. A journal that cannot be written loses its records, which only makes the edits younger
/// (the next sync stamps them by content); a stamp taken for a batch that then fails is skipped,
/// which a clock allows.
final class PendingJournal: @unchecked Sendable {
    private let layout: FileLayout
    /// The changes to record, each with its document's file (whose journal they go to).
    private let changes: [(target: String, entries: [JournalEntry])]
    private let now = Milliseconds.now()
    /// The journals ``prepare()`` opened. Only one thread at a time touches it: ``prepare()`` runs
    /// while the batch's thread waits for it (`BlockingIO.concurrently`).
    private var opened: [FileJournal.OpenAppend] = []

    /// The journal of a batch's changes, or `nil` when it has none to record or the root keeps
    /// no journal.
    init?(layout: FileLayout, entries: [FileBatch.Entry], targets: [String]) {
        guard entries.contains(where: { !$0.journal.isEmpty }), ReplicaClockFile.exists(layout) else {
            return nil
        }
        self.layout = layout
        changes = zip(entries, targets).compactMap { entry, target in
            entry.journal.isEmpty ? nil : (target, entry.journal)
        }
    }

    /// Stamps the changes and opens their journals.
    func prepare() {
        let stamped = try? ReplicaClockFile.update(layout) { [changes] clock -> [[JournalEntry]]? in
            guard var current = clock else { return nil }
            var result: [[JournalEntry]] = []
            for (_, entries) in changes {
                var kept: [JournalEntry] = []
                for var entry in entries {
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
        for ((target, _), kept) in zip(changes, stamped) {
            if let append = try? FileJournal.opened(kept, to: layout.journalPath(of: target)) {
                opened.append(append)
            }
        }
    }

    /// Appends what ``prepare()`` made ready: the batch's files are durable.
    func append() {
        for append in opened { try? append.finish(now: now) }
        opened = []
    }

    /// Closes what ``prepare()`` opened, appending nothing: the batch failed.
    func discard() {
        for append in opened { append.discard() }
        opened = []
    }
}

extension FileBatch {
    // MARK: - The store's files of removed documents

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
