import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Steps 3 to 5 of a batch of several files (Specs/Store.md §6.3): prepared, recorded and flushed
// in one round, renamed, then their folders flushed in a second round.
extension FileBatch {
    /// Steps 3 to 5 for several writes: the prepared files and the record are flushed together,
    /// then the folders the renames changed.
    func writeMany(
        _ writes: [(entry: Entry, target: String, existing: (data: Data, status: stat)?)],
        alongside: (@Sendable () -> Void)? = nil
    ) throws(StorageError) {
        let batch = Self.batchName()
        var prepared: [String?] = []
        var unflushed: [Int32] = []
        var record: String?
        func abandon() {
            for descriptor in unflushed { close(descriptor) }
            unflushed = []
            if let record {
                // Some of the round's flushes may have made the record durable: its removal is
                // made durable too, so a batch reported as failed never comes back.
                unlink(record)
                DurableFile.flushFolder(of: record)
            }
            for case let path? in prepared { unlink(path) }
        }
        // Step 3: prepare, unflushed for now.
        for write in writes {
            guard let bytes = write.entry.bytes else {
                prepared.append(nil)
                continue
            }
            let temporary = Self.preparedPath(for: write.target, batch: batch)
            do throws(StorageError) {
                try faults?.step(write.entry.location)
                do throws(DurableFile.Failure) {
                    try DurableFile.checkReplaceable(write.target, existing: write.existing?.status)
                    unflushed.append(
                        try DurableFile.createNew(bytes, to: temporary, like: write.existing?.status).0)
                } catch {
                    throw FileStorage.io(error, write.entry.location)
                }
            } catch {
                abandon()
                throw error
            }
            prepared.append(temporary)
        }
        // Step 4: the commit point. The record names each prepared file's version, so a record
        // that outlives a crash is finished only when every prepared file is whole.
        let path = recordsFolder + "/" + batch + ".json"
        var members: [JSONValue] = []
        for (write, temporary) in zip(writes, prepared) {
            var member: JSONObject = ["file": .string(relative(write.target))]
            if let temporary, let bytes = write.entry.bytes {
                member["prepared"] = .string(relative(temporary))
                member["new"] = .string(ContentVersion.of(bytes).rawValue)
            }
            if let old = write.existing.map({ ContentVersion.of($0.data) }) {
                member["old"] = .string(old.rawValue)
            }
            members.append(.object(member))
        }
        do throws(StorageError) {
            try faults?.step(writes.first?.entry.location)
            unflushed += try placeRecord(JSONValue.object(["writes": .array(members)]).jsonData(), at: path)
            record = path
            if let failed = DurableFile.flushTogether(unflushed, alongside: alongside) {
                throw StorageError(
                    .io, location: writes.first?.entry.location,
                    message: "cannot flush the batch's files to stable storage: "
                        + String(cString: strerror(failed.errorNumber)))
            }
            let closed = unflushed.map { close($0) == 0 }
            unflushed = []
            guard !closed.contains(false) else {
                throw StorageError(
                    .io, location: writes.first?.entry.location,
                    message: "cannot write the batch's files: closing one failed")
            }
        } catch {
            abandon()
            throw error
        }
        // Step 5: apply, then forget the record.
        var failure: String?
        for (write, temporary) in zip(writes, prepared) {
            if let temporary {
                if rename(temporary, write.target) != 0 {
                    failure = "cannot replace \(write.target): \(String(cString: strerror(errno)))"
                }
                if write.entry.location == .syncState { FileStorage.excludeFromBackup(write.target) }
            } else if unlink(write.target) != 0, errno != ENOENT {
                failure = "cannot remove \(write.target): \(String(cString: strerror(errno)))"
            }
        }
        DurableFile.flushFolders(of: writes.map(\.target))
        if let failure {
            // Committed: the record stays, and the next write of these files finishes it.
            throw StorageError(
                .io, location: writes.first?.entry.location,
                message: failure + "; the batch is committed and the next write finishes it",
                isTransient: true)
        }
        // Not flushed: a record that comes back after a crash names files already applied, and
        // finishing it again changes nothing.
        unlink(path)
    }

    /// Places a commit record: written under a temporary name in the records folder and renamed
    /// into place, so the folder only ever holds whole records; returns the record and its folder
    /// open, for the caller to flush with the prepared files. A record a crash leaves unflushed
    /// is unreadable, or names a prepared file that is not whole: either way the batch did not
    /// happen. The folder is made (and the folder above it flushed) once.
    func placeRecord(_ data: Data, at path: String) throws(StorageError) -> [Int32] {
        let partial = recordsFolder + "/." + PathText.name(of: path) + ".partial"
        if access(recordsFolder, F_OK) != 0 {
            try? FileManager.default.createDirectory(atPath: recordsFolder, withIntermediateDirectories: true)
            DurableFile.flushFolder(of: recordsFolder)
        }
        let descriptor: Int32
        do throws(DurableFile.Failure) {
            descriptor = try DurableFile.createNew(data, to: partial, like: nil).descriptor
        } catch {
            throw StorageError(.io, location: nil, message: error.description, underlying: error)
        }
        guard rename(partial, path) == 0 else {
            let code = errno
            close(descriptor)
            unlink(partial)
            let failure = DurableFile.Failure.system("cannot write the commit record", path, errno: code)
            throw StorageError(.io, location: nil, message: failure.description, underlying: failure)
        }
        let folder = open(recordsFolder, O_RDONLY | O_CLOEXEC)
        return folder >= 0 ? [descriptor, folder] : [descriptor]
    }
}
