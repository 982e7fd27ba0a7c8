import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Moves a root written before the hidden folder (Specs/Store.md §5.7) to the current layout, once,
/// the first time a process uses it: this device's state, sync's state and lease move into
/// `.readingprefs`, each document's sidecar moves to the same relative path there (with the
/// pending stamps appended beside it folded in), and the lock files beside the documents go. A
/// root with none of these files (a folder of documents written by hand, or a new one) is left
/// as it is.
///
/// The move is made in `.readingprefs.migrating` and renamed into place last, under a lock on
/// the root folder itself, so a crash part way leaves a folder the next process finishes, and
/// two processes never migrate at once. A batch cut short by a crash before the move is finished
/// first.
enum LayoutMigration {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var checked: Set<String> = []

    /// Migrates the root if this process has not looked at it yet.
    static func ensure(_ layout: FileLayout) {
        guard !lock.withLock({ checked.contains(layout.rootPath) }) else { return }
        migrate(layout)
        lock.withLock { _ = checked.insert(layout.rootPath) }
    }

    /// The names at the root that the old layout kept there.
    private static let rootFiles = ["device.json", "replica.json", "sync-lease.json"]

    private static func migrate(_ layout: FileLayout) {
        let root = layout.rootPath
        guard access(layout.hiddenPath, F_OK) != 0 else { return }
        let staging = layout.hiddenPath + ".migrating"
        guard access(staging, F_OK) == 0 || hasOldFiles(root) else { return }
        let folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        defer { close(folder) }
        while flock(folder, LOCK_EX) != 0 { guard errno == EINTR else { return } }
        defer { _ = flock(folder, LOCK_UN) }
        // Another process may have done it while this one waited.
        guard access(layout.hiddenPath, F_OK) != 0 else { return }
        try? FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        recoverOldBatches(layout)
        for name in rootFiles where access(root + "/" + name, F_OK) == 0 {
            _ = rename(root + "/" + name, staging + "/" + name)
            _ = unlink(root + "/" + name + DurableFile.lockSuffix)
        }
        var clock = stagedClock(staging)
        for configurable in subfolders(root) {
            for sub in ["", "/profiles", "/publications"] {
                move(
                    from: root + "/" + configurable + sub, to: staging + "/" + configurable + sub,
                    clock: &clock)
            }
        }
        if let clock { writeClock(clock, staging + "/clock.json") }
        _ = rename(staging, layout.hiddenPath)
        DurableFile.flushFolder(of: layout.hiddenPath)
    }

    /// Whether the root holds a file of the old layout: its own state at the root, a finished or
    /// pending batch's folder, or a lock file or sidecar beside a document.
    private static func hasOldFiles(_ root: String) -> Bool {
        if rootFiles.contains(where: { access(root + "/" + $0, F_OK) == 0 }) { return true }
        if access(root + "/.transactions", F_OK) == 0 { return true }
        for configurable in subfolders(root) {
            for sub in ["", "/profiles", "/publications"] {
                let names =
                    (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + configurable + sub))
                    ?? []
                if names.contains(where: isOldCompanion) { return true }
            }
        }
        return false
    }

    private static func isOldCompanion(_ name: String) -> Bool {
        name.hasSuffix(".json" + DurableFile.lockSuffix) || name.hasSuffix(FileLayout.snapshotSuffix)
            || name.hasSuffix(FileLayout.snapshotSuffix + ".pending")
            || name.hasSuffix(FileLayout.snapshotSuffix + DurableFile.lockSuffix)
    }

    private static func subfolders(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { name in
            var info = stat()
            return !name.hasPrefix(".") && lstat(path + "/" + name, &info) == 0
                && info.st_mode & S_IFMT == S_IFDIR
        }
    }

    /// Moves one folder's sidecars into the staging folder (their appended pending stamps folded
    /// in) and removes its lock files.
    private static func move(from folder: String, to destination: String, clock: inout HybridClock?) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where isOldCompanion(name) {
            let path = folder + "/" + name
            if name.hasSuffix(DurableFile.lockSuffix) || name.hasSuffix(".pending") {
                if !name.hasSuffix(".pending") { _ = unlink(path) }
                continue
            }
            try? FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
            var sidecar = (try? DurableFile.readWithStatus(path, limit: 256 << 20))?.data
            let appendix = path + ".pending"
            if let records = try? DurableFile.readWithStatus(appendix, limit: 16 << 20)?.data,
                let data = sidecar,
                let document = try? Preferences(json: data, options: JSONParsingOptions(maxSize: 256 << 20)),
                var parsed = try? SyncSnapshot.sidecar(of: document)
            {
                let lines = FileJournal.Lines(records)
                let appended = lines.ranges.compactMap { try? Preferences(json: records[$0]) }
                SyncSnapshot.merge(records: appended, into: &parsed.pending)
                var bytes = SyncSnapshot.document(parsed).jsonBytes(options: .init(prettyPrinted: false))
                if let id = document["$id"]?.stringValue {
                    var withID = Preferences(members: [JSONObject.Member(key: "$id", value: .string(id))])
                    withID.merge(SyncSnapshot.document(parsed))
                    bytes = withID.jsonBytes(options: .init(prettyPrinted: false))
                }
                bytes.append(0x0A)
                sidecar = Data(bytes)
                for (_, entry) in parsed.pending.entries { observe(entry.stamp, &clock) }
            }
            if let sidecar,
                (try? DurableFile.writeNew(sidecar, to: destination + "/" + name, like: nil)) != nil
            {
                _ = unlink(path)
                _ = unlink(appendix)
            }
        }
    }

    private static func observe(_ stamp: SyncStamp, _ clock: inout HybridClock?) {
        guard var current = clock else { return }
        current.observe(stamp)
        clock = current
    }

    private static func stagedClock(_ staging: String) -> HybridClock? {
        guard let file = try? DurableFile.readWithStatus(staging + "/replica.json", limit: 256 << 20),
            let document = try? Preferences(json: file.data, options: JSONParsingOptions(maxSize: 256 << 20)),
            let state = try? SyncState(document: document)
        else { return nil }
        return state.clock
    }

    private static func writeClock(_ clock: HybridClock, _ path: String) {
        _ = try? DurableFile.writeNew(ReplicaClockFile.bytes(of: clock), to: path, like: nil)
    }

    /// Finishes the batches the old layout's `.transactions` folder still records.
    private static func recoverOldBatches(_ layout: FileLayout) {
        let old = layout.rootPath + "/.transactions"
        guard access(old, F_OK) == 0 else { return }
        FileBatch(layout: layout, faults: nil, recordsFolder: old, locks: .beside).recover()
        _ = rmdir(old)
    }
}
