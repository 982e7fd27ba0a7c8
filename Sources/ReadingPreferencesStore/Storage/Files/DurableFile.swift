import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one durable, safe write of every file the package writes: the store's documents, sync's
/// snapshots and state, the CLI's `edit`, and the replica file in a sync mirror (Specs/Store.md §6.1, Specs/Sync.md §5.8).
///
/// Everything happens in one synchronous call, ``withLockedFile(_:links:locking:placement:waits:_:)``, never
/// across an `await`:
///
/// 1. **Links.** In a store's own folder a symbolic link is followed, so the file it names is the
///    one updated (``Links/follow``, a person put it there); in a shared folder it is never
///    followed: the link itself is replaced (``Links/replace``).
/// 2. **Lock.** An exclusive `flock` on the file's lock file (``LockPlacement``: beside it, in a
///    store's hidden folder, or its folder itself), which is never renamed and
///    is opened without following a link. The mirror's replica file is written only by its own
///    replica under that replica's sync lock, so it takes none and leaves no lock file there.
/// 3. **Read.** The current bytes are read under the lock and handed to the body, so a
///    read-modify-write never loses another process's update.
/// 4. **Replace.** New bytes go to a temporary file in the same folder (created exclusively,
///    never through a link), which gets the target's mode and, where permitted, its owner; it is
///    flushed (`F_FULLFSYNC` where the platform has it), renamed over the target, and the folder
///    is flushed.
///
/// A crash at any instant leaves the old file or the new one, never a torn one. The temporary
/// file has one name per target, so a killed run's leftover is removed by the next write of that
/// file (or by ``removeLeftovers(in:)``). A file with several hard links is refused, since
/// replacing it would silently break the links; a read-only file is refused as well. Every
/// failure names the file and the system's reason.
package enum DurableFile {
    /// Why a file operation failed: the operation, the file, and the system's reason.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was being done, such as `cannot write`.
        package var operation: String
        /// The file concerned.
        package var path: String
        /// The reason, such as `Permission denied`.
        package var reason: String
        /// The system's error number, when a system call failed (`0` otherwise).
        package var errorNumber: Int32 = 0

        package init(_ operation: String, _ path: String, _ reason: String) {
            self.operation = operation
            self.path = path
            self.reason = reason
        }

        /// The failure of the last system call, with `errno`'s message.
        static func system(_ operation: String, _ path: String, errno code: Int32 = errno) -> Failure {
            var failure = Failure(operation, path, String(cString: strerror(code)))
            failure.errorNumber = code
            return failure
        }

        /// Whether a lock was not taken because another holds it (a lock that does not wait).
        package var isBusy: Bool { errorNumber == EWOULDBLOCK }

        /// `operation path: reason`.
        package var description: String { "\(operation) \(path): \(reason)" }
    }

    /// What to do with a symbolic link at the file's path.
    package enum Links: Sendable {
        /// Follow it: the file it names is read and replaced (a store's own folder).
        case follow
        /// Never follow it: it is replaced by a regular file (a folder others can write to).
        case replace
    }

    /// The suffix of a lock file's name.
    package static let lockSuffix = ".lock"

    /// Where the lock of a file is (Specs/Store.md §6.5).
    package enum LockPlacement: Sendable {
        /// `<file>.lock` beside the file.
        case beside
        /// A lock file elsewhere: the function gives its path from the file's (a store keeps its
        /// locks in its hidden folder, so the folder a person reads holds documents only).
        case mapped(@Sendable (String) -> String)
        /// The file's folder itself, locked as a whole: nothing is left beside the file (the CLI's
        /// `edit` of a file of the user's own).
        case folder
    }

    /// A file under its lock: its current contents, and the one way to change it.
    package struct LockedFile: ~Copyable {
        /// The file actually read and written (the link's target when links are followed).
        package let path: String
        /// Its bytes and status before the body ran, or `nil` when it does not exist (always `nil`
        /// when links are replaced: such a file is written, never read, through this path).
        package let existing: (data: Data, status: stat)?
        /// Whether the path held a symbolic link that will be (or was) replaced.
        package let replacesLink: Bool

        /// Replaces the file's contents, durably unless `flushes` is `false`.
        ///
        /// - Parameters:
        ///   - data: The new contents.
        ///   - flushes: Whether the file and its folder are forced to stable storage.
        /// - Returns: The new file's status.
        /// - Throws: ``Failure``; the file is then unchanged.
        @discardableResult
        package func replace(with data: Data, flushes: Bool = true) throws(Failure) -> stat {
            try DurableFile.replace(path, with: data, existing: existing?.status, flushes: flushes)
        }

        /// Removes the file (a link at its path, not its target).
        ///
        /// - Throws: ``Failure``.
        package func remove() throws(Failure) {
            guard unlink(path) == 0 || errno == ENOENT else { throw .system("cannot remove", path) }
            DurableFile.flushFolder(of: path)
        }

        /// Writes the current contents to a new file beside it, durably (for damaged data kept
        /// aside); never overwrites.
        ///
        /// - Parameter suffix: Appended to the file's name.
        /// - Returns: The new file's path.
        /// - Throws: ``Failure``.
        package func keepCopy(suffix: String) throws(Failure) -> String {
            let aside = path + suffix
            let descriptor = open(aside, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw .system("cannot create", aside) }
            defer { close(descriptor) }
            try DurableFile.writeAll(existing?.data ?? Data(), to: descriptor, path: aside)
            guard DurableFile.flush(descriptor) else { throw .system("cannot flush", aside) }
            DurableFile.flushFolder(of: aside)
            return aside
        }
    }

    /// Runs `body` with a file under its lock (see the type's rules); the lock is taken and
    /// released within this call.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - links: Whether a symbolic link at `path` is followed or replaced.
    ///   - locking: Whether to take the lock beside the file.
    ///   - placement: Where the lock file lives (beside the file, or in the storage's hidden folder).
    ///   - waits: Whether to wait for the lock; when `false` and another holds it, the call fails
    ///     with a ``Failure`` that ``Failure/isBusy``.
    ///   - body: Reads ``LockedFile/existing`` and changes the file through the ``LockedFile``.
    /// - Returns: What `body` returns.
    /// - Throws: ``UpdateError``: a file failure, or what `body` throws.
    package static func withLockedFile<Result, E: Error>(
        _ path: String, links: Links, locking: Bool = true, placement: LockPlacement = .beside,
        waits: Bool = true, _ body: (borrowing LockedFile) throws(E) -> Result
    ) throws(UpdateError<E>) -> Result {
        let target: String
        var replacesLink = false
        switch links {
        case .follow:
            do { target = try resolveLinks(path) } catch { throw .file(error) }
        case .replace:
            target = path
            var info = stat()
            replacesLink = lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        }
        var lock: Int32?
        if locking {
            do { lock = try acquireLock(for: target, placement: placement, waits: waits) } catch {
                throw .file(error)
            }
        }
        defer { if let lock { releaseLock(lock) } }
        // A folder others write to is never read through the path that is being replaced.
        let existing: (data: Data, status: stat)?
        do {
            existing = links == .replace ? nil : try readWithStatus(target)
        } catch {
            throw .file(error)
        }
        let file = LockedFile(path: target, existing: existing, replacesLink: replacesLink)
        do {
            return try body(file)
        } catch {
            throw .transform(error)
        }
    }

    /// Why ``withLockedFile(_:links:locking:placement:waits:_:)`` or ``update(at:placement:_:)`` failed.
    package enum UpdateError<E: Error>: Error, CustomStringConvertible {
        /// A file operation failed before the body ran.
        case file(Failure)
        /// The body threw (a ``Failure`` of its own writes included).
        case transform(E)

        package var description: String {
            switch self {
            case .file(let failure): return failure.description
            case .transform(let error): return "\(error)"
            }
        }
    }

    /// Reads, transforms and replaces a file, all under its lock, following links (the CLI's
    /// `edit`).
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
    ///   - placement: Where the lock file lives (beside the file, or in the storage's hidden folder).
    ///   - transform: Given the current bytes (`nil` when the file does not exist), returns the
    ///     new bytes, or `nil` to leave the file as it is.
    /// - Returns: The bytes the file holds afterwards (`nil` when it does not exist).
    /// - Throws: ``UpdateError``; the file is then unchanged.
    @discardableResult
    package static func update<E: Error>(
        at path: String, placement: LockPlacement = .beside, _ transform: (Data?) throws(E) -> Data?
    ) throws(UpdateError<E>) -> Data? {
        let outcome: Result<Data?, UpdateError<E>>
        do {
            outcome = try withLockedFile(path, links: .follow, placement: placement) {
                (file: borrowing LockedFile) throws(Never) -> Result<Data?, UpdateError<E>> in
                let current = file.existing?.data
                let replacement: Data?
                do throws(E) { replacement = try transform(current) } catch {
                    return .failure(.transform(error))
                }
                guard let replacement else { return .success(current) }
                do throws(Failure) { try file.replace(with: replacement) } catch {
                    return .failure(.file(error))
                }
                return .success(replacement)
            }
        } catch {
            switch error {
            case .file(let failure): throw .file(failure)
            case .transform(let never): switch never {}
            }
        }
        return try outcome.get()
    }

    /// Replaces a file's contents durably, under its lock, following links.
    ///
    /// - Parameters:
    ///   - data: The new contents.
    ///   - path: The file.
    ///   - placement: Where the lock file lives (beside the file, or in the storage's hidden folder).
    /// - Throws: ``Failure``.
    package static func write(_ data: Data, to path: String, placement: LockPlacement = .beside)
        throws(Failure)
    {
        do {
            try update(at: path, placement: placement) { (_: Data?) throws(Never) -> Data? in data }
        } catch {
            switch error {
            case .file(let failure): throw failure
            case .transform(let never): switch never {}
            }
        }
    }

    /// The temporary file of a target: one name per target, so a leftover is found and replaced.
    package static func temporaryPath(for target: String) -> String {
        // The bytes of `<folder>/.<name>.tmp`, written in place.
        let bytes = Array(target.utf8)
        let slash = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        let suffix = Array(".tmp".utf8)
        return String(unsafeUninitializedCapacity: bytes.count + 5) { buffer in
            var index = 0
            for byte in bytes[..<slash] {
                buffer[index] = byte
                index += 1
            }
            buffer[index] = UInt8(ascii: ".")
            index += 1
            for byte in bytes[slash...] {
                buffer[index] = byte
                index += 1
            }
            for byte in suffix {
                buffer[index] = byte
                index += 1
            }
            return index
        }
    }

    /// Whether a file name is one of this type's temporary files, which readers ignore.
    package static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    /// Removes the temporary files killed runs left in a folder, each under its target's lock.
    ///
    /// - Parameters:
    ///   - folder: The folder.
    ///   - placement: Where the lock file lives (beside the file, or in the storage's hidden folder).
    /// - Returns: The number of files removed.
    @discardableResult
    package static func removeLeftovers(in folder: String, placement: LockPlacement = .beside) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed = 0
        for name in names where isTemporary(name) {
            let target = folder + "/" + String(name.dropFirst().dropLast(".tmp".count))
            guard let lock = try? acquireLock(for: target, placement: placement) else { continue }
            if unlink(temporaryPath(for: target)) == 0 { removed += 1 }
            releaseLock(lock)
        }
        return removed
    }
}
