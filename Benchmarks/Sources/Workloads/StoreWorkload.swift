import Foundation
import ReadingPreferences
import ReadingPreferencesStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's rows (issue 12): one edit through a store on files, paired with a bare durable
/// write of the same bytes; opening a store of 10,000 publications and resolving one, paired
/// with a bare read of that publication's file; and 10,000 coalesced edits.
///
/// A new workload's root is no replica (it never synced, and was never named or told to keep
/// history), so its edits record no change journal (Specs/Store.md §15.1); ``makeReplica()``
/// makes it one, and every edit after it is stamped and appended to its document's journal.
public final class StoreWorkload: @unchecked Sendable {
    /// The folder of the store.
    public let root: URL
    /// The store the edits go through (no coalescing: every edit is written before it returns).
    public let store: PreferencesStore<EPUB>
    /// The file the bare write replaces.
    let bareFile: String
    /// The publication resolved in the library of 10,000.
    public let publication = "urn:isbn:978-0-00000-4242"
    var toggle = false
    /// The same store on memory, for ``inMemoryEdit()``.
    let memoryStore = PreferencesStore<EPUB>(storage: InMemoryStorage())

    /// Creates a store with `publications` publication files of five keys each.
    public init(publications: Int = 0) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("rp-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        store = PreferencesStore<EPUB>(storage: FileStorage(root: root))
        bareFile = root.appendingPathComponent("bare.json").path
        let storage = FileStorage(root: root)
        publicationPath = storage.path(of: .layer(configurable: "epub", .publication(publication)))
        let folder = URL(fileURLWithPath: storage.path(of: .layer(configurable: "epub", .publication("x"))))
            .deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<publications {
            let id = String(format: "urn:isbn:978-0-00000-%04d", index)
            let json =
                "{\n  \"readingProgression\": \"rtl\",\n  \"language\": \"ar\",\n  \"spread\": \"never\",\n"
                + "  \"fontSize\": 1.\(index % 9 + 1),\n  \"theme\": \"sepia\",\n  \"$id\": \"\(id)\"\n}\n"
            let path = storage.path(of: .layer(configurable: "epub", .publication(id)))
            try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        }
        try Data("{\n  \"fontSize\": 1.2\n}\n".utf8).write(to: URL(fileURLWithPath: bareFile))
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The publication file's path, computed once: the bare read it is paired with does I/O only
    /// (until round four it asked the library for the path on every call, which put the store's
    /// own path and safe-name work into the baseline and flattered the ratio).
    public let publicationPath: String

    /// Makes the root a replica (`store.device.keepHistory()`): it takes a replica id and a
    /// replica clock, and every edit after this one is stamped and appended to its document's
    /// change journal (Specs/Store.md §15.1, §15.3).
    public func makeReplica() async throws {
        try await store.device.keepHistory()
        guard FileManager.default.fileExists(atPath: hiddenPath + "/clock.json") else {
            throw WorkloadError("\(root.path) is no replica after keepHistory()")
        }
    }

    /// The root's hidden folder, where the store keeps its own files (Specs/Store.md §5.1).
    var hiddenPath: String { root.path + "/.readingprefs" }

    /// The size of the change journal of shared (`.readingprefs/epub/shared.json.journal`), or
    /// `nil` when there is none: what tells the two kinds of root apart.
    public var sharedJournalBytes: Int? {
        let relative = String(
            FileStorage(root: root).path(of: .layer(configurable: "epub", .shared)).dropFirst(
                root.path.utf8.count))
        let attributes = try? FileManager.default.attributesOfItem(atPath: hiddenPath + relative + ".journal")
        return (attributes?[.size] as? NSNumber)?.intValue
    }

    /// One edit through the store: the font size, alternately 1.2 and 1.4 (so every edit writes).
    /// On a replica the edit is also stamped and journalled.
    public func storeEdit() async throws {
        toggle.toggle()
        let size = toggle ? 1.4 : 1.2
        try await store.edit { editor in try editor.set(.fontSize, size) }
    }

    /// Fills shared's journal until it reaches its byte bound and is compacted (Specs/Store.md
    /// §15.4), with writes of 100 keys of an app's own, all made now: from then on the journal
    /// grows from three quarters of the bound back to it, and is compacted again, over and over,
    /// as a journal at its bound does. (It used to wait for the size to come within 4 KiB of the
    /// bound, which a compaction to three quarters made a window the 100-key writes jump over.)
    public func fillSharedJournal() async throws {
        var round = 0
        var largest = 0
        while true {
            round += 1
            var values: [String: JSONValue?] = [:]
            for key in 0..<100 { values[String(format: "appSetting%03d", key)] = .number(JSONNumber(round)) }
            try await store.write(values, to: .shared)
            let size = sharedJournalBytes ?? 0
            // Smaller than before: the append passed the bound and the journal was compacted.
            if size < largest, largest > JournalBounds.standard.compactedBytes { return }
            largest = max(largest, size)
            guard round < 1_000 else { throw WorkloadError("the journal of shared is never compacted") }
        }
    }

    /// Checks that edits journal exactly as the root's kind says: nothing on a root that is no
    /// replica, one line per edit on a replica (so a row measures what its name says).
    public func verifyJournal(replica: Bool) async throws {
        let before = try await store.history.entries(in: .shared, key: "fontSize").count
        try await storeEdit()
        try await storeEdit()
        let after = try await store.history.entries(in: .shared, key: "fontSize").count
        guard replica ? after == before + 2 : sharedJournalBytes == nil else {
            throw WorkloadError(
                replica
                    ? "a replica journalled \(after - before) of 2 edits"
                    : "a root that is no replica journalled \(sharedJournalBytes ?? 0) bytes")
        }
    }

    /// The bytes the store writes for that edit.
    public var editBytes: Data { Data("{\n  \"fontSize\": 1.4\n}\n".utf8) }

    /// The book the two-document edits change.
    static let editedBook = "urn:isbn:978-0-00000-edit"

    /// One edit of two documents through the store, as one batch: the font size in shared and
    /// the reading progression in the book's document, alternately, so every edit writes both.
    /// With `conditional`, the edit carries the ETag read just before (a server's `If-Match`).
    public func storeEditOfTwoDocuments(conditional: Bool = false) async throws {
        toggle.toggle()
        let size = toggle ? 1.4 : 1.2
        let progression: EPUB.ReadingProgression = toggle ? .rtl : .ltr
        let etag = conditional ? try await store.fingerprints(for: Self.editedBook).storedETag : nil
        try await store.edit(publication: Self.editedBook, ifMatch: etag) { editor in
            try editor.set(.fontSize, size)
            try editor.set(.readingProgression, progression)
        }
    }

    /// Waits a millisecond, untimed, between batches of edits and bare writes: a store on files
    /// closes the file a save replaced after it answers (freeing its space then, on the
    /// blocking thread, Specs/Store.md §6.3), and the pause keeps that work of the last edit of a
    /// batch out of the bare writes timed next, so neither side is timed with the other's
    /// leftovers. Edits within a batch still follow each other at once, as an app's do.
    public static func settle() async {
        try? await Task.sleep(nanoseconds: 1_000_000)
    }

    /// A bare durable write of `bytes`, to the bare file or (`second`) another beside it: an
    /// exclusive flock on a lock file, a temporary file written and flushed, renamed over the
    /// target, the folder flushed, the lock released.
    public func bareDurableWrite(_ bytes: Data, second: Bool = false) {
        let bareFile = second ? self.bareFile + ".2" : self.bareFile
        let lock = open(bareFile + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        flock(lock, LOCK_EX)
        let temporary = bareFile + ".tmp"
        let file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        fsync(file)
        close(file)
        rename(temporary, bareFile)
        let folder = open(root.path, O_RDONLY | O_CLOEXEC)
        fsync(folder)
        close(folder)
        flock(lock, LOCK_UN)
        close(lock)
    }

    /// Opens a new store on the library and resolves the publication: what an app does when a
    /// book opens.
    public func openAndResolve() async throws -> Int {
        let store = PreferencesStore<EPUB>(storage: FileStorage(root: root))
        let settings = try await store.resolvedSettings(
            for: publication, context: PublicationContext(languages: ["ar"]))
        return settings[.fontSize] == nil ? 0 : 1
    }

    /// A bare durable read of the publication's file: the bytes and the version they are (open,
    /// `fstat`, read to the end, close), what any read that a later save can check against
    /// needs, with no layers, no decoding and no resolution.
    public func bareRead() -> Int {
        let file = open(publicationPath, O_RDONLY | O_CLOEXEC)
        var status = stat()
        fstat(file, &status)
        var buffer = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes {
                read(file, $0.baseAddress.map { $0 + total }, $0.count - total)
            }
            if count <= 0 { break }
            total += count
            if total == buffer.count { buffer.append(contentsOf: repeatElement(0, count: 4096)) }
        }
        close(file)
        return total + Int(status.st_ino % 2)
    }

    /// 10,000 edits through a store with coalescing on, then `flush()`: returns the number of
    /// saves the storage saw and whether the last value was stored.
    public static func coalescedEdits(count: Int = 10_000) async throws -> (saves: Int, kept: Bool) {
        let workload = try StoreWorkload()
        let storage = CountingStorage(FileStorage(root: workload.root))
        let store = PreferencesStore<EPUB>(storage: storage, options: .init(coalescesWrites: true))
        for index in 0..<count {
            let size = 0.5 + Double(index % 400) / 100
            try await store.edit { editor in try editor.set(.fontSize, size) }
        }
        try await store.flush()
        let stored = try await PreferencesStore<EPUB>(storage: FileStorage(root: workload.root)).preferences()
        let last = 0.5 + Double((count - 1) % 400) / 100
        return (await storage.saves, stored["fontSize"]?.numberValue?.doubleValue == last)
    }
}

/// Times two async operations alternately, block by block, so a change of machine speed
/// cannot bias their ratio (the async sibling of ``PairedTimer``).
public struct AsyncPairedTimer {
    /// Total nanoseconds spent in the baseline.
    public private(set) var baselineNanoseconds: UInt64 = 0
    /// Total nanoseconds spent in the operation.
    public private(set) var operationNanoseconds: UInt64 = 0
    /// Calls made of each.
    public private(set) var calls = 0

    /// Creates a timer with nothing accumulated.
    public init() {}

    /// Runs `rounds` rounds of `batch` calls of each, swapping which goes first every round;
    /// `settle` runs, untimed, before every batch.
    public mutating func measure(
        rounds: Int, batch: Int, settle: () async -> Void = {}, baseline: () async throws -> Void,
        operation: () async throws -> Void
    ) async rethrows {
        for round in 0..<rounds {
            for first in [round % 2 == 0, round % 2 != 0] {
                await settle()
                let start = monotonicNanoseconds()
                for _ in 0..<batch {
                    if first { try await baseline() } else { try await operation() }
                }
                let elapsed = monotonicNanoseconds() - start
                if first { baselineNanoseconds += elapsed } else { operationNanoseconds += elapsed }
            }
            calls += batch
        }
    }

    /// The operation's time over the baseline's.
    public var ratio: Double { Double(operationNanoseconds) / Double(max(baselineNanoseconds, 1)) }
    /// Nanoseconds per baseline call.
    public var baselinePerCall: Double { Double(baselineNanoseconds) / Double(max(calls, 1)) }
    /// Nanoseconds per operation call.
    public var operationPerCall: Double { Double(operationNanoseconds) / Double(max(calls, 1)) }
}

/// A storage that counts saves.
actor CountingStorage: PreferencesStorage {
    let base: any PreferencesStorage
    private(set) var saves = 0

    init(_ base: any PreferencesStorage) { self.base = base }

    func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        try await base.load(location)
    }

    func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        for change in changes {
            if case .save = change.action { saves += 1 }
        }
        return try await base.commit(changes)
    }

    func quarantine(_ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?)
        async throws(StorageError) -> Quarantine
    {
        try await base.quarantine(location, expecting: version, replacement: replacement)
    }

    func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError) -> [String]
    {
        try await base.names(of: kind, configurable: configurable, after: after, limit: limit)
    }

    func configurables() async throws(StorageError) -> [String] {
        try await base.configurables()
    }
}
