import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A batch of changes to several files, applied together: ``FileStorage/commit(_:)``'s one
/// write path, for a single document as for many. Everything happens in one synchronous call.
///
/// 1. **Locks.** Every file's `.lock`, taken in the byte order of the files' paths, so two
///    batches never wait for each other in a circle.
/// 2. **Check.** Each file is read under its lock and its version compared with the expected
///    one; on any difference the batch fails with a conflict and no file is changed (a lone
///    save checks while its new content is flushed, and removes it on a difference).
/// 3. **Prepare.** Each new content is written beside its file, as `.<name>.txn-<batch>`, not yet
///    flushed. A failure here (a full disk) removes what was prepared: every file is unchanged.
/// 4. **Commit point.** A *commit record*, `<root>/.readingprefs/batches/<batch>.json`, names
///    every file, its prepared content and that content's version; it is written under a
///    temporary name in that folder and renamed into place. The prepared files, the record and
///    its folder are then flushed together (`DurableFile.flushTogether`), and the batch goes on
///    once all those flushes have completed. The commit point is the record in place with every
///    prepared content whole: recovery finishes such a record (flushing each prepared file before
///    its rename) and drops any other.
/// 5. **Apply.** Each prepared file is renamed over its target, each removed file unlinked, and
///    their folders flushed together; then the record is removed (unflushed: finishing a batch
///    again is harmless) and the locks released.
/// 6. **Journal.** The changes of keys the batch carries are stamped with the replica clock and
///    appended to each document's change journal (`FileJournal`), still under the locks.
///
/// A batch of one write skips steps 3 to 5: `DurableFile`'s rename is atomic on its own. A lone
/// save makes step 2 while its new content is flushed (`saveAlone(_:_:target:seen:)`), and keeps
/// the file it replaces open until its caller is answered (``ReplacedFiles``). A batch
/// of two files in two folders flushes six times (two prepared files, the record and its folder,
/// the two folders) in two rounds, against four flushes one after another for two bare durable
/// writes (Specs/Store.md §14.1). A record a crash leaves is finished only when every prepared
/// content it names is whole (`isWhole`); otherwise the batch did not happen. A file changed by
/// someone else since the batch found it (`isAsFound`) keeps that later change.
///
/// The records folder stays once made, so a batch never flushes the folder above it; a read
/// checks it with one `stat`, and reads it only when it changed since it was last seen empty:
/// then the read first waits for the batch's locks and finishes any batch whose record is still
/// there. (The record is not the change journal: it makes a batch of several files all or
/// nothing, and lives only while the batch is applied.)
///
/// What holds after a crash: every file is old or new, never torn. Before the commit point the
/// batch did not happen (a prepared file left behind is ignored by readers and removed by
/// ``FileStorage/removeLeftovers()``). After it, the batch is finished by the next read or
/// write of the root, in any process, before anything else. A reader that reads two files
/// while a batch is being applied between them can see one new and one old, each whole, as
/// with any two writes.
struct FileBatch {
    /// One change, with its file.
    struct Entry {
        var location: StorageLocation
        /// The file's path in the layout (a link is followed).
        var path: String
        var action: DocumentChange.Action
        /// The new bytes of a save.
        var bytes: Data?
        var expected: StorageVersion?
        /// Whether a save alone is flushed to stable storage (``DocumentChange/flushes``).
        var flushes = true
        /// The changes of keys to record in the document's journal.
        var journal: [JournalEntry] = []
    }

    /// The layout, for the journal folder and relative paths.
    let layout: FileLayout
    /// Failures a test armed.
    let faults: StorageFaultPlan?

    /// The folder of the commit records of batches in progress.
    let recordsFolder: String
    /// Where the files' locks are.
    let locks: DurableFile.LockPlacement
    /// Where a lone save leaves the file it replaced, open, for the caller of the batch to close
    /// after answering its own caller; `nil`: closed at once.
    let replaced: ReplacedFiles?

    /// A batch of a root's files; `recordsFolder` and `locks` differ only for a root of the
    /// layout before the hidden folder, whose cut-short batches are finished when it is moved.
    init(
        layout: FileLayout, faults: StorageFaultPlan?, recordsFolder: String? = nil,
        locks: DurableFile.LockPlacement? = nil, replaced: ReplacedFiles? = nil
    ) {
        self.layout = layout
        self.faults = faults
        self.recordsFolder = recordsFolder ?? layout.batchesPath
        self.locks = locks ?? layout.locks
        self.replaced = replaced
    }

    // MARK: - Running

    /// Applies the entries, all or none; returns one version per entry.
    func run(_ entries: [Entry]) throws(StorageError) -> [StorageVersion?] {
        var folderRounds = 0
        for _ in 0..<8 {
            // Links are followed: the file a link names is the one checked and written.
            var targets: [String] = []
            var found: [stat?] = []
            for entry in entries {
                do throws(DurableFile.Failure) {
                    let resolved = try DurableFile.resolvingLinks(entry.path)
                    targets.append(resolved.path)
                    found.append(resolved.status)
                } catch {
                    throw FileStorage.io(error, entry.location)
                }
            }
            let order = targets.indices.sorted {
                targets[$0].utf8.lexicographicallyPrecedes(targets[$1].utf8)
            }
            for (earlier, later) in zip(order, order.dropFirst()) where targets[earlier] == targets[later] {
                throw StorageError(
                    .io, location: entries[later].location,
                    message: "\(entries[earlier].location) and \(entries[later].location) are the same file",
                    isTransient: false)
            }
            // A save's folder is made before its lock is taken: the lock is kept in the hidden
            // folder, so it no longer tells a missing folder. A file that is there has its folder.
            if folderRounds == 0 {
                for index in entries.indices where entries[index].bytes != nil && found[index] == nil {
                    try FileStorage.createFolder(of: entries[index].location, path: targets[index])
                }
                folderRounds = 1
            }
            switch try locked(entries, targets, order, seen: found) {
            case .done(let versions): return versions
            case .changedMeanwhile: continue
            case .missingFolder(let index):
                // A folder is made on the first write into it, not checked on every write.
                guard folderRounds < 3 else {
                    throw StorageError(
                        .io, location: entries[index].location,
                        message: "cannot create the folder of \(targets[index])")
                }
                folderRounds += 1
                for (entry, target) in zip(entries, targets) {
                    if case .remove = entry.action { continue }
                    try FileStorage.createFolder(of: entry.location, path: target)
                }
            case .pendingRecord:
                recover()
            }
        }
        throw StorageError(
            .conflict, location: entries.first?.location, message: "too many concurrent writers")
    }

    enum Outcome {
        case done([StorageVersion?])
        /// The file was made, removed, or given another mode or owner between its first look
        /// and its lock (a lone save's check found it): look again.
        case changedMeanwhile
        /// The folder of this entry's file does not exist.
        case missingFolder(Int)
        /// A crashed batch's commit record names one of the files: finish it first.
        case pendingRecord
    }

    /// Steps 1 to 5 under the locks.
    private func locked(_ entries: [Entry], _ targets: [String], _ order: [Int], seen: [stat?])
        throws(StorageError) -> Outcome
    {
        var locks: [Int32] = []
        defer { for lock in locks.reversed() { DurableFile.releaseLock(lock) } }
        for index in order {
            do throws(DurableFile.Failure) {
                locks.append(try DurableFile.acquireLock(for: targets[index], placement: self.locks))
            } catch {
                if error.errorNumber == ENOENT {
                    // No folder, so no document: a removal or a check of a version conflicts; a
                    // save, or a check that it is absent, makes the folder (another writer may
                    // be making it now) so the lock can be taken.
                    if entries[index].expected != nil { throw StorageError.conflict(entries[index].location) }
                    return .missingFolder(index)
                }
                throw FileStorage.io(error, entries[index].location)
            }
        }
        if entries.count == 1, let bytes = entries[0].bytes, entries[0].flushes {
            return try saveAlone(entries[0], bytes, target: targets[0], seen: seen[0])
        }
        if hasPendingRecord(naming: targets) { return .pendingRecord }

        // Step 2: check every version.
        var existing: [(data: Data, status: stat)?] = []
        for (entry, target) in zip(entries, targets) {
            existing.append(try Self.readExpected(entry, at: target))
        }
        let versions = entries.map { entry -> StorageVersion? in
            switch entry.action {
            case .save: return entry.bytes.map(ContentVersion.of)
            case .remove: return nil
            case .verify: return entry.expected
            }
        }
        let writes = entries.indices.filter { entries[$0].action != .verify }
        // Step 6, the journal: stamped and opened while the files are flushed, appended after.
        let journal = PendingJournal(layout: layout, entries: entries, targets: targets)
        defer { journal?.discard() }
        var alongside: (@Sendable () -> Void)?
        if let journal { alongside = { journal.prepare() } }
        if writes.count == 1, let index = writes.first {
            try writeOne(
                entries[index], target: targets[index], existing: existing[index], alongside: alongside)
        } else if !writes.isEmpty {
            try writeMany(writes.map { (entries[$0], targets[$0], existing[$0]) }, alongside: alongside)
        } else {
            alongside?()
        }
        journal?.append()
        // The store's files of documents gone for good.
        forgetRemoved(entries, targets)
        return .done(versions)
    }

    /// Step 2 for one file: its content and status, read under its lock, when it is at the
    /// entry's expected version (`nil`: absent, as expected).
    static func readExpected(_ entry: Entry, at target: String) throws(StorageError) -> (
        data: Data, status: stat
    )? {
        guard let file = try readExpectedKeepingOpen(entry, at: target) else { return nil }
        close(file.descriptor)
        return (file.data, file.status)
    }

    /// ``readExpected(_:at:)`` that leaves the file open for the caller to close.
    static func readExpectedKeepingOpen(_ entry: Entry, at target: String) throws(StorageError) -> (
        data: Data, status: stat, descriptor: Int32
    )? {
        let file: (data: Data, status: stat, descriptor: Int32)?
        do throws(DurableFile.Failure) { file = try DurableFile.readKeepingOpen(target) } catch {
            throw FileStorage.io(error, entry.location)
        }
        guard file.map({ ContentVersion.of($0.data) }) == entry.expected else {
            if let file { close(file.descriptor) }
            throw StorageError.conflict(entry.location)
        }
        return file
    }

    /// One write, durable through `DurableFile`'s rename; `alongside` runs while its new content
    /// is flushed (or first, when nothing is).
    func writeOne(
        _ entry: Entry, target: String, existing: (data: Data, status: stat)?,
        alongside: (@Sendable () -> Void)? = nil
    ) throws(StorageError) {
        try faults?.step(entry.location)
        do throws(DurableFile.Failure) {
            if let bytes = entry.bytes {
                _ = try DurableFile.replace(
                    target, with: bytes, existing: existing?.status, flushes: entry.flushes,
                    alongside: alongside)
                if entry.location == .syncState { FileStorage.excludeFromBackup(target) }
            } else if existing != nil {
                alongside?()
                guard unlink(target) == 0 || errno == ENOENT else { throw .system("cannot remove", target) }
                DurableFile.flushFolder(of: target)
            } else {
                alongside?()
            }
        } catch {
            throw FileStorage.io(error, entry.location)
        }
    }

    // MARK: - Names

    /// A path relative to the root when it is under it (so a moved root keeps its journal
    /// meaningful), else absolute.
    func relative(_ path: String) -> String {
        let prefix = layout.rootPath == "/" ? "/" : layout.rootPath + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : (layout.rootPath == "/" ? "/" : layout.rootPath + "/") + path
    }

    /// The prepared file of a target in a batch: `.<name>.txn-<batch>`, which readers ignore.
    static func preparedPath(for target: String, batch: String) -> String {
        let slash = target.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.utf8.index(after: $0)...]) } ?? target
        return folder + "." + name + ".txn-" + batch
    }

    /// Whether a file name is a prepared file of some batch.
    static func isPrepared(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(".txn-")
    }

    static func batchName() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.utf8.count) + digits
    }
}
