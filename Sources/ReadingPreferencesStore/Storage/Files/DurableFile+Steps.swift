import Foundation

extension DurableFile {
    // MARK: - Steps

    /// Follows symbolic links to the file they name (which may not exist yet).
    static func resolveLinks(_ path: String) throws(Failure) -> String {
        try resolvingLinks(path).path
    }

    /// Follows symbolic links to the file they name, and gives the status of what is there (so
    /// its folder exists), or `nil`.
    static func resolvingLinks(_ path: String) throws(Failure) -> (path: String, status: stat?) {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return (current, nil) }
                throw .system("cannot read", current)
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { return (current, info) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw .system("cannot follow the link", current) }
            let destination = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current =
                destination.hasPrefix("/")
                ? destination
                : PathText.folder(of: current) + "/" + destination
        }
        throw .system("cannot follow the link", path, errno: ELOOP)
    }

    /// Opens (creating if needed, never through a link) and exclusively locks the target's lock
    /// file, where `placement` puts it; blocks until the lock is free, unless `waits` is `false`:
    /// it then fails with ``Failure/isBusy`` when another holds it.
    ///
    /// A lock file may be removed once its document is gone (Specs/Store.md §6.5): it is removed
    /// only under its own lock, and a lock taken on a file that was removed meanwhile (its path
    /// now names another file, or none) is let go and taken again on the file the path names.
    static func acquireLock(for target: String, placement: LockPlacement = .beside, waits: Bool = true)
        throws(Failure) -> Int32
    {
        let lockPath: String
        var isFolder = false
        switch placement {
        case .beside: lockPath = target + lockSuffix
        case .mapped(let map): lockPath = map(target)
        case .folder:
            let slash = target.utf8.lastIndex(of: UInt8(ascii: "/"))
            lockPath = slash.map { $0 == target.utf8.startIndex ? "/" : String(target[..<$0]) } ?? "."
            isFolder = true
        }
        for _ in 0..<64 {
            let flags =
                isFolder ? O_RDONLY | O_CLOEXEC | O_DIRECTORY : O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW
            var descriptor = open(lockPath, flags, 0o644)
            if descriptor < 0, errno == ENOENT, !isFolder, case .mapped = placement {
                // A lock kept apart from its file: its folder is made on first use.
                let folder = PathText.folder(of: lockPath)
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                descriptor = open(lockPath, flags, 0o644)
            }
            guard descriptor >= 0 else {
                if errno == ELOOP {
                    throw Failure("cannot open the lock file", lockPath, "it is a symbolic link")
                }
                throw .system("cannot open the lock file", lockPath)
            }
            while flock(descriptor, waits ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
                guard errno == EINTR else {
                    let code = errno
                    close(descriptor)
                    throw .system("cannot lock", lockPath, errno: code)
                }
            }
            if isFolder { return descriptor }
            var held = stat()
            var named = stat()
            if fstat(descriptor, &held) == 0, stat(lockPath, &named) == 0, held.st_ino == named.st_ino,
                held.st_dev == named.st_dev
            {
                return descriptor
            }
            // Removed (with its document) while this process waited: lock the file there now.
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        throw Failure("cannot lock", lockPath, "its lock file keeps being removed")
    }

    /// Removes a lock file whose document is gone, while holding it (``acquireLock(for:placement:waits:)``
    /// makes a waiter take the next one).
    static func removeLockFile(for target: String, placement: LockPlacement) {
        switch placement {
        case .beside: _ = unlink(target + lockSuffix)
        case .mapped(let map): _ = unlink(map(target))
        case .folder: break
        }
    }

    static func releaseLock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Reads a regular file and its status through one descriptor: the status describes exactly
    /// the bytes read. `nil` when the file does not exist.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - links: Whether to follow a symbolic link (a link is refused otherwise).
    ///   - limit: The most bytes accepted; a larger file is refused before it is read.
    /// - Returns: The bytes and the status.
    /// - Throws: ``Failure`` when the file exists but cannot be read, is not a regular file, or is
    ///   too large.
    package static func readWithStatus(_ path: String, links: Links = .follow, limit: Int = .max)
        throws(Failure)
        -> (data: Data, status: stat)?
    {
        guard let file = try readKeepingOpen(path, links: links, limit: limit) else { return nil }
        close(file.descriptor)
        return (file.data, file.status)
    }

    /// ``readWithStatus(_:links:limit:)`` that leaves the file open: the caller closes the
    /// descriptor (a save keeps the file it replaces open until its caller is answered,
    /// ``ReplacedFiles``).
    static func readKeepingOpen(_ path: String, links: Links = .follow, limit: Int = .max)
        throws(Failure)
        -> (data: Data, status: stat, descriptor: Int32)?
    {
        // Non-blocking, so a FIFO or a device put in a file's place cannot stall the open; it is
        // refused below as not a regular file.
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (links == .replace ? O_NOFOLLOW : 0)
        let descriptor = open(path, flags)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw Failure("cannot use", path, "it is a symbolic link") }
            throw .system("cannot read", path)
        }
        var kept = false
        defer { if !kept { close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot read", path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw Failure("cannot use", path, "not a regular file")
        }
        guard Int(info.st_size) <= limit else {
            throw Failure("cannot use", path, "larger than \(limit) bytes")
        }
        // The size is a hint: read until the end whatever it says, within the limit.
        var result = Data(count: Swift.max(Int(info.st_size), 0) + 1)
        var filled = 0
        while true {
            if filled == result.count { result.count += Swift.max(result.count, 4096) }
            let count = result.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system("cannot read", path)
            }
            if count == 0 { break }
            filled += count
            guard filled <= limit else { throw Failure("cannot use", path, "larger than \(limit) bytes") }
            // All the bytes its status counted, and a read that stopped short of the space
            // left: the end of a regular file, found without another call. (A read can stop
            // short elsewhere, on a network file system: then the size is not reached yet.)
            if filled == Int(info.st_size), filled < result.count { break }
        }
        result.count = filled
        kept = true
        return (result, info, descriptor)
    }

    /// Writes a temporary file, gives it the target's mode and owner, flushes it, renames it over
    /// the target and flushes the folder; returns the new file's status. With `flushes` false,
    /// nothing is forced to stable storage (a write a crash may lose: pending stamps).
    static func replace(
        _ target: String, with data: Data, existing: stat?, flushes: Bool = true,
        alongside: (@Sendable () -> Void)? = nil
    ) throws(Failure) -> stat {
        try checkReplaceable(target, existing: existing)
        let (temporary, descriptor, written) = try createTemporary(data, for: target, like: existing)
        try finishNew(descriptor, at: temporary, flushes: flushes, alongside: alongside)
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system("cannot replace", target, errno: code)
        }
        if flushes { flushFolder(of: target) }
        return written
    }

    /// Creates the target's temporary file (``createNew(_:to:like:)``, left open and unflushed)
    /// and writes `data` to it, first removing a leftover of a killed run found there (or
    /// anything planted there): the caller holds the target's lock, so it is ours to remove, and
    /// `unlink` removes a link itself, never its target.
    static func createTemporary(_ data: Data, for target: String, like existing: stat?) throws(Failure)
        -> (path: String, descriptor: Int32, status: stat)
    {
        let temporary = temporaryPath(for: target)
        do throws(Failure) {
            let (descriptor, status) = try createNew(data, to: temporary, like: existing)
            return (temporary, descriptor, status)
        } catch  where error.errorNumber == EEXIST {
            if unlink(temporary) != 0, errno != ENOENT {
                throw .system("cannot remove the leftover", temporary)
            }
            let (descriptor, status) = try createNew(data, to: temporary, like: existing)
            return (temporary, descriptor, status)
        }
    }

    /// Refuses to replace a file with several hard links (replacing it would break them) or one
    /// this process may not write.
    static func checkReplaceable(_ target: String, existing: stat?) throws(Failure) {
        guard let existing else { return }
        guard existing.st_nlink <= 1 else {
            throw Failure(
                "cannot replace", target,
                "it has \(existing.st_nlink) hard links, which replacing it would break; "
                    + "edit a copy, or remove the other links")
        }
        // Its owner may write it when its mode says so (a read-only file system or an immutable
        // file fails the write itself); anyone else asks the system.
        let ownerMayWrite = existing.st_uid == geteuid() && existing.st_mode & S_IWUSR != 0
        guard ownerMayWrite || access(target, W_OK) == 0 else { throw .system("cannot write", target) }
    }

    /// Creates a new file (never through a link, never over an existing one) with the mode and,
    /// where permitted, the owner of `existing`, writes `data` and flushes it; on failure nothing
    /// is left behind. Returns the file's status.
    static func writeNew(
        _ data: Data, to path: String, like existing: stat?, flushes: Bool = true,
        alongside: (@Sendable () -> Void)? = nil
    ) throws(Failure) -> stat {
        let (descriptor, written) = try createNew(data, to: path, like: existing)
        try finishNew(descriptor, at: path, flushes: flushes, alongside: alongside)
        return written
    }

    /// Flushes a file ``createNew(_:to:like:)`` left open (unless `flushes` is false), running
    /// `alongside` meanwhile on another thread, and closes it; on failure the file is removed.
    static func finishNew(
        _ descriptor: Int32, at path: String, flushes: Bool, alongside: (@Sendable () -> Void)?
    ) throws(Failure) {
        var failure: Int32?
        if !flushes {
            alongside?()
        } else if alongside != nil {
            failure = flushTogether([descriptor], alongside: alongside)?.errorNumber
        } else if !flush(descriptor) {
            failure = errno
        }
        if let failure {
            close(descriptor)
            unlink(path)
            throw .system("cannot flush", path, errno: failure)
        }
        guard close(descriptor) == 0 else {
            unlink(path)
            throw .system("cannot write", path)
        }
    }

    /// ``writeNew(_:to:like:flushes:)`` without the flush: the file is left open, for the caller
    /// to flush together with others (``flushTogether(_:)``) and close. On failure nothing is
    /// left behind.
    static func createNew(_ data: Data, to path: String, like existing: stat?) throws(Failure)
        -> (descriptor: Int32, status: stat)
    {
        let mode: mode_t = existing.map { $0.st_mode & 0o7777 } ?? 0o666
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let code = errno
            throw .system("cannot create a temporary file in", PathText.folder(of: path), errno: code)
        }
        var completed = false
        defer {
            if !completed {
                close(descriptor)
                unlink(path)
            }
        }
        try writeAll(data, to: descriptor, path: path)
        var written = stat()
        _ = fstat(descriptor, &written)
        if let existing {
            // Keep the target's mode exactly (the umask applied at creation), and its owner
            // where this process may set it.
            if written.st_mode & 0o7777 != existing.st_mode & 0o7777 {
                _ = fchmod(descriptor, existing.st_mode & 0o7777)
                written.st_mode = (written.st_mode & ~0o7777) | (existing.st_mode & 0o7777)
            }
            if existing.st_uid != written.st_uid || existing.st_gid != written.st_gid {
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            }
        }
        completed = true
        return (descriptor, written)
    }

    static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(Failure) {
        var failure: Failure?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = systemWrite(descriptor, raw.baseAddress?.advanced(by: offset), raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = .system("cannot write", path)
                    return
                }
                offset += count
            }
        }
        if let failure { throw failure }
    }

    /// Flushes a file to stable storage: `F_FULLFSYNC` where the platform has it, else `fsync`.
    static func flush(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(descriptor) == 0
    }

    /// Flushes the folder holding a file, so a rename or a removal is itself durable.
    static func flushFolder(of path: String) {
        let folder = PathText.folder(of: path)
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = flush(descriptor)
        close(descriptor)
    }
}

// The system's read and write, named apart from the Swift methods of the same names.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
