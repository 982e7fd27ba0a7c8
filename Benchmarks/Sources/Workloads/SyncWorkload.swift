import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// The sync row (issue 13): three replicas sharing `publications` publications of five keys
/// each, one key changed on one replica; one reconciliation of another replica, paired with a
/// bare `JSONSerialization` parse of the three replica files.
public final class SyncWorkload: @unchecked Sendable {
    /// The temporary folder holding the mirror and the roots (removed with the workload).
    public let folder: URL
    /// The shared folder the replicas sync through.
    public let mirror: URL
    /// The three stores' roots, one per replica.
    public let roots: [URL]
    /// The number of publications each replica holds.
    public let publications: Int
    var value = 1

    /// Builds three roots with the same publications, synced once through the mirror.
    public init(publications: Int) async throws {
        self.publications = publications
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rp-sync-\(UUID().uuidString)")
        self.folder = folder
        mirror = folder.appendingPathComponent("mirror")
        roots = ["a", "b", "c"].map { folder.appendingPathComponent($0) }
        let storage = FileStorage(root: roots[0])
        let sample = storage.path(of: .layer(configurable: "epub", .publication("x")))
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: sample).deletingLastPathComponent(), withIntermediateDirectories: true)
        for index in 0..<publications {
            let id = String(format: "urn:isbn:978-0-%06d", index)
            let json =
                "{\n  \"readingProgression\": \"rtl\",\n  \"language\": \"ar\",\n  \"spread\": \"never\",\n"
                + "  \"fontSize\": 1.\(index % 9 + 1),\n  \"theme\": \"sepia\",\n  \"$id\": \"\(id)\"\n}\n"
            try Data(json.utf8).write(
                to: URL(fileURLWithPath: storage.path(of: .layer(configurable: "epub", .publication(id)))))
        }
        _ = try await sync(0)
        _ = try await sync(1)
        _ = try await sync(2)
        _ = try await sync(0)
        _ = try await sync(1)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// One reconciliation of a replica, through a store on its root.
    public func sync(_ replica: Int) async throws -> Int {
        let store = PreferencesStore<EPUB>(storage: FileStorage(root: roots[replica]))
        let options = SyncOptions(replica: ReplicaID(["a", "b", "c"][replica]))
        return try await store.sync(with: MirrorFolder(url: mirror), options: options).changes.count
    }

    /// Changes one key of one publication on replica a, and syncs a so its file carries it.
    public func changeOneKey() async throws {
        value += 1
        let store = PreferencesStore<EPUB>(storage: FileStorage(root: roots[0]))
        try await store.write(
            ["fontSize": .number(JSONNumber(1 + Double(value % 9) / 10))],
            to: .publication("urn:isbn:978-0-000042"))
        _ = try await sync(0)
    }

    /// A bare `JSONSerialization` parse of the three replica files.
    public func parseReplicaFiles() throws -> Int {
        var count = 0
        for name in ["a.json", "b.json", "c.json"] {
            let data = try Data(contentsOf: mirror.appendingPathComponent(name))
            let object = try JSONSerialization.jsonObject(with: data)
            count += (object as? [String: Any])?.count ?? 0
        }
        return count
    }

    /// The total size of the replica files, in bytes.
    public var replicaFileBytes: Int {
        ["a.json", "b.json", "c.json"].reduce(0) { total, name in
            total + ((try? Data(contentsOf: mirror.appendingPathComponent(name)))?.count ?? 0)
        }
    }
}
