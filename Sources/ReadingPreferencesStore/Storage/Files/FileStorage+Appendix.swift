import Foundation
import ReadingPreferences

// A document's *appendix*: small records appended beside it (`<file>.pending`), one compact
// JSON object per line, never flushed, read in order, and dropped whenever the document itself
// is written or removed. The store keeps an edit's pending sync stamps there (Specs/Sync.md
// §5.4): appending to a file costs no flush, while renaming a new file over an existing one
// makes ext4 flush it (about 0.35 ms, measured), which would cost an edit a second durable
// write. A record lost in a crash, torn at the end, or dropped by a concurrent write of the
// document only makes an edit younger.

extension FileLayout {
    /// The suffix of a document's appendix.
    static let appendixSuffix = ".pending"

    /// The most records an appendix takes before its owner folds them into the document.
    static let appendixLimit = 64
}

/// What a file storage knows of a document and its appendix after it appended to it: while
/// both files are still exactly as it left them (same file, size and change time), the next
/// append need not read them again.
package struct AppendixMark: Sendable, Equatable {
    fileprivate var document: FileIdentity?
    fileprivate var appendix: FileIdentity?
    fileprivate var count: Int
}

/// What an append finds beside a document.
package enum AppendixState {
    /// Both files are as the caller's ``AppendixMark`` left them.
    case unchanged
    /// The stored document (`nil`: absent) and the records appended since it was written: the
    /// last one when it parses (each append saw those before it), else all that parse.
    case read(document: Preferences?, records: ArraySlice<Preferences>)
}

/// What ``FileStorage/appendRecord(beside:reading:since:_:)`` did.
package enum AppendOutcome: Sendable {
    /// A record was appended; the mark to pass next time.
    case appended(AppendixMark)
    /// The caller's function gave no record.
    case nothing
    /// It could not be done so: the caller writes the document instead (the appendix is full,
    /// the document is damaged, a batch may be pending, faults are planned, or the folder is
    /// missing).
    case unavailable
}

extension FileStorage {
    /// Appends a record to a document's appendix under the document's lock, without flushing.
    ///
    /// - Parameters:
    ///   - location: The document.
    ///   - other: Another document read in the same step, before the lock is taken.
    ///   - mark: What the caller's last append here left, if any.
    ///   - make: The record from what the append finds and the other document (`nil`: absent
    ///     or unreadable); `nil` appends nothing.
    /// - Returns: What it did.
    /// - Throws: What `make` throws, or ``StorageError`` when the appendix cannot be written.
    package func appendRecord(
        beside location: StorageLocation, reading other: StorageLocation, since mark: AppendixMark?,
        _ make: @escaping @Sendable (AppendixState, Preferences?) throws -> Preferences?
    ) async throws -> AppendOutcome {
        try location.checked()
        let batch = FileBatch(layout: layout, faults: nil)
        guard faults == nil, !batch.mayHavePendingJournal else { return .unavailable }
        let path = path(of: location)
        let otherPath = self.path(of: other)
        // On the caller's thread when nothing changed since this store's last append: two
        // `stat`s, a lock that does not wait, the lease and one append, all in the page cache (a
        // trip to the blocking-I/O threads costs more than that work). Anything else (reading
        // and parsing the sidecar and the appendix) runs on the blocking-I/O threads.
        if mark != nil,
            let done = try Self.append(beside: path, location, otherPath, mark, onCallersThread: true, make)
        {
            return done
        }
        return try await BlockingIO.run { () throws -> AppendOutcome in
            try Self.append(beside: path, location, otherPath, mark, onCallersThread: false, make)
                ?? .unavailable
        }
    }

    /// ``appendRecord(beside:reading:since:_:)``'s step. On the caller's thread it neither
    /// waits for the lock nor reads more than the lease: `nil` when the lock is busy or the
    /// files changed since `mark`.
    private static func append(
        beside path: String, _ location: StorageLocation, _ otherPath: String, _ mark: AppendixMark?,
        onCallersThread: Bool, _ make: (AppendixState, Preferences?) throws -> Preferences?
    ) throws -> AppendOutcome? {
        let target: String
        let lock: Int32
        do {
            target = try DurableFile.resolveLinks(path)
            lock = try DurableFile.acquireLock(for: target, waits: !onCallersThread)
        } catch {
            // Busy, or no folder yet, or a lock that cannot be taken: the general way says why.
            return error.isBusy ? nil : .unavailable
        }
        defer { DurableFile.releaseLock(lock) }
        let appendix = appendixPath(ofResolved: target)
        let document = FileIdentity(of: target)
        let unchanged =
            mark.map { $0.document == document && $0.appendix == FileIdentity(of: appendix) } ?? false
        if onCallersThread, !unchanged { return nil }
        let other = (try? DurableFile.readWithStatus(otherPath, limit: 1 << 20))?.flatMap {
            try? Preferences(json: $0.data)
        }
        let state: AppendixState
        var count: Int
        // A line torn by a crash is ended first, so the new record starts a line of its own.
        var endsTornLine = false
        if let mark, unchanged {
            state = .unchanged
            count = mark.count
        } else {
            var current: Preferences?
            do {
                if let existing = try DurableFile.readWithStatus(target) {
                    // Damaged data is the general way's to report.
                    guard let parsed = try? Preferences(json: existing.data) else { return .unavailable }
                    current = parsed
                }
            } catch {
                return .unavailable
            }
            let lines = try readLines(appendix, location)
            let last = lines.last.flatMap { try? Preferences(json: lines.data[$0]) }
            state = .read(document: current, records: last.map { [$0][...] } ?? parse(lines)[...])
            count = lines.count
            endsTornLine = lines.data.last.map { $0 != 0x0A } ?? false
        }
        guard count < FileLayout.appendixLimit else { return .unavailable }
        guard let record = try make(state, other) else { return .nothing }
        var line: [UInt8] = endsTornLine ? [0x0A] : []
        line += record.jsonBytes(options: .init(prettyPrinted: false))
        line.append(0x0A)
        try append(Data(line), to: appendix, location)
        count += 1
        return .appended(AppendixMark(document: document, appendix: FileIdentity(of: appendix), count: count))
    }

    /// The records of a document's appendix, in the order appended; lines that do not parse (a
    /// record torn by a crash) are left out.
    ///
    /// - Throws: ``StorageError`` when the appendix exists but cannot be read.
    package func records(beside location: StorageLocation) async throws(StorageError) -> [Preferences] {
        try location.checked()
        let path = path(of: location)
        return try await BlockingIO.run { () throws(StorageError) in
            try Self.records(
                at:
                    Self.appendixPath(ofResolved: (try? DurableFile.resolveLinks(path)) ?? path), location)
        }
    }

    /// Rewrites a document with the records of its appendix folded in, and drops the appendix,
    /// in one step under the document's lock (so no record appended meanwhile is lost), without
    /// flushing: for an appendix that is full.
    ///
    /// - Parameters:
    ///   - location: The document.
    ///   - change: The new document from the stored one (`nil`: absent) and every record; `nil`
    ///     leaves both files as they are.
    /// - Returns: `false` when it cannot be done so (damaged data, a batch that may be pending,
    ///   no folder): the caller takes the general way.
    /// - Throws: What `change` throws, or ``StorageError``.
    package func foldAppendix(
        beside location: StorageLocation,
        _ change: @escaping @Sendable (Preferences?, [Preferences]) throws -> Preferences?
    ) async throws -> Bool {
        try await updateInPlace(location, foldingAppendix: true, change)
    }

    /// The appendix of a document whose links are resolved: every reader and writer of it uses
    /// this one name.
    static func appendixPath(ofResolved target: String) -> String { target + FileLayout.appendixSuffix }

    /// Whether a location may have an appendix: the sync sidecars.
    static func hasAppendix(_ location: StorageLocation) -> Bool {
        if case .syncSnapshot = location { return true }
        return false
    }

    static func records(at path: String, _ location: StorageLocation) throws(StorageError)
        -> [Preferences]
    {
        parse(try readLines(path, location))
    }

    /// The bytes of an appendix and where its lines are, unparsed.
    private static func readLines(_ path: String, _ location: StorageLocation) throws(StorageError) -> Lines {
        do {
            return Lines(try DurableFile.readWithStatus(path, limit: 16 << 20)?.data ?? Data())
        } catch {
            throw io(error, location)
        }
    }

    /// The records of lines that parse, in order.
    private static func parse(_ lines: Lines) -> [Preferences] {
        lines.ranges.compactMap { try? Preferences(json: lines.data[$0]) }
    }

    /// An appendix's bytes and the ranges of its non-empty lines, found in one pass over the
    /// bytes (`Data.split` goes through the generic collection path, byte by byte, and cost
    /// more than the rest of an append).
    private struct Lines {
        let data: Data
        let ranges: [Range<Int>]

        init(_ data: Data) {
            self.data = data
            var ranges: [Range<Int>] = []
            let base = data.startIndex
            data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var start = 0
                for index in 0..<bytes.count where bytes[index] == 0x0A {
                    if index > start { ranges.append(base + start..<base + index) }
                    start = index + 1
                }
                if bytes.count > start { ranges.append(base + start..<base + bytes.count) }
            }
            self.ranges = ranges
        }

        var count: Int { ranges.count }
        var last: Range<Int>? { ranges.last }
    }

    private static func append(_ line: Data, to path: String, _ location: StorageLocation)
        throws(StorageError)
    {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw io(.system("cannot open", path), location) }
        defer { close(descriptor) }
        do {
            try DurableFile.writeAll(line, to: descriptor, path: path)
        } catch {
            throw io(error, location)
        }
    }
}

/// A file as `stat` sees it: which file, its size and when it last changed.
private struct FileIdentity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    /// `nil` when the file does not exist (or cannot be examined).
    init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
            seconds = Int(info.st_ctimespec.tv_sec)
            nanoseconds = Int(info.st_ctimespec.tv_nsec)
        #else
            seconds = Int(info.st_ctim.tv_sec)
            nanoseconds = Int(info.st_ctim.tv_nsec)
        #endif
    }
}
