import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one durable, safe write of every file the package writes: the CLI's `edit` and the
/// store's plain files (SPEC 9, issue 11).
///
/// An update runs entirely under an exclusive `flock` on a `.lock` file beside the target, taken
/// and released within one synchronous call (never across an `await`):
///
/// 1. symbolic links are followed, so the file they point to is the one updated;
/// 2. the current bytes are read and handed to the transform, so a read-modify-write never loses
///    another process's update;
/// 3. the new bytes go to a temporary file in the same folder, which gets the target's mode and,
///    where permitted, its owner, and is flushed (`F_FULLFSYNC` where the platform has it);
/// 4. it is renamed over the target and the folder is flushed.
///
/// A crash at any instant leaves the old file or the new one, never a torn one. The temporary
/// file has one name per target, so a killed run's leftover is removed by the next update of
/// that file (or by ``removeLeftovers(in:)``). A file with several hard links is refused, since
/// replacing it would silently break the links; a read-only file is refused as well. Every
/// failure names the file and the system's reason.
package enum DurableFile {
    /// Why an update failed: the operation, the file, and the system's reason.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was being done, such as `cannot write`.
        package var operation: String
        /// The file concerned.
        package var path: String
        /// The reason, such as `Permission denied`.
        package var reason: String

        package init(_ operation: String, _ path: String, _ reason: String) {
            self.operation = operation
            self.path = path
            self.reason = reason
        }

        /// The failure of the last system call, with `errno`'s message.
        static func system(_ operation: String, _ path: String, errno code: Int32 = errno) -> Failure {
            Failure(operation, path, String(cString: strerror(code)))
        }

        /// `operation path: reason`.
        package var description: String { "\(operation) \(path): \(reason)" }
    }

    /// The suffix of the lock file beside each target.
    package static let lockSuffix = ".lock"

    /// Reads, transforms and replaces a file, all under its lock.
    ///
    /// ```swift
    /// try DurableFile.update(at: path) { current in
    ///     var preferences = try current.map { try Preferences(json: $0) } ?? Preferences()
    ///     preferences["theme"] = "dark"
    ///     return preferences.jsonData()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file; a symbolic link is followed to the file it names.
    ///   - transform: Given the current bytes (`nil` when the file does not exist), returns the
    ///     new bytes, or `nil` to leave the file as it is.
    /// - Returns: The bytes the file holds afterwards (`nil` when it does not exist).
    /// - Throws: ``Failure`` naming the file and the reason, or what `transform` throws; the
    ///   file is then unchanged.
    @discardableResult
    package static func update<E: Error>(
        at path: String, _ transform: (Data?) throws(E) -> Data?
    ) throws(UpdateError<E>) -> Data? {
        let target: String
        do { target = try resolveLinks(path) } catch { throw .file(error) }
        let lock: Int32
        do { lock = try acquireLock(for: target) } catch { throw .file(error) }
        defer { releaseLock(lock) }
        do {
            let existing = try status(of: target)
            let current = try existing.map { _ throws(Failure) in try readContents(target) }
            let replacement: Data?
            do { replacement = try transform(current) } catch { throw UpdateError.transform(error) }
            guard let replacement else { return current }
            try replace(target, with: replacement, existing: existing)
            return replacement
        } catch let error as UpdateError<E> {
            throw error
        } catch let error as Failure {
            throw .file(error)
        } catch {
            throw .file(Failure("cannot update", path, "\(error)"))
        }
    }

    /// Why ``update(at:_:)`` failed: the file system, or the transform.
    package enum UpdateError<E: Error>: Error, CustomStringConvertible {
        /// A file operation failed.
        case file(Failure)
        /// The transform threw; nothing was written.
        case transform(E)

        package var description: String {
            switch self {
            case .file(let failure): return failure.description
            case .transform(let error): return "\(error)"
            }
        }
    }

    /// Replaces a file's contents durably, under its lock.
    ///
    /// - Parameters:
    ///   - data: The new contents.
    ///   - path: The file; a symbolic link is followed.
    /// - Throws: ``Failure``.
    package static func write(_ data: Data, to path: String) throws(Failure) {
        do {
            try update(at: path) { (_: Data?) throws(Never) -> Data? in data }
        } catch {
            switch error {
            case .file(let failure): throw failure
            }
        }
    }

    /// Reads a file without locking: a reader sees the old or the new file, never a torn one.
    ///
    /// - Parameter path: The file.
    /// - Returns: The contents, or `nil` when the file does not exist.
    /// - Throws: ``Failure`` when the file exists but cannot be read.
    package static func read(_ path: String) throws(Failure) -> Data? {
        guard try status(of: path) != nil else { return nil }
        return try readContents(path)
    }

    /// The temporary file of a target: one name per target, so a leftover is found and replaced.
    package static func temporaryPath(for target: String) -> String {
        let url = URL(fileURLWithPath: target)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp").path
    }

    /// Whether a file name is one of this type's temporary files, which readers ignore.
    package static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    /// Removes the temporary files killed runs left in a folder, each under its target's lock.
    ///
    /// - Parameter folder: The folder.
    /// - Returns: The number of files removed.
    @discardableResult
    package static func removeLeftovers(in folder: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed = 0
        for name in names where isTemporary(name) {
            let targetName = String(name.dropFirst().dropLast(".tmp".count))
            let target = URL(fileURLWithPath: folder).appendingPathComponent(targetName).path
            guard let lock = try? acquireLock(for: target) else { continue }
            if unlink(temporaryPath(for: target)) == 0 { removed += 1 }
            releaseLock(lock)
        }
        return removed
    }

    // MARK: - Steps

    /// Follows symbolic links to the file they name (which may not exist yet).
    static func resolveLinks(_ path: String) throws(Failure) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return current }
                throw .system("cannot read", current)
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw .system("cannot follow the link", current) }
            let destination = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current =
                destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(
                    destination
                ).path
        }
        throw .system("cannot follow the link", path, errno: ELOOP)
    }

    /// Opens (creating if needed) and exclusively locks the target's lock file; blocks until the
    /// lock is free.
    static func acquireLock(for target: String) throws(Failure) -> Int32 {
        let lockPath = target + lockSuffix
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .system("cannot open the lock file", lockPath) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(descriptor)
                throw .system("cannot lock", lockPath, errno: code)
            }
        }
        return descriptor
    }

    static func releaseLock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The target's status, or `nil` when it does not exist.
    static func status(of path: String) throws(Failure) -> stat? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .system("cannot read", path)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw Failure("cannot use", path, "not a regular file")
        }
        return info
    }

    /// Reads a regular file and its status through one descriptor: the status describes exactly
    /// the bytes read. `nil` when the file does not exist.
    package static func readWithStatus(_ path: String) throws(Failure) -> (Data, stat)? {
        // Non-blocking, so a FIFO or a device put in a file's place cannot stall the open; it is
        // refused below as not a regular file.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .system("cannot read", path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot read", path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw Failure("cannot use", path, "not a regular file")
        }
        // The size is a hint: read until the end whatever it says.
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
        }
        result.count = filled
        return (result, info)
    }

    static func readContents(_ path: String) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system("cannot read", path) }
        defer { close(descriptor) }
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system("cannot read", path)
            }
            if count == 0 { return result }
            result.append(contentsOf: buffer[0..<count])
        }
    }

    /// Writes a temporary file, gives it the target's mode and owner, flushes it, renames it over
    /// the target and flushes the folder.
    static func replace(_ target: String, with data: Data, existing: stat?) throws(Failure) {
        if let existing {
            guard existing.st_nlink <= 1 else {
                throw Failure(
                    "cannot replace", target,
                    "it has \(existing.st_nlink) hard links, which replacing it would break; "
                        + "edit a copy, or remove the other links")
            }
            guard access(target, W_OK) == 0 else { throw .system("cannot write", target) }
        }
        let temporary = temporaryPath(for: target)
        // A leftover of a killed run: ours to remove, since we hold the target's lock.
        if unlink(temporary) != 0, errno != ENOENT { throw .system("cannot remove the leftover", temporary) }
        let mode: mode_t = existing.map { $0.st_mode & 0o7777 } ?? 0o666
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
            throw .system("cannot create a temporary file in", folder)
        }
        var completed = false
        defer {
            if !completed {
                close(descriptor)
                unlink(temporary)
            }
        }
        try writeAll(data, to: descriptor, path: temporary)
        if let existing {
            // Keep the target's mode exactly (the umask applied at creation), and its owner
            // where this process may set it.
            _ = fchmod(descriptor, existing.st_mode & 0o7777)
            if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            }
        }
        guard flush(descriptor) else { throw .system("cannot flush", temporary) }
        guard close(descriptor) == 0 else {
            completed = true
            unlink(temporary)
            throw .system("cannot write", temporary)
        }
        completed = true
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system("cannot replace", target, errno: code)
        }
        flushFolder(of: target)
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

    /// Flushes the folder holding a file, so the rename itself is durable.
    static func flushFolder(of path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
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
