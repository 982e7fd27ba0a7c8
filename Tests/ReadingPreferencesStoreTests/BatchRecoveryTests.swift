import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// A commit record a crash left behind is finished only when every prepared content it names is
/// whole (Specs/Store.md §6.3): the record, the prepared files and the records folder are flushed
/// together, so after a power cut the record may be there while a prepared file is not whole.
///
/// Each test lays out on disk what a batch of two documents (shared and a book) leaves at some
/// instant, then reads through a fresh `FileStorage`, which finishes or drops the batch first.
@Suite("Recovery of a two-document batch")
struct BatchRecoveryTests {
    static let shared = StorageLocation.layer(configurable: "epub", .shared)
    static let book = StorageLocation.layer(configurable: "epub", .publication("urn:isbn:978-0"))
    static let oldShared = Data("{\n  \"fontSize\": 1.2\n}\n".utf8)
    static let newShared = Data("{\n  \"fontSize\": 1.4\n}\n".utf8)
    static let oldBook = Data("{\n  \"readingProgression\": \"ltr\"\n}\n".utf8)
    static let newBook = Data("{\n  \"readingProgression\": \"rtl\"\n}\n".utf8)

    /// A root whose two documents hold the old contents, and their paths relative to it.
    struct Root {
        let folder: TemporaryFolder
        let sharedPath: String
        let bookPath: String
        /// The versions of the old contents, which a batch's record names as each file's `old`.
        let oldSharedVersion: String
        let oldBookVersion: String

        init() async throws {
            folder = try TemporaryFolder()
            let storage = FileStorage(root: folder.url)
            // Made through the storage (for the book's file name), then given these exact bytes.
            try await storage.save(
                Preferences(json: BatchRecoveryTests.oldShared), to: BatchRecoveryTests.shared, expecting: nil
            )
            try await storage.save(
                Preferences(json: BatchRecoveryTests.oldBook), to: BatchRecoveryTests.book, expecting: nil)
            sharedPath = "epub/shared.json"
            oldSharedVersion = try await BatchRecoveryTests.version(of: BatchRecoveryTests.oldShared)
            oldBookVersion = try await BatchRecoveryTests.version(of: BatchRecoveryTests.oldBook)
            let publications = try FileManager.default.contentsOfDirectory(
                atPath: folder.path("epub/publications"))
            let name = try #require(publications.first { $0.hasSuffix(".json") })
            bookPath = "epub/publications/" + name
            try BatchRecoveryTests.oldShared.write(to: folder.url.appendingPathComponent(sharedPath))
            try BatchRecoveryTests.oldBook.write(to: folder.url.appendingPathComponent(bookPath))
            #expect(
                try Data(contentsOf: folder.url.appendingPathComponent(sharedPath))
                    == BatchRecoveryTests.oldShared)
            #expect(
                try Data(contentsOf: folder.url.appendingPathComponent(bookPath))
                    == BatchRecoveryTests.oldBook)
        }

        func prepared(_ path: String) -> String {
            let url = URL(fileURLWithPath: path)
            return url.deletingLastPathComponent().relativePath + "/." + url.lastPathComponent
                + ".txn-00000000000000ab"
        }

        func write(_ data: Data, _ path: String) throws {
            try data.write(to: folder.url.appendingPathComponent(path))
        }

        func read(_ path: String) throws -> Data {
            try Data(contentsOf: folder.url.appendingPathComponent(path))
        }

        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: folder.path(path)) }

        /// Writes the commit record naming both prepared files, their versions and the versions
        /// the batch found, as a batch writes it.
        func record(sharedVersion: String, bookVersion: String) throws {
            try record([
                [
                    "file": sharedPath, "prepared": prepared(sharedPath), "new": sharedVersion,
                    "old": oldSharedVersion,
                ],
                [
                    "file": bookPath, "prepared": prepared(bookPath), "new": bookVersion,
                    "old": oldBookVersion,
                ],
            ])
        }

        /// Lays out a whole batch cut short after its commit point: both new contents prepared,
        /// and the record naming them.
        func prepareBothNew() async throws {
            try write(BatchRecoveryTests.newShared, prepared(sharedPath))
            try write(BatchRecoveryTests.newBook, prepared(bookPath))
            try record(
                sharedVersion: try await BatchRecoveryTests.version(of: BatchRecoveryTests.newShared),
                bookVersion: try await BatchRecoveryTests.version(of: BatchRecoveryTests.newBook))
        }

        /// Writes a commit record of these writes.
        func record(_ writes: [[String: String]]) throws {
            try FileManager.default.createDirectory(
                atPath: folder.path(".readingprefs/batches"), withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: ["writes": writes]).write(
                to: folder.url.appendingPathComponent(".readingprefs/batches/00000000000000ab.json"))
        }

        var recordExists: Bool { exists(".readingprefs/batches/00000000000000ab.json") }
    }

    /// The version a file storage gives these bytes, read through a scratch root.
    static func version(of data: Data) async throws -> String {
        let scratch = try TemporaryFolder()
        try FileManager.default.createDirectory(
            atPath: scratch.path("epub"), withIntermediateDirectories: true)
        try data.write(to: scratch.url.appendingPathComponent("epub/shared.json"))
        return try #require(try await FileStorage(root: scratch.url).load(shared)?.version.rawValue)
    }

    @Test("a record whose prepared files are whole is finished: both documents are new")
    func wholeBatchIsFinished() async throws {
        let root = try await Root()
        try await root.prepareBothNew()
        let storage = FileStorage(root: root.folder.url)
        #expect(try await storage.load(Self.shared)?.preferences["fontSize"] == 1.4)
        #expect(try await storage.load(Self.book)?.preferences["readingProgression"] == "rtl")
        #expect(!root.recordExists)
        #expect(!root.exists(root.prepared(root.sharedPath)) && !root.exists(root.prepared(root.bookPath)))
    }

    @Test("a record cut short during its renames is finished: the renamed file counts as whole")
    func halfAppliedBatchIsFinished() async throws {
        let root = try await Root()
        try root.write(Self.newShared, root.sharedPath)  // renamed already
        try root.write(Self.newBook, root.prepared(root.bookPath))
        try root.record(
            sharedVersion: try await Self.version(of: Self.newShared),
            bookVersion: try await Self.version(of: Self.newBook))
        let storage = FileStorage(root: root.folder.url)
        #expect(try await storage.load(Self.book)?.preferences["readingProgression"] == "rtl")
        #expect(try root.read(root.sharedPath) == Self.newShared)
        #expect(!root.recordExists)
    }

    @Test("a record naming a prepared file that is not whole is dropped: both documents stay old")
    func tornPreparedFileDropsTheBatch() async throws {
        let root = try await Root()
        try root.write(Self.newShared, root.prepared(root.sharedPath))
        // The power went before this file's flush completed: its end is missing.
        try root.write(Self.newBook.prefix(9), root.prepared(root.bookPath))
        try root.record(
            sharedVersion: try await Self.version(of: Self.newShared),
            bookVersion: try await Self.version(of: Self.newBook))
        let storage = FileStorage(root: root.folder.url)
        #expect(try await storage.load(Self.shared)?.preferences["fontSize"] == 1.2)
        #expect(try root.read(root.bookPath) == Self.oldBook)
        #expect(!root.recordExists)
        #expect(!root.exists(root.prepared(root.sharedPath)) && !root.exists(root.prepared(root.bookPath)))
    }

    @Test("a record naming a prepared file that is gone, its target still old, is dropped")
    func missingPreparedFileDropsTheBatch() async throws {
        let root = try await Root()
        try root.write(Self.newShared, root.prepared(root.sharedPath))
        try root.record(
            sharedVersion: try await Self.version(of: Self.newShared),
            bookVersion: try await Self.version(of: Self.newBook))
        let storage = FileStorage(root: root.folder.url)
        #expect(try await storage.load(Self.shared)?.preferences["fontSize"] == 1.2)
        #expect(try root.read(root.bookPath) == Self.oldBook)
        #expect(!root.recordExists)
    }

    @Test("a whole record that saves one document and removes another finishes both")
    func saveAndRemovalAreFinished() async throws {
        let root = try await Root()
        try root.write(Self.newShared, root.prepared(root.sharedPath))
        try root.record([
            [
                "file": root.sharedPath, "prepared": root.prepared(root.sharedPath),
                "new": try await Self.version(of: Self.newShared), "old": root.oldSharedVersion,
            ],
            ["file": root.bookPath, "old": try await Self.version(of: Self.oldBook)],
        ])
        let storage = FileStorage(root: root.folder.url)
        #expect(try await storage.load(Self.shared)?.preferences["fontSize"] == 1.4)
        #expect(!root.exists(root.bookPath))
        #expect(!root.recordExists)
    }

    @Test("a document edited by hand between the crash and the finish keeps the edit; the other is finished")
    func handEditAfterTheCrashIsKept() async throws {
        let root = try await Root()
        try await root.prepareBothNew()
        // The app crashed after the commit point; before it runs again, a person edits shared.
        let handEdit = Data("{\n  \"fontSize\": 2.0\n}\n".utf8)
        try root.write(handEdit, root.sharedPath)
        let storage = FileStorage(root: root.folder.url)
        #expect(try await storage.load(Self.book)?.preferences["readingProgression"] == "rtl")
        #expect(try root.read(root.sharedPath) == handEdit)
        #expect(!root.recordExists)
        #expect(!root.exists(root.prepared(root.sharedPath)) && !root.exists(root.prepared(root.bookPath)))
    }

    @Test("a document the batch was to create, made by hand meanwhile, is kept")
    func fileMadeByHandAfterTheCrashIsKept() async throws {
        let root = try await Root()
        let made = "epub/publications/made-by-hand.json"
        try root.write(Self.newShared, root.prepared(made))
        try root.record([
            [
                "file": made, "prepared": root.prepared(made),
                "new": try await Self.version(of: Self.newShared),
            ]
        ])
        try root.write(Self.oldShared, made)
        _ = try await FileStorage(root: root.folder.url).load(Self.shared)
        #expect(try root.read(made) == Self.oldShared)
        #expect(!root.recordExists && !root.exists(root.prepared(made)))
    }

    @Test("removeLeftovers removes a prepared file that no record names, and keeps the documents")
    func leftoverPreparedFileIsRemoved() async throws {
        let root = try await Root()
        try root.write(Self.newShared, root.prepared(root.sharedPath))
        let removed = FileStorage(root: root.folder.url).removeLeftovers()
        #expect(removed == 1)
        #expect(!root.exists(root.prepared(root.sharedPath)))
        #expect(try root.read(root.sharedPath) == Self.oldShared)
        #expect(try root.read(root.bookPath) == Self.oldBook)
    }
}
