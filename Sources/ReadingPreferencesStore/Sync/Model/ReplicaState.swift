import Foundation
import ReadingPreferences

/// One replica's synced state, as its file in the mirror folder holds it (Specs/Sync.md §2; the format is
/// in `Specs/Sync.md`): every synced document's keys with their stamps, and the highest stamp it
/// has merged from every replica.
///
/// The merge, ``merge(_:)``, is a pure function on these values: commutative, associative and
/// idempotent, so a server can take part as a replica over any transport. It is the one merge of
/// sync: a store's sync reconciles its local documents through it too.
///
/// ```swift
/// var mine = try ReplicaState.read(myFile).state
/// mine.merge(try ReplicaState.read(theirFile).state)
/// mine.documents[scope]?["fontSize"]?.value   // the winning value
/// ```
public struct ReplicaState: Sendable, Hashable {
    /// The format version this package writes and reads.
    public static let formatVersion = 1
    /// The `format` member of every replica file.
    public static let formatName = "readingprefs-sync"

    /// The replica's id.
    public var replica: ReplicaID
    /// A random id of the write that made the file: a replica that finds another writer id in
    /// its own file knows a second device writes under its id.
    public var writer: String
    /// The replica's display name ("Kobo Clara"), when it has one (Specs/Sync.md §2).
    public var name: String?
    /// Other replicas' display names, as this one knows them, so names travel with the changes
    /// (a server's state names the devices that pushed to it).
    public var names: [ReplicaID: String] = [:]
    /// The synced documents: per scope, per key, the entry.
    public private(set) var documents: [SyncScope: SyncDocument]
    /// The highest stamp merged from each replica, by replica id. It covers every entry the
    /// state holds: a state that holds an entry has merged its stamp.
    public private(set) var merged: [ReplicaID: SyncStamp]

    /// Creates a state; ``merged`` is raised to cover every entry's stamp.
    ///
    /// - Parameters:
    ///   - replica: The replica's id.
    ///   - writer: The id of the write.
    ///   - documents: The documents.
    ///   - merged: The highest stamp merged from each replica.
    public init(
        replica: ReplicaID, writer: String = "", documents: [SyncScope: SyncDocument] = [:],
        merged: [ReplicaID: SyncStamp] = [:]
    ) {
        self.replica = replica
        self.writer = writer
        self.documents = documents
        self.merged = merged
        for document in documents.values {
            for (_, entry) in document.entries { note(entry.stamp) }
        }
    }

    /// The number of entries in every document, removals included.
    public var entryCount: Int { documents.values.reduce(0) { $0 + $1.count } }

    // MARK: - The merge

    /// Merges another state's contents into this one (Specs/Sync.md §3): per scope and key the entry that
    /// ``SyncEntry/wins(over:)``, and per replica the greater merged stamp. The replica and
    /// writer stay this state's.
    ///
    /// - Parameter other: The other state.
    public mutating func merge(_ other: ReplicaState) {
        for (scope, document) in other.documents {
            documents[scope, default: SyncDocument()].merge(document)
        }
        for (replica, stamp) in other.merged {
            if merged[replica].map({ $0 < stamp }) ?? true { merged[replica] = stamp }
        }
    }

    /// The merge of two states (``merge(_:)``), with `lhs`'s replica and writer.
    ///
    /// - Parameters:
    ///   - lhs: A state.
    ///   - rhs: Another state.
    /// - Returns: The merge.
    public static func merged(_ lhs: ReplicaState, _ rhs: ReplicaState) -> ReplicaState {
        var result = lhs
        result.merge(rhs)
        return result
    }

    /// Keeps an entry for a key of a scope when it wins, and notes its stamp as merged.
    ///
    /// - Parameters:
    ///   - entry: The entry.
    ///   - key: The key.
    ///   - scope: The document.
    public mutating func record(_ entry: SyncEntry, forKey key: String, in scope: SyncScope) {
        documents[scope, default: SyncDocument()].merge(entry, forKey: key)
        note(entry.stamp)
    }

    /// Replaces a scope's document (`nil` removes it), noting its stamps as merged.
    mutating func setDocument(_ document: SyncDocument?, for scope: SyncScope) {
        documents[scope] = document
        for (_, entry) in document?.entries ?? [:] { note(entry.stamp) }
    }

    /// Notes a stamp as merged.
    package mutating func note(_ stamp: SyncStamp) {
        if merged[stamp.replica].map({ $0 < stamp }) ?? true { merged[stamp.replica] = stamp }
    }

    /// Replaces the merged map (the local replica's own, which may know more than its entries).
    mutating func setMerged(_ merged: [ReplicaID: SyncStamp]) {
        self.merged = merged
        for document in documents.values {
            for (_, entry) in document.entries { note(entry.stamp) }
        }
    }
}

extension ReplicaState: CustomStringConvertible {
    /// The replica file's compact JSON.
    public var description: String { String(decoding: jsonData(), as: UTF8.self) }
}

extension ReplicaState: Codable {
    /// Decodes a state from its JSON form (through ``read(_:limits:)``, the one reader).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` when the state is malformed.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do throws(ReplicaFileError) {
            self = try Self.read(json.jsonData()).state
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
        try JSONValue(json: jsonData()).encode(to: encoder)
    }
}
