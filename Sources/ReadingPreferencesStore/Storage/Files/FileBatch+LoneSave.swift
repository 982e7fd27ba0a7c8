import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// A batch of one save, the store's most common write: its check (step 2) is made while its new
// content is flushed, instead of before it is written.

extension FileBatch {
    /// Saves one file under its lock: the new content is written to the file's temporary file
    /// and flushed while, on another thread, the batch checks that no crashed batch names the
    /// file, reads the file, compares its version and prepares the journal (`LoneSaveCheck`).
    /// Only when both are done is the temporary file renamed over the file; a failed check
    /// removes it, so the file is as if nothing had been tried. The lock is held throughout, so
    /// what the check read is what the rename replaces. On a local file system the check reads
    /// the file through a descriptor the save keeps open past the rename, so the rename does not
    /// wait for the old content's space to be freed: the batch's ``replaced`` closes it once the
    /// caller is resumed (without one, at the end of this call).
    ///
    /// - Parameters:
    ///   - entry: The save.
    ///   - bytes: Its new content.
    ///   - target: The file (a link followed).
    ///   - seen: The file's status before its lock was taken, for the temporary file's mode and
    ///     owner; the check makes sure they did not change since.
    /// - Returns: The new version, or why the batch must first do something else and try again.
    /// - Throws: ``StorageError``: a conflict when the file is not at its expected version, or
    ///   an I/O error; the file is unchanged then.
    func saveAlone(_ entry: Entry, _ bytes: Data, target: String, seen: stat?) throws(StorageError) -> Outcome
    {
        let check = LoneSaveCheck(batch: self, entry: entry, target: target, seen: seen)
        // The file the save replaces, open since the check read it: closed at once when the
        // save goes no further, else once the caller is answered (`ReplacedFiles`).
        var replacedFile: Int32?
        defer {
            check.journal?.discard()
            if let replacedFile { close(replacedFile) }
        }
        // What went wrong writing, if anything: the check still has the first word, so a stale
        // or changed file is a conflict (or a retry) whatever the disk or an armed fault says,
        // as when the check came before the write.
        var failure: StorageError?
        var written: String?
        do throws(StorageError) { try faults?.step(entry.location) } catch { failure = error }
        if failure == nil {
            do throws(DurableFile.Failure) {
                let (temporary, descriptor, _) = try DurableFile.createTemporary(
                    bytes, for: target, like: seen)
                written = temporary
                try DurableFile.finishNew(descriptor, at: temporary, flushes: true) { check.run() }
            } catch {
                // `finishNew` removed the temporary file when it failed.
                written = nil
                failure = FileStorage.io(error, entry.location)
            }
        }
        if !check.hasRun { check.run(preparingJournal: false) }
        replacedFile = check.replacedFile
        switch check.verdict {
        case .passed:
            if let failure { throw failure }
        case .refused(let outcome):
            if let written { unlink(written) }
            return outcome
        case .failed(let error):
            if let written { unlink(written) }
            throw error
        }
        guard let temporary = written else {
            throw StorageError(
                .io, location: entry.location, message: "the new content of \(target) was not written")
        }
        var renamed = rename(temporary, target) == 0
        if !renamed, let file = replacedFile {
            // Refused while the old file is open (a file system that will not replace an open
            // file): closed, and tried once more.
            close(file)
            replacedFile = nil
            renamed = rename(temporary, target) == 0
        }
        guard renamed else {
            let code = errno
            unlink(temporary)
            throw FileStorage.io(.system("cannot replace", target, errno: code), entry.location)
        }
        DurableFile.flushFolder(of: target)
        if let replaced, let file = replacedFile {
            replaced.keep(file)
            replacedFile = nil
        }
        if entry.location == .syncState { FileStorage.excludeFromBackup(target) }
        check.journal?.append()
        return .done([ContentVersion.of(bytes)])
    }
}

/// The check of a lone save, made on another thread while its new content is flushed, and what
/// it found. The saving thread reads it only once the check has finished
/// (`DurableFile.flushTogether` waits for both).
final class LoneSaveCheck: @unchecked Sendable {
    enum Verdict {
        /// The file is as expected: the save goes on.
        case passed
        /// The batch goes no further, for the reason given.
        case refused(FileBatch.Outcome)
        case failed(StorageError)
    }

    private let batch: FileBatch
    private let entry: FileBatch.Entry
    private let target: String
    private let seen: stat?
    private(set) var verdict = Verdict.failed(
        StorageError(.io, location: nil, message: "the check did not run"))
    /// The journal of the save's changes, stamped and opened, when the check passed.
    private(set) var journal: PendingJournal?
    /// The file as the check read it, still open (the save closes it).
    private(set) var replacedFile: Int32?

    init(batch: FileBatch, entry: FileBatch.Entry, target: String, seen: stat?) {
        self.batch = batch
        self.entry = entry
        self.target = target
        self.seen = seen
    }

    /// Whether ``run(preparingJournal:)`` has run.
    private(set) var hasRun = false

    /// Makes the check, and when it passes (and `preparingJournal`), stamps the changes and
    /// opens the journal.
    func run(preparingJournal: Bool = true) {
        hasRun = true
        verdict = check()
        guard case .passed = verdict, preparingJournal else { return }
        journal = PendingJournal(layout: batch.layout, entries: [entry], targets: [target])
        journal?.prepare()
    }

    private func check() -> Verdict {
        if batch.hasPendingRecord(naming: [target]) { return .refused(.pendingRecord) }
        let file: (data: Data, status: stat, descriptor: Int32)?
        do throws(StorageError) { file = try FileBatch.readExpectedKeepingOpen(entry, at: target) } catch {
            return .failed(error)
        }
        // Kept open past the rename only where that rename stays plain (`LocalFileSystem`).
        if let file, !LocalFileSystem.holds(file.descriptor) {
            close(file.descriptor)
        } else {
            replacedFile = file?.descriptor
        }
        // The temporary file took the mode and owner the file had before the lock (or a new
        // file's, when there was none): a file made, removed, or given another mode or owner
        // since is looked at again.
        switch (file?.status, seen) {
        case (nil, nil): break
        case (let now?, let before?)
        where now.st_mode & 0o7777 == before.st_mode & 0o7777 && now.st_uid == before.st_uid
            && now.st_gid == before.st_gid:
            break
        default: return .refused(.changedMeanwhile)
        }
        do throws(DurableFile.Failure) {
            try DurableFile.checkReplaceable(target, existing: file?.status)
        } catch {
            return .failed(FileStorage.io(error, entry.location))
        }
        return .passed
    }
}
