import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A save of one file is checked while its new content is flushed (Specs/Store.md §6.3): the
/// file is read and its version compared under its lock, on another thread, after the new content
/// was written beside it. Whatever the check finds, the file ends up replaced whole or as it was,
/// and no temporary file stays behind. Each test changes the file at the instant a process that
/// ignores the lock could: after the save's first look, before its check
/// (`StorageFaultPlan.atNextStep`).
@Suite("A save of one file")
struct LoneSaveTests {
    let folder: TemporaryFolder
    let faults = StorageFaultPlan()
    let storage: FileStorage
    let location = StorageLocation.layer(configurable: "epub", .shared)

    init() throws {
        folder = try TemporaryFolder()
        storage = FileStorage(root: folder.url, faults: faults)
    }

    var path: String { storage.path(of: location) }

    /// The temporary and prepared files left in the document's folder.
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path
        )
        .filter { $0.hasPrefix(".") && ($0.hasSuffix(".tmp") || $0.contains(".txn-")) }
    }

    func text() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// Saves at a version a hand edit made after the save's first look has made stale (and,
    /// with `writeFails`, arms a failure of the save's write too): the save is a conflict, the
    /// hand edit stays, and no temporary file does.
    func expectConflictWithAnEditBeforeTheCheck(writeFails: Bool) async throws {
        let first = try await storage.save(["fontSize": 1.2], to: location, expecting: nil)
        let path = self.path
        let edited = "{\n  \"fontSize\": 2\n}\n"
        faults.atNextStep { _ in try? Data(edited.utf8).write(to: URL(fileURLWithPath: path)) }
        if writeFails { faults.arm(after: 0) }
        let error = await #expect(throws: StorageError.self) {
            try await storage.save(["fontSize": 1.4], to: location, expecting: first)
        }
        #expect(error?.code == .conflict)
        #expect(try text() == edited)
        #expect(try leftovers().isEmpty)
    }

    @Test("a change made after the first look is a conflict: the file keeps it, and no temporary file stays")
    func changedBeforeTheCheck() async throws {
        try await expectConflictWithAnEditBeforeTheCheck(writeFails: false)
    }

    @Test("a file whose mode changes after the first look keeps its new mode")
    func modeChangedBeforeTheCheck() async throws {
        let first = try await storage.save(["fontSize": 1.2], to: location, expecting: nil)
        let path = self.path
        #expect(chmod(path, 0o644) == 0)
        faults.atNextStep { _ in _ = chmod(path, 0o600) }
        _ = try await storage.save(["fontSize": 1.4], to: location, expecting: first)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o7777 == 0o600)
        #expect(try text().contains("1.4"))
        #expect(try leftovers().isEmpty)
    }

    @Test("a file removed after the first look is made anew with a new file's mode, not the removed one's")
    func removedBeforeTheCheck() async throws {
        _ = try await storage.save(["fontSize": 1.2], to: location, expecting: nil)
        let path = self.path
        #expect(chmod(path, 0o600) == 0)
        faults.atNextStep { _ in _ = unlink(path) }
        _ = try await storage.save(["fontSize": 1.4], to: location, expecting: nil)
        // What this process gives any new file (its umask applied), without changing the umask.
        let reference = folder.path("reference")
        let descriptor = open(reference, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        #expect(descriptor >= 0)
        var expected = stat()
        #expect(fstat(descriptor, &expected) == 0)
        close(descriptor)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o7777 == expected.st_mode & 0o7777)
        #expect(try text().contains("1.4"))
        #expect(try leftovers().isEmpty)
    }

    @Test("a stale save is a conflict even when its write fails too: the check has the first word")
    func conflictBeforeAFailedWrite() async throws {
        try await expectConflictWithAnEditBeforeTheCheck(writeFails: true)
    }

    @Test(
        "a file given a second hard link after the first look is refused, left as it was, and no temporary file stays"
    )
    func hardLinkedBeforeTheCheck() async throws {
        let first = try await storage.save(["fontSize": 1.2], to: location, expecting: nil)
        let before = try text()
        let (path, other) = (self.path, folder.path("other.json"))
        faults.atNextStep { _ in _ = link(path, other) }
        let error = await #expect(throws: StorageError.self) {
            try await storage.save(["fontSize": 1.4], to: location, expecting: first)
        }
        #expect(error?.code == .io)
        #expect(error?.message.contains("2 hard links") == true, "\(String(describing: error))")
        #expect(try text() == before)
        #expect(try leftovers().isEmpty)
    }

    @Test("a save through a symbolic link replaces the file it names, keeps the link and the file's mode")
    func throughALink() async throws {
        let real = folder.path("real.json")
        try Data("{\n  \"fontSize\": 1.2\n}\n".utf8).write(to: URL(fileURLWithPath: real))
        #expect(chmod(real, 0o640) == 0)
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(symlink(real, path) == 0)
        let loaded = try #require(try await storage.load(location))
        _ = try await storage.save(["fontSize": 1.4], to: location, expecting: loaded.version)
        var link = stat()
        #expect(lstat(path, &link) == 0)
        #expect(link.st_mode & S_IFMT == S_IFLNK)
        var status = stat()
        #expect(stat(real, &status) == 0)
        #expect(status.st_mode & 0o7777 == 0o640)
        #expect(try String(contentsOfFile: real, encoding: .utf8).contains("1.4"))
        #expect(try leftovers().isEmpty)
    }
}
