import Foundation
import ReadingPreferences

extension FileBatch {
    // MARK: - Recovery

    /// Whether a journal left by a crashed batch names one of `targets`. A running batch's
    /// journal never does: it holds those files' locks until its journal is gone.
    func hasPendingJournal(naming targets: [String]) -> Bool {
        let journals = pendingJournals()
        guard !journals.isEmpty else { return false }
        let wanted = Set(targets)
        return journals.contains { journal in
            (readJournal(journal)?.map(\.file) ?? []).contains { wanted.contains($0) }
        }
    }

    /// Whether the journal folder exists: a batch is pending, or just finished. A root found
    /// without one is not looked at again for a millisecond, so the reads of one store
    /// operation (device, shared, the book, the overrides) cost one system call, not four. A
    /// read in that millisecond is no less isolated than any read: reads take no lock, so one
    /// that runs while another process applies a batch may see some of its files new and others
    /// old, each whole.
    var mayHavePendingJournal: Bool {
        guard JournalChecks.shared.isDue(layout.rootPath) else { return false }
        let exists = access(journalFolder, F_OK) == 0
        if !exists { JournalChecks.shared.found(noJournalIn: layout.rootPath) }
        return exists
    }

    /// The journals in the journal folder.
    func pendingJournals() -> [String] {
        guard access(journalFolder, F_OK) == 0,
            let names = try? FileManager.default.contentsOfDirectory(atPath: journalFolder)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map {
            journalFolder + "/" + $0
        }
    }

    /// Finishes every batch whose journal is pending, each under its files' locks: a prepared
    /// file still there is renamed into place, a file to remove that is still as the batch found
    /// it is removed; then the journal goes.
    func recover() {
        defer { _ = rmdir(journalFolder) }
        for journal in pendingJournals() {
            guard let writes = readJournal(journal) else {
                // Not a journal this package wrote: keep it aside, out of the way.
                let name = URL(fileURLWithPath: journal).lastPathComponent
                _ = rename(journal, layout.rootPath + "/.unreadable-transaction-" + name)
                continue
            }
            var locks: [Int32] = []
            for file in Set(writes.map(\.file)).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                if let lock = try? DurableFile.acquireLock(for: file) { locks.append(lock) }
            }
            defer { for lock in locks.reversed() { DurableFile.releaseLock(lock) } }
            // Another process may have finished it while this one waited for the locks.
            guard FileManager.default.fileExists(atPath: journal) else { continue }
            for write in writes {
                if let prepared = write.prepared {
                    if FileManager.default.fileExists(atPath: prepared) { _ = rename(prepared, write.file) }
                } else if let current = try? DurableFile.readWithStatus(write.file),
                    ContentVersion.of(current.data).rawValue == write.old
                {
                    _ = unlink(write.file)
                }
                DurableFile.flushFolder(of: write.file)
            }
            unlink(journal)
            DurableFile.flushFolder(of: journal)
        }
    }

    /// Removes journals that a crash left half written, before their commit point, beside the
    /// journal folder: those an hour old (a running batch writes its journal in milliseconds).
    func removeStalePartials() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: layout.rootPath) else {
            return
        }
        let cutoff = Date().addingTimeInterval(-3600)
        for name in names where name.hasPrefix(".") && name.hasSuffix(".json.partial") {
            let path = layout.rootPath + "/" + name
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            if let modified = attributes?[.modificationDate] as? Date, modified < cutoff { unlink(path) }
        }
    }

    struct JournalWrite {
        var file: String
        var prepared: String?
        var old: String?
    }

    func readJournal(_ path: String) -> [JournalWrite]? {
        guard let data = try? DurableFile.readWithStatus(path, limit: 64 << 20)?.data,
            let value = try? JSONValue(json: data), let writes = value.objectValue?["writes"]?.arrayValue
        else { return nil }
        var result: [JournalWrite] = []
        for write in writes {
            guard let object = write.objectValue, let file = object["file"]?.stringValue else { return nil }
            result.append(
                JournalWrite(
                    file: absolute(file), prepared: object["prepared"]?.stringValue.map(absolute),
                    old: object["old"]?.stringValue))
        }
        return result
    }
}

/// When each root was last found with no journal folder, so reads look at most once a
/// millisecond.
final class JournalChecks: @unchecked Sendable {
    static let shared = JournalChecks()
    private let lock = NSLock()
    private var lastClear: [String: UInt64] = [:]
    private static let interval: UInt64 = 1_000_000

    /// Whether the root's journal folder should be looked at now.
    func isDue(_ root: String) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return lock.withLock { lastClear[root].map { now &- $0 >= Self.interval } ?? true }
    }

    /// Records that the root had no journal folder just now.
    func found(noJournalIn root: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock { lastClear[root] = now }
    }
}
