import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// Issue 19's sync rows: one replica file of `count` keys (or of `count` high-water marks), and a
/// store already in step with it; one reconciliation, paired with a bare `JSONSerialization`
/// parse of the same file. Goal: ≤ 3× the parse, linear from 1,000 to 100,000, memory reading
/// the file ≤ 4× its size.
public final class LargeReplicaWorkload: @unchecked Sendable {
    /// What the big file holds.
    public enum Shape: String, Sendable, CaseIterable {
        /// `count` keys in one document.
        case keys
        /// `count` replicas in its `merged` map, and one key.
        case highWaterMarks = "high-water-marks"
    }

    /// The temporary folder (removed with the workload).
    public let folder: URL
    /// The mirror holding the big file.
    public let mirror: URL
    /// The local store's root.
    public let root: URL
    /// The big file's path.
    public let file: URL
    /// Its size in bytes.
    public let fileBytes: Int

    /// Writes the big file and syncs the local store with it until nothing changes.
    public init(count: Int, shape: Shape) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rp-large-\(UUID().uuidString)")
        mirror = folder.appendingPathComponent("mirror")
        root = folder.appendingPathComponent("local")
        file = mirror.appendingPathComponent("big.json")
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
        let data = Self.bigFile(count: count, shape: shape)
        try data.write(to: file)
        fileBytes = data.count
        _ = try await reconcile()
        _ = try await reconcile()
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// The file: compact JSON, as a replica writes it.
    public static func bigFile(count: Int, shape: Shape) -> Data {
        let time = 1_764_000_000_000
        var text = #"{"format":"readingprefs-sync","version":1,"replica":"big","writer":"w","merged":{"#
        switch shape {
        case .keys:
            text +=
                #""big":{"time":\#(time),"counter":\#(count),"replica":"big"}},"documents":{"epub/shared":{"#
            text += (0..<count).map { index in
                #""myApp.setting\#(index)":{"value":\#(index % 7 == 0 ? "\"sepia\"" : "1.\(index % 10)"),"stamp":{"time":\#(time),"counter":\#(index),"replica":"big"}}"#
            }.joined(separator: ",")
            text += "}}}\n"
        case .highWaterMarks:
            text += (0..<count).map { index in
                #""r\#(index)":{"time":\#(time),"counter":\#(index),"replica":"r\#(index)"}"#
            }.joined(separator: ",")
            text += #","big":{"time":\#(time),"counter":0,"replica":"big"}},"documents":{"epub/shared":{"#
            text +=
                #""fontSize":{"value":1.4,"stamp":{"time":\#(time),"counter":0,"replica":"big"}}}}}"# + "\n"
        }
        return Data(text.utf8)
    }

    /// One reconciliation of the local store with the mirror; returns the keys it changed.
    public func reconcile() async throws -> Int {
        let store = PreferencesStore<EPUB>(storage: FileStorage(root: root))
        let report = try await store.sync(
            with: MirrorFolder(url: mirror), options: SyncOptions(replica: ReplicaID("local")))
        return report.changes.count
    }

    /// Reads the big file as a sync does: one pass into its final structures.
    public func readFile() throws -> Int {
        try ReplicaState.read(Data(contentsOf: file)).state.entryCount
    }

    /// A bare `JSONSerialization` parse of the big file.
    public func bareParse() throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        return (object as? [String: Any])?.count ?? 0
    }
}
