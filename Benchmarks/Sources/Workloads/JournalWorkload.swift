import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// Issue 35's reading rows: `why` of a key whose document journalled it N times, and the
/// history of a document that had N changes, on a replica's file storage, each paired with a
/// bare read of the same journal file parsed line by line with `JSONSerialization` (the least
/// any reader of the journal does).
///
/// Every change is made through the store, so the journal holds what the document-write step
/// wrote, bounded as it bounds it (Specs/Store.md §15.4: past 1 MiB the oldest entries go).
public final class JournalWorkload: @unchecked Sendable {
    /// What the journal was filled with.
    public enum Shape: Sendable {
        /// The font size of shared, changed `count` times by single edits.
        case why(Int)
        /// `count` changes of shared, made by writes of ``JournalWorkload/keysPerWrite`` keys each.
        case history(Int)
    }

    /// Keys changed by each write of a history workload.
    public static let keysPerWrite = 100

    /// The folder of the store.
    public let root: URL
    /// A store on the root, made a replica before the changes.
    public let store: PreferencesStore<EPUB>
    /// Shared's journal, `.readingprefs/epub/shared.json.journal`.
    public let journalPath: String
    /// The entries the journal holds once filled (its bound may have dropped the oldest).
    public private(set) var entries = 0
    /// The journal's size once filled, in bytes.
    public private(set) var journalBytes = 0
    /// The book `why` is asked about (it holds no value of its own: shared's wins).
    static let book = "urn:isbn:978-0-00000-why"

    /// A replica root whose shared document had the changes `shape` says.
    public init(_ shape: Shape) async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rp-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let storage = FileStorage(root: root)
        store = PreferencesStore<EPUB>(storage: storage)
        let shared = storage.path(of: .layer(configurable: "epub", .shared))
        journalPath = root.path + "/.readingprefs" + shared.dropFirst(root.path.utf8.count) + ".journal"
        try await store.device.keepHistory()
        let made: Int
        switch shape {
        case .why(let count):
            for index in 0..<count {
                let size = 1 + Double(index % 10) / 10
                try await store.edit { editor in try editor.set(.fontSize, size) }
            }
            made = count
        case .history(let count):
            var round = 0
            var left = count
            while left > 0 {
                round += 1
                var values: [String: JSONValue?] = [:]
                for key in 0..<min(left, Self.keysPerWrite) {
                    values[String(format: "appSetting%03d", key)] = .number(JSONNumber(round))
                }
                try await store.write(values, to: .shared)
                left -= values.count
            }
            made = count
        }
        let held = try await store.history.entries(in: .shared).count
        journalBytes = try Data(contentsOf: URL(fileURLWithPath: journalPath)).count
        entries = held
        // Every change is kept until the journal passes its byte bound.
        if journalBytes < JournalBounds.standard.maximumBytes / 2, held != made {
            throw WorkloadError("\(made) changes made, \(held) in the journal")
        }
        let lines = try bareParse()
        if lines != held { throw WorkloadError("\(held) entries in history, \(lines) lines in the journal") }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// `why fontSize` for a book: the effective value, every layer holding the key with its
    /// provenance (read from the layer's journal and sync sidecar), the default and the fallback.
    /// Returns the number of layers holding the key.
    public func explain() async throws -> Int {
        try await store.explanation(of: "fontSize", for: Self.book)?.holders.count ?? 0
    }

    /// Every change shared's journal holds, oldest first. Returns how many.
    public func history() async throws -> Int {
        try await store.history.entries(in: .shared).count
    }

    /// A bare read of the journal file, each line parsed by `JSONSerialization`. Returns the
    /// number of lines.
    public func bareParse() throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: journalPath))
        var lines: [Range<Int>] = []
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var start = 0
            for index in 0..<bytes.count where bytes[index] == 0x0A {
                if index > start { lines.append(start..<index) }
                start = index + 1
            }
        }
        var count = 0
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: data[line])
            if object is [String: Any] { count += 1 }
        }
        return count
    }
}
