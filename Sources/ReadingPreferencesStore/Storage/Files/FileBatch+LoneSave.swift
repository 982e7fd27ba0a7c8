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
    /// what the check read is what the rename replaces.
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
        try faults?.step(entry.location)
        let temporary: String
        let descriptor: Int32
        do throws(DurableFile.Failure) {
            (temporary, descriptor, _) = try DurableFile.createTemporary(bytes, for: target, like: seen)
        } catch {
            throw FileStorage.io(error, entry.location)
        }
        let check = LoneSaveCheck(batch: self, entry: entry, target: target, seen: seen)
        defer { check.journal?.discard() }
        do throws(DurableFile.Failure) {
            try DurableFile.finishNew(descriptor, at: temporary, flushes: true) { check.run() }
        } catch {
            throw FileStorage.io(error, entry.location)
        }
        switch check.verdict {
        case .passed:
            break
        case .refused(let outcome):
            unlink(temporary)
            return outcome
        case .failed(let error):
            unlink(temporary)
            throw error
        }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileStorage.io(.system("cannot replace", target, errno: code), entry.location)
        }
        DurableFile.flushFolder(of: target)
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

    init(batch: FileBatch, entry: FileBatch.Entry, target: String, seen: stat?) {
        self.batch = batch
        self.entry = entry
        self.target = target
        self.seen = seen
    }

    func run() {
        verdict = check()
        guard case .passed = verdict else { return }
        journal = PendingJournal(layout: batch.layout, entries: [entry], targets: [target])
        journal?.prepare()
    }

    private func check() -> Verdict {
        if batch.hasPendingRecord(naming: [target]) { return .refused(.pendingRecord) }
        let file: (data: Data, status: stat)?
        do throws(DurableFile.Failure) { file = try DurableFile.readWithStatus(target) } catch {
            return .failed(FileStorage.io(error, entry.location))
        }
        guard file.map({ ContentVersion.of($0.data) }) == entry.expected else {
            return .failed(StorageError.conflict(entry.location))
        }
        // The temporary file took the mode and owner the file had before the lock.
        if let now = file?.status,
            now.st_mode & 0o7777 != (seen?.st_mode ?? 0) & 0o7777 || now.st_uid != seen?.st_uid
                || now.st_gid != seen?.st_gid
        {
            return .refused(.changedMeanwhile)
        }
        do throws(DurableFile.Failure) {
            try DurableFile.checkReplaceable(target, existing: file?.status)
        } catch {
            return .failed(FileStorage.io(error, entry.location))
        }
        return .passed
    }
}
