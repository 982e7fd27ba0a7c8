import Foundation
import ReadingPreferences

extension FileBatch {
    // MARK: - Recovery

    /// Whether a commit record left by a crashed batch names one of `targets`. A running batch's
    /// record never does: it holds those files' locks until its record is gone.
    func hasPendingRecord(naming targets: [String]) -> Bool {
        let records = pendingRecords()
        guard !records.isEmpty else { return false }
        let wanted = Set(targets)
        return records.contains { record in
            (readRecord(record)?.map(\.file) ?? []).contains { wanted.contains($0) }
        }
    }

    /// Whether a batch may be pending: the records folder changed since this process last found
    /// it empty. A root found clear is not looked at again for a millisecond, so the reads of one
    /// store operation (device, shared, the book, the overrides) cost one system call, not four.
    /// A read in that millisecond is no less isolated than any read: reads take no lock, so one
    /// that runs while another process applies a batch may see some of its files new and others
    /// old, each whole.
    var mayHavePendingRecord: Bool {
        guard RecordChecks.shared.isDue(layout.rootPath) else { return false }
        var info = stat()
        guard stat(recordsFolder, &info) == 0 else {
            RecordChecks.shared.found(clear: layout.rootPath, changed: nil)
            return false
        }
        let changed = RecordChecks.Change(info)
        if RecordChecks.shared.isClear(layout.rootPath, changed) { return false }
        guard pendingRecords().isEmpty else { return true }
        RecordChecks.shared.found(clear: layout.rootPath, changed: changed)
        return false
    }

    /// The commit records in the records folder.
    func pendingRecords() -> [String] {
        guard let names = FolderNames.list(recordsFolder) else { return [] }
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map {
            recordsFolder + "/" + $0
        }
    }

    /// Finishes every batch whose record is pending, each under its files' locks: a prepared
    /// file still there is renamed into place, a file to remove that is still as the batch found
    /// it is removed; then the record goes.
    func recover() {
        for record in pendingRecords() {
            guard let writes = readRecord(record) else {
                // Not a record this package wrote: keep it aside, out of the way.
                let name = PathText.name(of: record)
                _ = rename(record, recordsFolder + "/.unreadable-" + name)
                continue
            }
            var held: [Int32] = []
            for file in Set(writes.map(\.file)).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                if let lock = try? DurableFile.acquireLock(for: file, placement: locks) {
                    held.append(lock)
                }
            }
            defer { for lock in held.reversed() { DurableFile.releaseLock(lock) } }
            // Another process may have finished it while this one waited for the locks.
            guard FileManager.default.fileExists(atPath: record) else { continue }
            guard writes.allSatisfy(isWhole) else {
                // Cut short before its flushes completed: the batch did not happen.
                for case let prepared? in writes.map(\.prepared) { unlink(prepared) }
                unlink(record)
                continue
            }
            for write in writes {
                if let prepared = write.prepared {
                    if !isAsFound(write) {
                        // Changed since the batch found it (a person's edit between the crash and
                        // now): the later change is kept, and this content is not applied.
                        unlink(prepared)
                    } else if Self.flushFile(prepared) {
                        // Flushed first: the batch that wrote it may have been cut short while
                        // its flushes ran, with the content in memory only.
                        _ = rename(prepared, write.file)
                    }
                } else if let current = try? DurableFile.readWithStatus(write.file),
                    ContentVersion.of(current.data).rawValue == write.old
                {
                    _ = unlink(write.file)
                }
                DurableFile.flushFolder(of: write.file)
            }
            unlink(record)
        }
    }

    /// Removes records that a crash left half written, before their commit point: those an hour
    /// old (a running batch writes its record in milliseconds).
    func removeStalePartials() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: recordsFolder) else {
            return
        }
        let cutoff = Date().addingTimeInterval(-3600)
        for name in names where name.hasPrefix(".") && name.hasSuffix(".json.partial") {
            let path = recordsFolder + "/" + name
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            if let modified = attributes?[.modificationDate] as? Date, modified < cutoff { unlink(path) }
        }
    }

    /// Flushes a file that exists; `false` when it does not (or cannot be opened).
    static func flushFile(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        _ = DurableFile.flush(descriptor)
        close(descriptor)
        return true
    }

    /// Whether a recorded save's new content is whole: its prepared file holds the version the
    /// record names, or, renamed already, its file does. A record without versions (written
    /// before they were recorded, when records were flushed after their prepared files) is
    /// taken as it is.
    func isWhole(_ write: RecordedWrite) -> Bool {
        guard let new = write.new, let prepared = write.prepared else { return true }
        for path in [prepared, write.file] {
            guard let file = try? DurableFile.readWithStatus(path) else { continue }
            return ContentVersion.of(file.data).rawValue == new
        }
        return false
    }

    /// Whether a recorded save's file is as the batch found it (the version the record names as
    /// `old`, or no file when it names none) or already holds the new content, so its prepared
    /// content may be renamed over it. A record without versions is taken as it is.
    func isAsFound(_ write: RecordedWrite) -> Bool {
        guard let new = write.new else { return true }
        let current: (data: Data, status: stat)?
        do throws(DurableFile.Failure) {
            current = try DurableFile.readWithStatus(write.file)
        } catch {
            return true  // Unreadable: finished as before, the batch being committed.
        }
        guard let current else { return write.old == nil }
        let version = ContentVersion.of(current.data).rawValue
        return version == write.old || version == new
    }

    struct RecordedWrite {
        var file: String
        var prepared: String?
        var old: String?
        /// The version of the prepared content.
        var new: String?
    }

    func readRecord(_ path: String) -> [RecordedWrite]? {
        guard let data = try? DurableFile.readWithStatus(path, limit: 64 << 20)?.data,
            let value = try? JSONValue(json: data), let writes = value.objectValue?["writes"]?.arrayValue
        else { return nil }
        var result: [RecordedWrite] = []
        for write in writes {
            guard let object = write.objectValue, let file = object["file"]?.stringValue else { return nil }
            result.append(
                RecordedWrite(
                    file: absolute(file), prepared: object["prepared"]?.stringValue.map(absolute),
                    old: object["old"]?.stringValue, new: object["new"]?.stringValue))
        }
        return result
    }
}

/// When each root's records folder was last found empty, so reads look at most once a
/// millisecond, and read the folder only when it changed since.
final class RecordChecks: @unchecked Sendable {
    /// What a folder's `stat` says of its contents: it changes whenever an entry is added or
    /// removed.
    struct Change: Equatable {
        var inode: UInt64
        var seconds: Int
        var nanoseconds: Int

        init(_ info: stat) {
            inode = UInt64(info.st_ino)
            #if canImport(Darwin)
                seconds = Int(info.st_mtimespec.tv_sec)
                nanoseconds = Int(info.st_mtimespec.tv_nsec)
            #else
                seconds = Int(info.st_mtim.tv_sec)
                nanoseconds = Int(info.st_mtim.tv_nsec)
            #endif
        }
    }

    static let shared = RecordChecks()
    private let lock = NSLock()
    private var lastClear: [String: (time: UInt64, change: Change?)] = [:]
    private static let interval: UInt64 = 1_000_000

    /// Whether the root's records folder should be looked at now.
    func isDue(_ root: String) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return lock.withLock { lastClear[root].map { now &- $0.time >= Self.interval } ?? true }
    }

    /// Whether the folder is as it was when last found empty.
    func isClear(_ root: String, _ change: Change) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return lock.withLock {
            guard let last = lastClear[root], last.change == change else { return false }
            lastClear[root] = (now, change)
            return true
        }
    }

    /// Records that the root had no pending record just now.
    func found(clear root: String, changed change: Change?) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock { lastClear[root] = (now, change) }
    }
}
