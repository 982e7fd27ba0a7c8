import Foundation
import ReadingPreferences

/// This device's replica id and sync memory (SPEC 10), in `<root>/replica.json`, which backups
/// do not copy (excluded from backup on Apple platforms): a device restored from a backup, or a
/// copied folder, starts as a new replica instead of writing under another device's id.
struct ReplicaIdentity: Sendable {
    /// The replica's id.
    var replica: String
    /// The writer id of the last write of this replica's mirror file that finished.
    var confirmed: String?
    /// The writer id of a write that may not have finished.
    var pending: String?
    /// The clock's last stamp.
    var clock: SyncStamp?
    /// The highest stamp merged from each replica.
    var merged: [String: SyncStamp] = [:]
    /// What each other replica had merged, as its file last said.
    var peers: [String: [String: SyncStamp]] = [:]

    /// The writer ids this device may have written into its mirror file.
    var writes: Set<String> { Set([confirmed, pending].compactMap { $0 }) }

    static func path(root: URL) -> URL { root.appendingPathComponent("replica.json") }

    /// The identity of a root, created with `name` (or a random id) the first time.
    static func load(root: URL, name: String?) throws -> ReplicaIdentity {
        let path = Self.path(root: root)
        guard let data = try? Data(contentsOf: path) else {
            return ReplicaIdentity(replica: name ?? newID(prefix: nil))
        }
        do {
            let json = try JSONValue(json: data)
            let reader = try JSONMemberReader(json, path: "replica.json")
            guard let replica = try reader.string("replica"), !replica.isEmpty else {
                throw SyncError.identity("\(path.path) has no replica id")
            }
            var identity = ReplicaIdentity(replica: replica)
            identity.confirmed = try reader.string("confirmed")
            identity.pending = try reader.string("pending")
            identity.clock = try reader.value("clock").map { json throws(JSONMemberError) in
                try SyncStamp(json: json, path: "clock")
            }
            identity.merged = try stamps(reader.object("merged"), path: "merged")
            for member in try reader.object("peers")?.members ?? [] {
                identity.peers[member.key] = try stamps(member.value.objectValue, path: "peers.\(member.key)")
            }
            return identity
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.identity("\(path.path): \(error)")
        }
    }

    private static func stamps(_ object: JSONObject?, path: String) throws(JSONMemberError) -> [String:
        SyncStamp]
    {
        var result: [String: SyncStamp] = [:]
        for member in object?.members ?? [] {
            result[member.key] = try SyncStamp(json: member.value, path: "\(path).\(member.key)")
        }
        return result
    }

    private static func json(_ stamps: [String: SyncStamp]) -> JSONValue {
        var object = JSONObject()
        for (key, stamp) in stamps.sorted(by: { $0.key < $1.key }) { object[key] = stamp.jsonValue }
        return .object(object)
    }

    /// Saves the identity durably, excluded from backups.
    func save(root: URL) throws {
        var peers = JSONObject()
        for (replica, vector) in self.peers.sorted(by: { $0.key < $1.key }) {
            peers[replica] = Self.json(vector)
        }
        var object: JSONObject = ["replica": .string(replica)]
        if let confirmed { object["confirmed"] = .string(confirmed) }
        if let pending { object["pending"] = .string(pending) }
        if let clock { object["clock"] = clock.jsonValue }
        object["merged"] = Self.json(merged)
        object["peers"] = .object(peers)
        var path = Self.path(root: root)
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try DurableFile.write(
                JSONValue.object(object).jsonData(options: .init(prettyPrinted: true)), to: path.path)
        } catch {
            throw SyncError.identity("cannot write \(path.path): \(error)")
        }
        #if canImport(Darwin)
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? path.setResourceValues(values)
        #else
            _ = path
        #endif
    }

    /// The same memory under a new id.
    func renamed(to replica: String) -> ReplicaIdentity {
        var copy = self
        copy.replica = replica
        copy.confirmed = nil
        copy.pending = nil
        return copy
    }

    /// A new random id: 12 lower-case hex digits, after `prefix-` when given.
    static func newID(prefix: String?) -> String {
        let random = String(UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(12))
        return prefix.map { "\($0)-\(random)" } ?? random
    }
}
