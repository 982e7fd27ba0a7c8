import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The replica clock of a file storage (Specs/Sync.md §8): `clock.json` in the store's hidden
/// folder, `{"replica", "time", "counter"}`, read and rewritten in place under an exclusive
/// `flock` on the file itself (it is never renamed), never flushed. Every stamp the replica makes,
/// an edit's in any process or a sync's, is ticked from it, so a stamp is above every stamp made
/// before it on this device, in any document. A store without one has no replica identity yet,
/// unless its sync state has one (a root from before the clock file, or whose clock was lost),
/// from which the clock starts again.
enum ReplicaClockFile {
    /// Runs `body` with the clock under its lock, and keeps what `body` leaves.
    static func update<Result>(
        _ layout: FileLayout, _ body: (inout HybridClock?) throws -> Result
    ) throws -> Result {
        let path = layout.clockPath
        var descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0, errno == ENOENT {
            // No clock yet: a sync state's clock, when the replica has one; else none.
            var clock = fromSyncState(layout)
            let result = try body(&clock)
            guard let clock else { return result }
            try? FileManager.default.createDirectory(
                atPath: layout.hiddenPath, withIntermediateDirectories: true)
            descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw DurableFile.Failure.system("cannot create", path) }
            defer { close(descriptor) }
            try lock(descriptor, path)
            // Another process may have made it meanwhile: keep the later of the two.
            var merged = read(descriptor) ?? clock
            if merged.replica == clock.replica { merged.observe(clock.last) } else { merged = clock }
            try write(merged, to: descriptor, path)
            return result
        }
        guard descriptor >= 0 else { throw DurableFile.Failure.system("cannot open", path) }
        defer { close(descriptor) }
        try lock(descriptor, path)
        let stored = read(descriptor) ?? fromSyncState(layout)
        var clock = stored
        let result = try body(&clock)
        if let clock, clock != stored { try write(clock, to: descriptor, path) }
        return result
    }

    /// Whether the storage has a replica identity: a clock, or a sync state.
    static func exists(_ layout: FileLayout) -> Bool {
        access(layout.clockPath, F_OK) == 0 || access(layout.syncStatePath, F_OK) == 0
    }

    private static func lock(_ descriptor: Int32, _ path: String) throws(DurableFile.Failure) {
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .system("cannot lock", path) }
        }
    }

    private static func read(_ descriptor: Int32) -> HybridClock? {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0, let document = try? Preferences(json: Data(buffer[0..<count])) else { return nil }
        return HybridClock(document: document)
    }

    private static func write(_ clock: HybridClock, to descriptor: Int32, _ path: String) throws(DurableFile
        .Failure)
    {
        let bytes = Self.bytes(of: clock)
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count, ftruncate(descriptor, off_t(bytes.count)) == 0 else {
            throw .system("cannot write", path)
        }
    }

    /// The file's contents: the clock's document (``HybridClock/document``), compact, and a
    /// newline.
    static func bytes(of clock: HybridClock) -> Data {
        var bytes = clock.document.jsonData(options: .init(prettyPrinted: false))
        bytes.append(0x0A)
        return bytes
    }

    private static func fromSyncState(_ layout: FileLayout) -> HybridClock? {
        guard let file = try? DurableFile.readWithStatus(layout.path(of: .syncState), limit: 256 << 20),
            let document = try? Preferences(json: file.data, options: JSONParsingOptions(maxSize: 256 << 20)),
            let state = try? SyncState(document: document)
        else { return nil }
        return state.clock
    }
}
