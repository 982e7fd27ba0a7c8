import Foundation
import ReadingPreferences

/// The limits of a replica file (Specs/Sync.md §2): past one, the whole file is skipped and reported.
public struct ReplicaFileLimits: Sendable, Hashable {
    /// The largest file, in bytes: 64 MiB.
    public var maxSize: Int = 64 << 20
    /// The deepest nesting of a value, its own level included: 511, so that the document that
    /// holds it stays within the 512 levels of any document (``SyncEntry/maximumValueDepth``).
    public var maxValueDepth: Int = SyncEntry.maximumValueDepth
    /// The most entries, removals included: 2^20.
    public var maxEntries: Int = 1 << 20

    /// The default limits.
    public init() {}
}

/// A replica file as read: its state, and the entries skipped for being malformed (a malformed
/// entry skips that entry, never its document or the file).
public struct ReplicaFile: Sendable, Hashable {
    /// The state.
    public var state: ReplicaState
    /// What was skipped, one line each (`documents.epub/shared.fontSize: a stamp's time ...`).
    public var skipped: [String]
}

/// Why a replica file was skipped (Specs/Sync.md §2): never a reason to delete local data.
public enum ReplicaFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not JSON: missing, partially written or damaged.
    case unreadable(String)
    /// Written by a newer version of the format.
    case futureFormat(Int)
    /// JSON, but not a replica state.
    case malformed(String)
    /// Past a limit of ``ReplicaFileLimits``.
    case tooLarge(String)
    /// Not a regular file: a symbolic link, a folder, a FIFO.
    case notAFile(String)

    /// One line.
    public var description: String {
        switch self {
        case .unreadable(let reason): return "not readable (\(reason))"
        case .futureFormat(let version):
            return "format version \(version) is newer than \(ReplicaState.formatVersion)"
        case .malformed(let reason): return "malformed (\(reason))"
        case .tooLarge(let reason): return "too large (\(reason))"
        case .notAFile(let reason): return "not a regular file (\(reason))"
        }
    }
}

extension ReplicaState {
    /// Reads a replica file in one pass, in time and memory linear in its size: entries go
    /// straight into their documents, never through a tree of the whole file.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - limits: The limits past which the file is refused.
    /// - Returns: The state and the entries skipped.
    /// - Throws: ``ReplicaFileError``: not JSON (a partial write), another format, a newer
    ///   version, a malformed or missing required member, or a limit passed.
    public static func read(_ data: Data, limits: ReplicaFileLimits = ReplicaFileLimits())
        throws(ReplicaFileError)
        -> ReplicaFile
    {
        guard data.count <= limits.maxSize else {
            throw .tooLarge("\(data.count) bytes, more than \(limits.maxSize)")
        }
        var reading = Reading(limits: limits)
        do {
            try data.withUnsafeBytes { raw in
                // Values start four levels down: file, documents, document, entry.
                try JSONPullReader.read(
                    raw.bindMemory(to: UInt8.self), maxDepth: 4 + limits.maxValueDepth,
                    maxSize: limits.maxSize
                ) { reader in
                    try reading.readFile(&reader)
                }
            }
        } catch let error as ReplicaFileError {
            throw error
        } catch let error as JSONDecodingError {
            if error.code == .tooDeep {
                throw .tooLarge("a value nested deeper than \(limits.maxValueDepth) levels")
            }
            throw .unreadable(error.description)
        } catch {
            throw .malformed("\(error)")
        }
        return try reading.finish()
    }

    /// The file's state while it is read.
    private struct Reading {
        let limits: ReplicaFileLimits
        var format: String?
        var version: Int?
        var replica: JSONValue?
        var writer = ""
        var name: String?
        var names: [ReplicaID: String] = [:]
        var merged: [ReplicaID: SyncStamp] = [:]
        var documents: [SyncScope: SyncDocument] = [:]
        var skipped: [String] = []
        var entries = 0

        init(limits: ReplicaFileLimits) { self.limits = limits }

        mutating func readFile(_ reader: inout JSONPullReader) throws {
            guard reader.peek() == .object else { throw ReplicaFileError.malformed("not a JSON object") }
            try reader.beginObject()
            while let member = try reader.nextKey() {
                switch member {
                case "format": format = try reader.readValue().stringValue
                case "version": version = try reader.readValue().numberValue?.integerValue
                case "replica": replica = try reader.readValue()
                case "writer": writer = try reader.readValue().stringValue ?? ""
                case "name": name = try reader.readValue().stringValue.flatMap(DeviceIdentity.normalizedName)
                case "names":
                    for member in try reader.readValue().objectValue?.members ?? [] {
                        guard let id = ReplicaID(member.key),
                            let text = member.value.stringValue.flatMap(DeviceIdentity.normalizedName)
                        else { continue }
                        names[id] = text
                    }
                case "merged": try readMerged(&reader)
                case "documents": try readDocuments(&reader)
                default: try reader.skipValue()
                }
            }
            try reader.expectEnd()
        }

        mutating func readMerged(_ reader: inout JSONPullReader) throws {
            guard reader.peek() == .object else {
                throw ReplicaFileError.malformed("\"merged\" is not an object")
            }
            // Room for every stamp at once: a table that grows holds its old and new storage
            // together, which would take memory past 4× the file's size (Specs/Sync.md §2).
            merged.reserveCapacity(merged.count + min(reader.countMembers() ?? 0, limits.maxEntries))
            try reader.beginObject()
            while let key = try reader.nextKey() {
                let value = try reader.readValue()
                try count()
                do throws(SyncFormatError) {
                    let stamp = try SyncStamp(json: value)
                    guard stamp.replica.rawValue == key else {
                        throw SyncFormatError("the stamp's replica is not \(JSONValue.string(key))")
                    }
                    if merged[stamp.replica].map({ $0 < stamp }) ?? true { merged[stamp.replica] = stamp }
                } catch {
                    skipped.append("merged.\(key): \(error)")
                }
            }
        }

        mutating func readDocuments(_ reader: inout JSONPullReader) throws {
            guard reader.peek() == .object else {
                throw ReplicaFileError.malformed("\"documents\" is not an object")
            }
            try reader.beginObject()
            while let name = try reader.nextKey() {
                guard let scope = SyncScope(name) else {
                    skipped.append("documents.\(StorageLocation.quoted(name)): not a scope")
                    try reader.skipValue()
                    continue
                }
                guard reader.peek() == .object else {
                    skipped.append("documents.\(name): not an object")
                    try reader.skipValue()
                    continue
                }
                var document = documents.removeValue(forKey: scope) ?? SyncDocument()
                document.reserveCapacity(document.count + min(reader.countMembers() ?? 0, limits.maxEntries))
                try reader.beginObject()
                while let key = try reader.nextKey() {
                    let json = try reader.readValue()
                    try count()
                    guard key != "$id" else {
                        // A file's own member (a publication's identifier), never a preference:
                        // no replica makes such an entry, and none applies one (Specs/Sync.md §2).
                        skipped.append("documents.\(name).$id: a file's identifier, not a preference")
                        continue
                    }
                    guard !StorageLocation.holdsNUL(key) else {
                        // Specs/Sync.md §1: no key holds U+0000; the entry is malformed, never cut.
                        skipped.append(
                            "documents.\(name).\(StorageLocation.quoted(key)): a key holding U+0000")
                        continue
                    }
                    do throws(SyncFormatError) {
                        document.merge(try SyncEntry(json: json), forKey: key)
                    } catch {
                        skipped.append("documents.\(name).\(key): \(error)")
                    }
                }
                documents[scope] = document
            }
        }

        mutating func count() throws(ReplicaFileError) {
            entries += 1
            if entries > limits.maxEntries { throw .tooLarge("more than \(limits.maxEntries) entries") }
        }

        func finish() throws(ReplicaFileError) -> ReplicaFile {
            guard format == ReplicaState.formatName else {
                throw .malformed("\"format\" is not \"\(ReplicaState.formatName)\"")
            }
            guard let version else { throw .malformed("\"version\" is missing or not an integer") }
            // Specs/Sync.md §2: versions count from 1; a lower one names no format.
            guard version >= 1 else {
                throw .malformed("\"version\" \(version) is not a format version (1 or later)")
            }
            guard version <= ReplicaState.formatVersion else { throw .futureFormat(version) }
            guard let text = replica?.stringValue, let id = ReplicaID(text) else {
                throw .malformed("\"replica\" is missing or not a replica id")
            }
            var state = ReplicaState(replica: id, writer: writer, documents: documents, merged: merged)
            state.name = name
            state.names = names
            return ReplicaFile(state: state, skipped: skipped)
        }
    }

    // MARK: - Writing

    /// The replica file's bytes: compact, scopes and keys sorted by their bytes (so equal states
    /// write equal files), with a trailing newline; written straight from the state.
    ///
    /// - Returns: The file's bytes.
    public func jsonData() -> Data {
        var stream = JSONTextStream(capacity: 256 + 128 * entryCount)
        stream.append(#"{"format":"readingprefs-sync","version":1,"replica":"#)
        stream.appendString(replica.rawValue)
        stream.append(#","writer":"#)
        stream.appendString(writer)
        if let name {
            stream.append(#","name":"#)
            stream.appendString(name)
        }
        if !names.isEmpty {
            stream.append(#","names":{"#)
            for (index, (replica, name)) in names.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { stream.append(",") }
                stream.appendString(replica.rawValue)
                stream.append(":")
                stream.appendString(name)
            }
            stream.append("}")
        }
        stream.append(#","merged":{"#)
        for (index, (replica, stamp)) in merged.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { stream.append(",") }
            stream.appendString(replica.rawValue)
            stream.append(":")
            Self.append(stamp, to: &stream)
        }
        stream.append(#"},"documents":{"#)
        for (index, scope) in documents.keys.sorted().enumerated() {
            if index > 0 { stream.append(",") }
            stream.appendString(scope.description)
            stream.append(":{")
            let document = documents[scope] ?? SyncDocument()
            for (position, (key, entry)) in document.entries.sorted(by: { $0.key < $1.key }).enumerated() {
                if position > 0 { stream.append(",") }
                stream.appendString(key.string)
                stream.append(":")
                Self.append(entry, to: &stream)
            }
            stream.append("}")
        }
        stream.append("}}\n")
        return stream.data()
    }

    /// The state as a JSON value (for tools and tests; files are written by ``jsonData()``).
    public var jsonValue: JSONValue {
        (try? JSONValue(json: jsonData())) ?? .null
    }

    static func append(_ stamp: SyncStamp, to stream: inout JSONTextStream) {
        stream.append(#"{"time":"#)
        stream.appendInteger(stamp.time)
        stream.append(#","counter":"#)
        stream.appendInteger(stamp.counter)
        stream.append(#","replica":"#)
        stream.appendString(stamp.replica.rawValue)
        stream.append("}")
    }

    static func append(_ entry: SyncEntry, to stream: inout JSONTextStream) {
        if let value = entry.value {
            stream.append(#"{"value":"#)
            stream.appendValue(value)
        } else {
            stream.append(#"{"removed":true"#)
        }
        stream.append(#","stamp":"#)
        append(entry.stamp, to: &stream)
        stream.append("}")
    }
}
