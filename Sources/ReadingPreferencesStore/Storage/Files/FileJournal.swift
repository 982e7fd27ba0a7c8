import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A document's change journal as a file (Specs/Store.md §15.1): `<document>.journal` in the
/// store's hidden folder, one compact JSON object per line (``JournalEntry/jsonValue``), appended
/// under the document's lock in the step that writes the document, never flushed: a record lost
/// in a crash only makes an edit younger (the next sync stamps it by content) and shortens its
/// history. Appending costs no flush, where replacing a file does (ext4 flushes a file renamed
/// over another). A torn or malformed line is left out when read. Once a journal passes
/// ``JournalBounds/maximumBytes`` it is compacted to what the bounds keep.
///
/// A read's cursor is `<inode>:<offset>`: the next read starts where the last one stopped, and
/// starts over when the journal was compacted (a new file).
enum FileJournal {
    /// A journal opened for an append, its lines written out but not yet appended: a batch
    /// prepares it while its files are flushed (``opened(_:to:)``) and appends once they are
    /// durable (``finish(now:)``), which then compacts the journal when it passed its bound.
    struct OpenAppend {
        let path: String
        let descriptor: Int32
        let bytes: Data
        /// The journal's size before the append.
        let size: Int

        /// Appends the lines and closes the journal, then compacts it when it passed its bound.
        func finish(now: UInt64) throws(DurableFile.Failure) {
            defer { close(descriptor) }
            try DurableFile.writeAll(bytes, to: descriptor, path: path)
            if size + bytes.count > JournalBounds.standard.maximumBytes {
                compact(path, now: now)
            }
        }

        /// Closes the journal, appending nothing.
        func discard() { close(descriptor) }
    }

    /// Opens a journal (made, with its folder, when missing) and writes out the lines of
    /// `entries`; `nil` when there are none. Runs under the document's lock.
    static func opened(_ entries: [JournalEntry], to path: String) throws(DurableFile.Failure) -> OpenAppend?
    {
        guard !entries.isEmpty else { return nil }
        var bytes: [UInt8] = []
        for entry in entries {
            bytes += Array(entry.jsonValue.jsonData(options: .init(prettyPrinted: false)))
            bytes.append(0x0A)
        }
        var descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == ENOENT {
            let folder = PathText.folder(of: path)
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw .system("cannot open", path) }
        var info = stat()
        let size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
        // A line torn by a crash is ended first, so the new record starts a line of its own (the
        // journal is opened for reading too, so its last byte can be read).
        if size > 0, lastByte(descriptor, at: size - 1) != 0x0A { bytes.insert(0x0A, at: 0) }
        return OpenAppend(path: path, descriptor: descriptor, bytes: Data(bytes), size: size)
    }

    private static func lastByte(_ descriptor: Int32, at offset: Int) -> UInt8? {
        var byte: UInt8 = 0
        return pread(descriptor, &byte, 1, off_t(offset)) == 1 ? byte : nil
    }

    /// Rewrites a journal with what ``JournalBounds/standard`` keeps (a new file, renamed over the
    /// old one). Runs under the document's lock; a failure leaves the journal as it was.
    static func compact(_ path: String, now: UInt64) {
        guard let file = try? DurableFile.readWithStatus(path, links: .replace) else { return }
        let lines = Lines(file.data)
        var parsed: [(entry: JournalEntry, bytes: Int)] = []
        var ranges: [Range<Int>] = []
        for range in lines.ranges {
            guard let value = try? JSONValue(json: file.data[range]),
                let entry = try? JournalEntry(json: value)
            else { continue }
            parsed.append((entry, range.count + 1))
            ranges.append(range)
        }
        var kept = Data()
        for index in JournalBounds.standard.kept(parsed, now: now) {
            kept.append(file.data[ranges[index]])
            kept.append(0x0A)
        }
        _ = try? DurableFile.replace(path, with: kept, existing: file.status, flushes: false)
    }

    /// Reads a journal after a cursor: the entries of the complete lines past it, and the cursor
    /// after them.
    static func read(_ path: String, after cursor: JournalCursor?) throws(DurableFile.Failure) -> JournalRead
    {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return JournalRead(entries: [], cursor: JournalCursor("0:0")) }
            throw .system("cannot read", path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot read", path) }
        let inode = UInt64(info.st_ino)
        var start = 0
        if let cursor, let (seen, offset) = parse(cursor), seen == inode, offset <= Int(info.st_size) {
            start = offset
        }
        let size = Int(info.st_size)
        guard size > start else {
            return JournalRead(entries: [], cursor: JournalCursor("\(inode):\(start)"))
        }
        var data = Data(count: size - start)
        var filled = 0
        while filled < data.count {
            let count = data.withUnsafeMutableBytes { buffer in
                pread(
                    descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled,
                    off_t(start + filled))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        data.count = filled
        // Only complete lines: a line being appended now is read next time.
        let end = data.lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex
        let lines = Lines(data[data.startIndex..<end])
        var entries: [JournalEntry] = []
        entries.reserveCapacity(lines.ranges.count)
        for range in lines.ranges {
            guard let value = try? JSONValue(json: data[range]), let entry = try? JournalEntry(json: value),
                entry.stamp != nil
            else { continue }
            entries.append(entry)
        }
        return JournalRead(
            entries: entries, cursor: JournalCursor("\(inode):\(start + end - data.startIndex)"))
    }

    private static func parse(_ cursor: JournalCursor) -> (UInt64, Int)? {
        let parts = cursor.rawValue.split(separator: ":")
        guard parts.count == 2, let inode = UInt64(parts[0]), let offset = Int(parts[1]), offset >= 0 else {
            return nil
        }
        return (inode, offset)
    }

    /// A journal's bytes and the ranges of its non-empty lines, found in one pass over the bytes.
    struct Lines {
        let ranges: [Range<Int>]

        init(_ data: Data) {
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
    }
}
