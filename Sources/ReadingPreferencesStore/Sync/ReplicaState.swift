import Foundation
import ReadingPreferences

/// One replica's synced state, as its file in the mirror folder holds it (SPEC 10; the format is
/// in `Specs/Sync.md`): every synced document's keys with their stamps, and the highest stamp it
/// has merged from every replica.
///
/// The merge is a pure function on these values (``merged(_:_:)``): commutative, associative
/// and idempotent, so a server can take part as a replica over any transport.
public struct ReplicaState: Sendable, Hashable {
    /// The format version this package writes and reads.
    public static let formatVersion = 1
    /// The `format` member of every replica file.
    public static let formatName = "readingprefs-sync"

    /// The replica's id.
    public var replica: String
    /// A random id of the write that made the file: a replica that finds another writer id in
    /// its own file knows a second device writes under its id.
    public var writer: String
    /// The synced documents: per scope, per key, the entry.
    public var documents: [SyncScope: [String: SyncEntry]]
    /// The highest stamp merged from each replica, by replica id.
    public var merged: [String: SyncStamp]

    /// Creates a state.
    ///
    /// - Parameters:
    ///   - replica: The replica's id.
    ///   - writer: The id of the write.
    ///   - documents: The documents.
    ///   - merged: The highest stamp merged from each replica.
    public init(
        replica: String, writer: String = "", documents: [SyncScope: [String: SyncEntry]] = [:],
        merged: [String: SyncStamp] = [:]
    ) {
        self.replica = replica
        self.writer = writer
        self.documents = documents
        self.merged = merged
    }

    /// Merges two states' contents (documents and merged stamps), keeping per key the entry with
    /// the greatest stamp (SPEC 10). The result's replica and writer are `lhs`'s.
    ///
    /// - Parameters:
    ///   - lhs: A state.
    ///   - rhs: Another state.
    /// - Returns: The merge.
    public static func merged(_ lhs: ReplicaState, _ rhs: ReplicaState) -> ReplicaState {
        var result = lhs
        for (scope, entries) in rhs.documents {
            var target = result.documents[scope] ?? [:]
            for (key, entry) in entries {
                if let current = target[key], !entry.wins(over: current) { continue }
                target[key] = entry
            }
            result.documents[scope] = target
        }
        for (replica, stamp) in rhs.merged where result.merged[replica].map({ $0 < stamp }) ?? true {
            result.merged[replica] = stamp
        }
        return result
    }

    /// The highest stamp of each replica among this state's entries.
    public var highestStamps: [String: SyncStamp] {
        var result: [String: SyncStamp] = [:]
        for entries in documents.values {
            for entry in entries.values where result[entry.stamp.replica].map({ $0 < entry.stamp }) ?? true {
                result[entry.stamp.replica] = entry.stamp
            }
        }
        return result
    }

    // MARK: - JSON

    /// The replica file's JSON: scopes and keys sorted, so equal states write equal bytes.
    public var jsonValue: JSONValue {
        var documents = JSONObject()
        for scope in self.documents.keys.sorted() {
            var entries = JSONObject()
            for (key, entry) in self.documents[scope, default: [:]].sorted(by: {
                $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
            }) {
                entries[key] = entry.jsonValue
            }
            documents[scope.description] = .object(entries)
        }
        var merged = JSONObject()
        for (replica, stamp) in self.merged.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
        {
            merged[replica] = stamp.jsonValue
        }
        return [
            "format": .string(Self.formatName), "version": .number(JSONNumber(Self.formatVersion)),
            "replica": .string(replica), "writer": .string(writer), "merged": .object(merged),
            "documents": .object(documents),
        ]
    }

    /// Reads a replica file.
    ///
    /// - Parameter data: The file's bytes.
    /// - Throws: ``ReplicaFileError``: not JSON (a partial write), another format, a newer version,
    ///   or a malformed member.
    public init(json data: Data) throws(ReplicaFileError) {
        let json: JSONValue
        do throws(JSONDecodingError) {
            json = try JSONValue(json: data, options: JSONParsingOptions(maxDepth: 16, maxSize: 1 << 30))
        } catch {
            throw .unreadable(error.description)
        }
        var futureVersion: Int?
        do throws(JSONMemberError) {
            let reader = try JSONMemberReader(json, path: "")
            guard try reader.string("format") == Self.formatName else {
                throw JSONMemberError(path: "format", message: "expected \"\(Self.formatName)\"")
            }
            guard let version = try reader.number("version"), let exact = Int(exactly: version) else {
                throw JSONMemberError(path: "version", message: "missing")
            }
            guard exact <= Self.formatVersion else {
                futureVersion = exact
                throw JSONMemberError(path: "version", message: "newer than \(Self.formatVersion)")
            }
            replica = try reader.string("replica") ?? ""
            guard !replica.isEmpty else { throw JSONMemberError(path: "replica", message: "missing") }
            writer = try reader.string("writer") ?? ""
            merged = [:]
            for member in try reader.object("merged")?.members ?? [] {
                merged[member.key] = try SyncStamp(json: member.value, path: "merged.\(member.key)")
            }
            documents = [:]
            for document in try reader.object("documents")?.members ?? [] {
                guard let scope = SyncScope(document.key) else {
                    throw JSONMemberError(
                        path: "documents", message: "\(JSONValue.string(document.key)) is not a scope")
                }
                let entriesReader = try JSONMemberReader(document.value, path: "documents.\(document.key)")
                var entries: [String: SyncEntry] = [:]
                for member in entriesReader.object.members {
                    entries[member.key] = try SyncEntry(
                        json: member.value, path: entriesReader.path(member.key))
                }
                documents[scope] = entries
            }
        } catch {
            if let futureVersion { throw .futureFormat(futureVersion) }
            throw .malformed(error.description)
        }
    }
}

extension ReplicaState: CustomStringConvertible {
    /// The replica file's compact JSON.
    public var description: String { jsonValue.jsonString() }
}

extension ReplicaState: Codable {
    /// Decodes a state from its JSON form (through ``init(json:)``, the one reader).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` when the state is malformed.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do throws(ReplicaFileError) {
            try self.init(json: json.jsonData())
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\(error)"))
        }
    }

    /// Encodes the state as its JSON form.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

/// Why a replica file was skipped (SPEC 10): never a reason to delete local data.
public enum ReplicaFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not JSON: missing, partially written or damaged.
    case unreadable(String)
    /// Written by a newer version of the format.
    case futureFormat(Int)
    /// JSON, but not a replica state.
    case malformed(String)

    /// One line.
    public var description: String {
        switch self {
        case .unreadable(let reason): return "not readable (\(reason))"
        case .futureFormat(let version):
            return "format version \(version) is newer than \(ReplicaState.formatVersion)"
        case .malformed(let reason): return "malformed (\(reason))"
        }
    }
}
