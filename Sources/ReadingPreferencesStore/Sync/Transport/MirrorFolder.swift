import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder several devices share (iCloud Drive, a network share, Syncthing), as a replica
/// transport (Specs/Sync.md §2, §5.8): each replica writes only `<replica>.json`, and reads every other.
///
/// ```swift
/// let report = try await store.sync(with: MirrorFolder(url: sharedFolder))
/// ```
///
/// Anyone who can write to the folder is treated as a stranger:
/// - a file is read only if it is a regular file (never through a link) named `<replica>.json`
///   with a valid replica id, within the limits of ``ReplicaFileLimits``, whose `replica` member
///   is that name; anything else is skipped and reported;
/// - this replica's own file is replaced atomically by a rename in the folder, never written
///   through a link (a link there is replaced and reported), and no lock or temporary file is
///   left behind;
/// - the folder must not overlap the store's own folder.
///
/// On Apple platforms every read and write goes through file coordination, and a cloud
/// placeholder (`.<name>.icloud`) is asked to download and reported as not there yet.
public struct MirrorFolder: ReplicaTransport {
    /// The folder.
    public let url: URL
    /// The limits of the files read.
    public var limits: ReplicaFileLimits

    /// A mirror folder.
    ///
    /// - Parameters:
    ///   - url: The folder (created by the first sync when missing).
    ///   - limits: The limits of the files read.
    public init(url: URL, limits: ReplicaFileLimits = ReplicaFileLimits()) {
        self.url = url
        self.limits = limits
    }

    private var path: String { url.standardizedFileURL.path }

    /// Refuses a folder that overlaps the store's, and creates the folder when missing.
    ///
    /// - Parameter localFolder: The store's folder.
    /// - Returns: `createdMirror` when the folder was created.
    /// - Throws: ``SyncError/usage(_:)`` for overlapping folders, ``SyncError/transport(_:)``
    ///   when the folder cannot be created.
    public func prepare(localFolder: URL?) async throws(SyncError) -> [SyncProblem] {
        let path = path
        return try await BlockingIO.run { () throws(SyncError) -> [SyncProblem] in
            if let localFolder {
                let mirror = Self.resolved(path)
                let root = Self.resolved(localFolder.standardizedFileURL.path)
                if mirror == root || mirror.hasPrefix(root + "/") || root.hasPrefix(mirror + "/")
                    || root == "/"
                    || mirror == "/"
                {
                    throw .usage(
                        "the mirror folder \(path) and the store's folder \(localFolder.path) overlap; "
                            + "use a mirror folder outside the store's folder (and not around it)")
                }
            }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                guard isFolder.boolValue else { throw .transport("the mirror \(path) is not a folder") }
                return []
            }
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw .transport("cannot create the mirror folder \(path): \(error.localizedDescription)")
            }
            return [.createdMirror(path)]
        }
    }

    /// Reads every replica file in the folder.
    ///
    /// - Parameter replica: The local replica.
    /// - Returns: The states and what was skipped.
    /// - Throws: ``SyncError/transport(_:)`` when the folder cannot be listed.
    public func receive(for replica: ReplicaID) async throws(SyncError) -> ReplicaInbox {
        let path = path
        let limits = limits
        let url = url
        return try await BlockingIO.run { () throws(SyncError) -> ReplicaInbox in
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path).sorted {
                    $0.utf8.lexicographicallyPrecedes($1.utf8)
                }
            } catch {
                throw .transport("cannot list the mirror folder \(path): \(error.localizedDescription)")
            }
            var inbox = ReplicaInbox()
            let ownName = replica.rawValue + ".json"
            for name in names {
                if let awaited = Self.placeholderTarget(name) {
                    if awaited != ownName {
                        Self.requestDownload(of: url.appendingPathComponent(awaited))
                        inbox.problems.append(
                            .skippedReplicaFile(awaited, "not downloaded yet; its download was requested"))
                    }
                    continue
                }
                // Hidden files, temporary files and other kinds of files are not replica files.
                guard name.hasSuffix(".json"), !name.hasPrefix(".") else { continue }
                let stem = String(name.dropLast(".json".count))
                guard let id = ReplicaID(stem) else {
                    inbox.problems.append(.skippedReplicaFile(name, "its name is not a replica id"))
                    continue
                }
                let file: ReplicaFile
                do throws(ReplicaFileError) {
                    file = try Self.read(
                        path + "/" + name, url: url.appendingPathComponent(name), limits: limits)
                } catch {
                    // A link at the own file's path is replaced when this replica publishes.
                    if id == replica, case .notAFile(let reason) = error, reason.hasSuffix("symbolic link") {
                        continue
                    }
                    inbox.problems.append(.skippedReplicaFile(name, error.description))
                    continue
                }
                guard file.state.replica == id else {
                    let claim =
                        file.state.replica == replica ? "this replica's id" : "replica \(file.state.replica)"
                    inbox.problems.append(.skippedReplicaFile(name, "its \"replica\" member claims \(claim)"))
                    continue
                }
                let received = ReplicaInbox.Received(source: name, file: file)
                if id == replica { inbox.own = received } else { inbox.others.append(received) }
            }
            return inbox
        }
    }

    /// Replaces this replica's file atomically, never through a link.
    ///
    /// - Parameter state: The state to publish.
    /// - Returns: `linkReplaced` when a link was found at the file's path.
    /// - Throws: ``SyncError/transport(_:)`` when the file cannot be written.
    public func publish(_ state: ReplicaState) async throws(SyncError) -> [SyncProblem] {
        let name = state.replica.rawValue + ".json"
        let target = url.appendingPathComponent(name)
        let data = state.jsonData()
        return try await BlockingIO.run { () throws(SyncError) -> [SyncProblem] in
            var replaced = false
            var failure: String?
            Self.coordinateWriting(target) { actual in
                do {
                    replaced = try DurableFile.withLockedFile(actual.path, links: .replace, locking: false) {
                        (file: borrowing DurableFile.LockedFile) throws(DurableFile.Failure) -> Bool in
                        try file.replace(with: data)
                        return file.replacesLink
                    }
                } catch {
                    failure = "\(error)"
                }
            }
            if let failure { throw .transport("cannot write the mirror: \(failure)") }
            return replaced ? [.linkReplaced(name)] : []
        }
    }

    // MARK: - Files

    /// Reads one replica file: a regular file, never through a link, within the limits.
    private static func read(_ path: String, url: URL, limits: ReplicaFileLimits) throws(ReplicaFileError)
        -> ReplicaFile
    {
        var outcome: Result<Data, DurableFile.Failure> = .failure(
            DurableFile.Failure("cannot read", path, "no result"))
        coordinateReading(url) { actual in
            do throws(DurableFile.Failure) {
                guard
                    let file = try DurableFile.readWithStatus(
                        actual.path, links: .replace, limit: limits.maxSize)
                else { throw DurableFile.Failure("cannot read", path, "it disappeared") }
                outcome = .success(file.data)
            } catch {
                outcome = .failure(error)
            }
        }
        switch outcome {
        case .success(let data): return try ReplicaState.read(data, limits: limits)
        case .failure(let failure):
            if failure.reason.hasPrefix("larger than") { throw .tooLarge(failure.reason) }
            if failure.reason.hasSuffix("symbolic link") || failure.reason == "not a regular file" {
                throw .notAFile(failure.reason)
            }
            throw .unreadable(failure.reason)
        }
    }

    /// The real path of a folder that may not exist yet: its deepest existing ancestor resolved,
    /// then the rest.
    private static func resolved(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path)
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var result = existing.resolvingSymlinksInPath().path
        for component in rest { result += (result.hasSuffix("/") ? "" : "/") + component }
        while result.count > 1, result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// The replica file a cloud placeholder stands for: `.<name>.json.icloud` → `<name>.json`.
    static func placeholderTarget(_ name: String) -> String? {
        guard name.hasPrefix("."), name.hasSuffix(".json.icloud") else { return nil }
        let target = String(name.dropFirst().dropLast(".icloud".count))
        return ReplicaID(String(target.dropLast(".json".count))) == nil ? nil : target
    }

    private static func requestDownload(of url: URL) {
        #if os(macOS) || os(iOS) || os(visionOS)
            try? FileManager.default.startDownloadingUbiquitousItem(at: url)
        #endif
    }

    private static func coordinateReading(_ url: URL, _ body: (URL) -> Void) {
        #if canImport(Darwin)
            var error: NSError?
            NSFileCoordinator(filePresenter: nil).coordinate(
                readingItemAt: url, options: [], error: &error, byAccessor: body)
        #else
            body(url)
        #endif
    }

    private static func coordinateWriting(_ url: URL, _ body: (URL) -> Void) {
        #if canImport(Darwin)
            var error: NSError?
            NSFileCoordinator(filePresenter: nil).coordinate(
                writingItemAt: url, options: .forReplacing, error: &error, byAccessor: body)
        #else
            body(url)
        #endif
    }
}
