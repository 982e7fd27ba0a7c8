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

extension FileStorage {
    /// Appends a record to a document's appendix under the document's lock, without flushing.
    ///
    /// - Parameters:
    ///   - location: The document.
    ///   - make: The record from the stored document and the records appended since it was
    ///     written; `nil` appends nothing.
    /// - Returns: `false` when it cannot be done so and the caller must write the document
    ///   instead: the appendix is full (``FileLayout/appendixLimit``), a batch may be pending,
    ///   faults are planned, or the folder is missing.
    /// - Throws: What `make` throws, or ``StorageError`` when the appendix cannot be written.
    package func appendRecord(
        beside location: StorageLocation,
        _ make: @escaping @Sendable (Preferences?, [Preferences]) throws -> Preferences?
    ) async throws -> Bool {
        try location.checked()
        let batch = FileBatch(layout: layout, faults: nil)
        guard faults == nil, !batch.mayHavePendingJournal else { return false }
        let path = path(of: location)
        return try await BlockingIO.run { () throws -> Bool in
            let outcome: Result<Bool, any Error>
            do {
                outcome = try DurableFile.withLockedFile(path, links: .follow) {
                    (file: borrowing DurableFile.LockedFile) throws(Never) -> Result<Bool, any Error> in
                    do {
                        var current: Preferences?
                        if let existing = file.existing {
                            // Damaged data is the general way's to report.
                            guard let parsed = try? Preferences(json: existing.data) else {
                                return .success(false)
                            }
                            current = parsed
                        }
                        let appendix = file.path + FileLayout.appendixSuffix
                        let records = try Self.readRecords(appendix, location)
                        guard records.count < FileLayout.appendixLimit else { return .success(false) }
                        guard let record = try make(current, records) else { return .success(true) }
                        var line = record.jsonBytes(options: .init(prettyPrinted: false))
                        line.append(0x0A)
                        try Self.append(Data(line), to: appendix, location)
                        return .success(true)
                    } catch {
                        return .failure(error)
                    }
                }
            } catch {
                // No folder yet, or a lock that cannot be taken: the general way says why.
                return false
            }
            return try outcome.get()
        }
    }

    /// The records of a document's appendix, in the order appended; lines that do not parse (a
    /// record torn by a crash) are left out.
    ///
    /// - Throws: ``StorageError`` when the appendix exists but cannot be read.
    package func records(beside location: StorageLocation) async throws(StorageError) -> [Preferences] {
        try location.checked()
        let path = path(of: location) + FileLayout.appendixSuffix
        return try await BlockingIO.run { () throws(StorageError) in try Self.readRecords(path, location) }
    }

    /// Drops the appendices of the locations written or removed: what they held is in the
    /// document written, or no longer needed.
    static func dropAppendices(of locations: [StorageLocation], layout: FileLayout) {
        for location in locations where hasAppendix(location) {
            _ = unlink(layout.path(of: location) + FileLayout.appendixSuffix)
        }
    }

    /// Whether a location may have an appendix: the sync sidecars.
    static func hasAppendix(_ location: StorageLocation) -> Bool {
        if case .syncSnapshot = location { return true }
        return false
    }

    private static func readRecords(_ path: String, _ location: StorageLocation) throws(StorageError)
        -> [Preferences]
    {
        let read: (data: Data, status: stat)?
        do {
            read = try DurableFile.readWithStatus(path, limit: 16 << 20)
        } catch {
            throw io(error, location)
        }
        guard let data = read?.data else { return [] }
        return data.split(separator: 0x0A).compactMap { try? Preferences(json: Data($0)) }
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
