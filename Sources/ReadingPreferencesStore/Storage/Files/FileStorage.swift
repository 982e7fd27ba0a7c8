import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Preferences as plain JSON files that a person can read and edit (Specs/Store.md §5), in the layout
/// `FileLayout` describes:
///
/// ```text
/// <root>/<configurable>/shared.json
/// <root>/<configurable>/profiles/<id>.json            "$name": the display name
/// <root>/<configurable>/publications/<safe-name>.json "$id": the publication's identifier
/// <root>/<configurable>/overrides.json
/// <root>/.readingprefs/                               the store's own files: this device's state,
///                                                     sync's, the journals and the locks
/// ```
///
/// Every write is `DurableFile`'s, following links: a temporary file flushed and renamed over
/// the old one under an exclusive lock on a lock file kept in the hidden folder, so a crash leaves the old file
/// or the new one and two processes never lose each other's updates. Files are pretty-printed
/// with a trailing newline. A document's version is a digest of its bytes, so any change, even
/// one that keeps the file's size and time, is a new version. Data that is not a JSON object is
/// reported by ``load(_:)`` and kept aside by ``quarantine(_:expecting:replacement:)`` with a
/// `.corrupt-<milliseconds>` suffix, never silently replaced. Reading one publication reads that
/// file alone; writes, which wait for locks and flush the disk, run off Swift's cooperative
/// thread pool.
public struct FileStorage: PreferencesStorage {
    /// The root folder.
    public let root: URL
    /// The folder layout under the root.
    let layout: FileLayout
    /// Failures a test armed, struck before each file written.
    package let faults: StorageFaultPlan?

    /// Creates a storage rooted at a folder (created on the first write).
    ///
    /// - Parameter root: The root folder.
    public init(root: URL) {
        self.init(root: root, faults: nil)
    }

    /// Creates a storage whose writes a test can make fail.
    package init(root: URL, faults: StorageFaultPlan?) {
        self.root = root
        var path = Self.path(of: root)
        while path.utf8.count > 1, path.hasSuffix("/") { path.removeLast() }
        layout = FileLayout(rootPath: path)
        self.faults = faults
    }

    /// A folder's path. The percent-encoded path is several times cheaper to get (and a store is
    /// often made for one read), and is the same text when it has no escapes.
    private static func path(of folder: URL) -> String {
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            let encoded = folder.path(percentEncoded: true)
            if !encoded.utf8.contains(UInt8(ascii: "%")) { return encoded }
        }
        return folder.path
    }

    /// The file of a location.
    ///
    /// - Parameter location: The location.
    /// - Returns: The file's path.
    public func path(of location: StorageLocation) -> String {
        layout.path(of: location)
    }

    /// The root's path: stores on the same root hear each other's syncs.
    public var identity: String? { layout.rootPath }

    /// The root folder, which a sync mirror must not overlap.
    public var folder: URL? { root }

    // MARK: - Reading

    /// Loads a document.
    ///
    /// - Parameter location: Where it lives.
    /// - Returns: The document, or `nil` when the file does not exist.
    /// - Throws: ``StorageError``: ``StorageError/Code/corruptDocument`` (with the damaged
    ///   data's version) when the file is not a JSON object, ``StorageError/Code/io`` when it
    ///   cannot be read or is not a regular file.
    public func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        try location.checked()
        LayoutMigration.ensure(layout)
        let batch = FileBatch(layout: layout, faults: nil)
        if batch.mayHavePendingRecord {
            // A batch is being written, or was cut short by a crash: wait for it, or finish it.
            await BlockingIO.run { () throws(Never) in batch.recover() }
        }
        try faults?.read(location)
        let path = path(of: location)
        let file: (data: Data, status: stat)?
        do throws(DurableFile.Failure) { file = try DurableFile.readWithStatus(path) } catch {
            throw Self.io(error, location)
        }
        guard let file else { return nil }
        return try Self.document(file.data, at: location, path: path)
    }

    /// Decodes a file's bytes; `$id` is the layout's, not the document's.
    private static func document(_ data: Data, at location: StorageLocation, path: String)
        throws(StorageError)
        -> StoredDocument
    {
        var preferences: Preferences
        do throws(JSONDecodingError) {
            preferences = try Preferences(json: data, options: Self.parsingOptions(for: location))
        } catch {
            throw StorageError(
                .corruptDocument, location: location,
                message: "\(path) is not a JSON object (\(error.description))",
                version: ContentVersion.of(data))
        }
        if FileLayout.identifier(of: location) != nil { preferences.removeValue(forKey: "$id") }
        return StoredDocument(preferences: preferences, version: ContentVersion.of(data))
    }

    // MARK: - Writing

    /// Applies a batch of changes under the files' locks, all or none (see `FileBatch`: a crash
    /// leaves each file old or new, and a committed batch is finished by the next write).
    ///
    /// - Parameter changes: The changes.
    /// - Returns: One version per change.
    /// - Throws: ``StorageError``: ``StorageError/Code/conflict`` when a file is not at its
    ///   expected version, ``StorageError/Code/io`` when a file cannot be written; nothing is
    ///   changed then.
    public func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        try DocumentChange.check(changes)
        guard !changes.isEmpty else { return [] }
        LayoutMigration.ensure(layout)
        let replaced = ReplacedFiles()
        let batch = FileBatch(layout: layout, faults: faults, replaced: replaced)
        let layout = layout
        // The entries are encoded while a blocking-I/O thread wakes to write them; the files the
        // batch replaced are closed once the caller is answered.
        return try await BlockingIO.run(preparing: {
            changes.map { change -> FileBatch.Entry in
                var bytes: Data?
                if case .save(let preferences) = change.action {
                    bytes = self.bytes(of: preferences, at: change.location)
                }
                return FileBatch.Entry(
                    location: change.location, path: path(of: change.location), action: change.action,
                    bytes: bytes, expected: change.expected, flushes: change.flushes,
                    journal: change.location.isLayer ? change.journal : [])
            }
        }) { (entries: [FileBatch.Entry]) throws(StorageError) -> [StorageVersion?] in
            for entry in entries where entry.bytes != nil {
                try Self.markFolder(of: entry.location, layout: layout)
            }
            return try batch.run(entries)
        } afterwards: {
            replaced.closeAll()
        }
    }

    /// Copies damaged data to `<file>.corrupt-<milliseconds>` and puts `replacement` (or nothing)
    /// in its place, under the file's lock.
    ///
    /// - Parameters:
    ///   - location: Where the damaged data is.
    ///   - version: Its version.
    ///   - replacement: What the file holds afterwards, or `nil` to remove it.
    /// - Returns: The copy's path and the replacement's version.
    /// - Throws: ``StorageError``.
    public func quarantine(
        _ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?
    ) async throws(StorageError) -> Quarantine {
        try location.checked()
        LayoutMigration.ensure(layout)
        let path = path(of: location)
        let bytes = replacement.map { self.bytes(of: $0, at: location) }
        let batch = FileBatch(layout: layout, faults: faults)
        let locks = layout.locks
        return try await BlockingIO.run { () throws(StorageError) -> Quarantine in
            batch.recover()
            try batch.faults?.step(location)
            return try Self.locked(path, location, locks) {
                (file: borrowing DurableFile.LockedFile) throws(StorageError) in
                guard file.existing.map({ ContentVersion.of($0.data) }) == version else {
                    throw StorageError.conflict(location)
                }
                do throws(DurableFile.Failure) {
                    let stamp = Milliseconds.now()
                    var aside: String?
                    for attempt in 0..<100 where aside == nil {
                        do throws(DurableFile.Failure) {
                            aside = try file.keepCopy(
                                suffix: ".corrupt-\(stamp)" + (attempt == 0 ? "" : "-\(attempt)"))
                        } catch {
                            if attempt == 99 { throw error }
                        }
                    }
                    if let bytes { try file.replace(with: bytes) } else { try file.remove() }
                    return Quarantine(movedTo: aside ?? path, version: bytes.map(ContentVersion.of))
                } catch {
                    throw Self.io(error, location)
                }
            }
        }
    }

    /// The one file format: a publication's identifier first in `$id`, a trailing newline, and
    /// pretty-printed for the documents people read and edit; the sync snapshots and state,
    /// which only sync reads, are compact (a snapshot of 100,000 keys is a third the size).
    func bytes(of preferences: Preferences, at location: StorageLocation) -> Data {
        var document = preferences
        if let identifier = FileLayout.identifier(of: location) {
            document.removeValue(forKey: "$id")
            document = Preferences(
                members: [JSONObject.Member(key: "$id", value: .string(identifier))] + document.members)
        }
        var bytes = document.jsonBytes(options: .init(prettyPrinted: !Self.isSyncRecord(location)))
        bytes.append(0x0A)
        return Data(bytes)
    }

    /// Whether a location holds sync's own records rather than a document people edit.
    private static func isSyncRecord(_ location: StorageLocation) -> Bool {
        switch location {
        case .syncSnapshot, .syncState, .syncLease, .replicaClock: return true
        case .layer, .device: return false
        }
    }

    /// The limits a document is read with: those of Specs/Preferences.md §2.10 for documents; sync's records hold a stamp
    /// per key and per known replica, so they may be larger (a replica file may be 64 MiB).
    private static func parsingOptions(for location: StorageLocation) -> JSONParsingOptions {
        // A sidecar holds a value three levels down (sidecar, entries, entry): the same values a
        // document holds one level down.
        isSyncRecord(location)
            ? JSONParsingOptions(maxDepth: 3 + SyncEntry.maximumValueDepth, maxSize: 256 << 20)
            : JSONParsingOptions()
    }

    // MARK: - Listing

    /// A page of the identifiers of a configurable's profiles or publications with a file of
    /// `kind`: read from the file names, and from the `$id` at the start of the files whose names
    /// do not say it.
    ///
    /// - Parameters:
    ///   - kind: Which files to list.
    ///   - configurable: The configurable.
    ///   - after: Only identifiers after this one; `nil` from the start.
    ///   - limit: The most to return; `nil` for all.
    /// - Returns: The identifiers, sorted by their UTF-8 bytes.
    /// - Throws: ``StorageError`` when the folder cannot be listed.
    public func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError) -> [String]
    {
        try StorageLocation.checkConfigurable(configurable)
        try faults?.read(nil)
        LayoutMigration.ensure(layout)
        let layout = layout
        return try await BlockingIO.run { () throws(StorageError) in
            StorageKind.page(
                try layout.names(of: kind, configurable: configurable), after: after, limit: limit)
        }
    }

    /// The configurables with a folder under the root.
    ///
    /// - Returns: Their identifiers, sorted by their UTF-8 bytes.
    /// - Throws: ``StorageError`` when the root cannot be listed.
    public func configurables() async throws(StorageError) -> [String] {
        try faults?.read(nil)
        LayoutMigration.ensure(layout)
        let layout = layout
        return try await BlockingIO.run { () throws(StorageError) in try layout.configurables() }
    }

    /// Removes the temporary files killed runs left under the root and in its hidden folder.
    ///
    /// - Returns: The number of files removed.
    @discardableResult
    public func removeLeftovers() -> Int {
        LayoutMigration.ensure(layout)
        let batch = FileBatch(layout: layout, faults: nil)
        batch.recover()
        batch.removeStalePartials()
        var removed = 0
        var folders = [layout.rootPath]
        while let folder = folders.popLast() {
            removed += DurableFile.removeLeftovers(in: folder, placement: layout.locks)
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for entry in entries {
                var info = stat()
                let path = folder + "/" + entry
                if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { folders.append(path) }
                // A batch's prepared file, whose batch never reached its commit point (the
                // committed ones were finished above): removed under its target's lock.
                if FileBatch.isPrepared(entry), let range = entry.range(of: ".txn-", options: .backwards) {
                    let target =
                        folder + "/" + String(entry[entry.index(after: entry.startIndex)..<range.lowerBound])
                    guard let lock = try? DurableFile.acquireLock(for: target, placement: layout.locks) else {
                        continue
                    }
                    // Unless a record names its batch (a batch cut short after the sweep above
                    // began): the next read or write of its files finishes or drops it, and
                    // removing one of its prepared files would tear it.
                    let record = layout.batchesPath + "/" + entry[range.upperBound...] + ".json"
                    if access(record, F_OK) != 0, unlink(path) == 0 { removed += 1 }
                    DurableFile.releaseLock(lock)
                }
            }
        }
        return removed
    }

    /// Removes every document under the root, sync's records and the device document included,
    /// then the folders left empty (and their lock files): for a reset or an account's deletion.
    /// Damaged data set aside earlier (`.corrupt-` files) is removed as well. Another process
    /// writing during the removal may keep its document.
    ///
    /// - Throws: ``StorageError``.
    public func removeAll() async throws(StorageError) {
        try await removeEveryDocument()
        let layout = layout
        await BlockingIO.run { () throws(Never) in Self.removeEmptied(layout.rootPath) }
    }

    /// Removes what is left in a folder once its documents are gone: lock files, a configurable's
    /// marker, damaged data set aside, the journals and the replica clock, and the folders that
    /// then are empty.
    private static func removeEmptied(_ folder: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for entry in entries {
            let path = folder + "/" + entry
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                removeEmptied(path)
                _ = rmdir(path)
            } else if entry.hasSuffix(DurableFile.lockSuffix) || entry == FileLayout.configurableMarker
                || entry.contains(".corrupt-") || DurableFile.isTemporary(entry)
                || entry.hasSuffix(FileLayout.journalSuffix) || entry == "clock.json"
                || FileBatch.isPrepared(entry)
            {
                _ = unlink(path)
            }
        }
    }
}
