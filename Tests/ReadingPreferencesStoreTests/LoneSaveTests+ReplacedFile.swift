import Foundation
import ReadingPreferences
import TestSupport
import Testing

@testable import ReadingPreferencesStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A save keeps the file it replaces open from its check until its caller is answered, and
/// closes it then (Specs/Store.md §6.3): nothing stays open, after saves that replace a file,
/// saves whose write fails, saves refused as stale, and saves that make the file.
extension LoneSaveTests {
    /// The descriptors this process holds on files under the test's folder, removed ones
    /// included (other tests running at once hold their own).
    func descriptorsHeld() -> Int {
        // The folder as the system names it (on Apple platforms, /private/var/…).
        var prefix = folder.url.path + "/"
        if let resolved = realpath(folder.url.path, nil) {
            prefix = String(cString: resolved) + "/"
            free(resolved)
        }
        var count = 0
        for descriptor in Int32(0)..<4096 where fcntl(descriptor, F_GETFD) != -1 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            #if canImport(Darwin)
                guard fcntl(descriptor, F_GETPATH, &buffer) != -1 else { continue }
            #else
                guard readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1) > 0 else { continue }
            #endif
            let path = String(
                decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if path.hasPrefix(prefix) { count += 1 }
        }
        return count
    }

    /// The most descriptors a test allows still open after its saves: the close of the last
    /// save's replaced file comes after its caller is answered, on another thread, so one (or,
    /// on a machine under load, a few) may still be on its way. A lost close leaves one per save.
    var closesOnTheirWay: Int { 4 }

    @Test("after 200 saves that each replace the file, no replaced file stays open")
    func replacedFilesAreClosed() async throws {
        var version = try await storage.save(["fontSize": 1], to: location, expecting: nil)
        for index in 0..<200 {
            version = try await storage.save(
                ["fontSize": .number(JSONNumber(index))], to: location, expecting: version)
        }
        #expect(descriptorsHeld() <= closesOnTheirWay)
        let stored = try await storage.load(location)
        #expect(stored?.preferences["fontSize"] == .number(JSONNumber(199)))
    }

    @Test(
        "after 100 saves whose write fails once their check passed, no file stays open and the file is as it was"
    )
    func failedSavesCloseTheFile() async throws {
        let path = storage.path(of: location)
        let version = try await storage.save(["fontSize": 1], to: location, expecting: nil)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        for _ in 0..<100 {
            faults.arm(after: 0)
            let error = await #expect(throws: StorageError.self) {
                try await storage.save(["fontSize": 2], to: location, expecting: version)
            }
            #expect(error?.code == .io)
        }
        faults.arm(after: nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
        #expect(descriptorsHeld() <= closesOnTheirWay)
    }

    @Test(
        "after 100 saves refused as stale (a hand edit came first), no file stays open and each edit is kept")
    func staleSavesCloseTheFile() async throws {
        let path = storage.path(of: location)
        var version = try await storage.save(["fontSize": 1], to: location, expecting: nil)
        for index in 0..<100 {
            let edited = "{\n  \"fontSize\": \(index + 1000)\n}\n"
            try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
            let error = await #expect(throws: StorageError.self) {
                try await storage.save(["fontSize": 2], to: location, expecting: version)
            }
            #expect(error?.code == .conflict)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
            version = try #require(try await storage.load(location)).version
        }
        #expect(descriptorsHeld() <= closesOnTheirWay)
    }

    @Test(
        "after 50 rounds of a save that makes the file and one refused because it appeared, no file stays open"
    )
    func newFiles() async throws {
        let path = storage.path(of: location)
        for _ in 0..<50 {
            _ = try await storage.save(["fontSize": 2], to: location, expecting: nil)
            let error = await #expect(throws: StorageError.self) {
                try await storage.save(["fontSize": 3], to: location, expecting: nil)
            }
            #expect(error?.code == .conflict)
            try FileManager.default.removeItem(atPath: path)
        }
        #expect(descriptorsHeld() <= closesOnTheirWay)
    }

    @Test("after 50 saves refused once their check read the file (it gained a hard link), no file stays open")
    func refusedAfterTheReadCloseTheFile() async throws {
        let version = try await storage.save(["fontSize": 1], to: location, expecting: nil)
        let (path, other) = (storage.path(of: location), folder.path("other.json"))
        for _ in 0..<50 {
            faults.atNextStep { _ in _ = link(path, other) }
            let error = await #expect(throws: StorageError.self) {
                try await storage.save(["fontSize": 2], to: location, expecting: version)
            }
            #expect(error?.code == .io)
            #expect(unlink(other) == 0)
        }
        #expect(descriptorsHeld() <= closesOnTheirWay)
    }

    @Test("the file systems a save keeps a replaced file open on are local ones; a pipe and /proc are not")
    func localFileSystems() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        #expect(!LocalFileSystem.holds(ends[0]))
        #if canImport(Darwin)
            let local = folder.path("local.json")
        #else
            let procfs = open("/proc/self/status", O_RDONLY)
            #expect(procfs >= 0)
            defer { close(procfs) }
            #expect(!LocalFileSystem.holds(procfs))
            // tmpfs, which every Linux system mounts there.
            let local = "/dev/shm/readingprefs-\(UUID().uuidString)"
        #endif
        let file = open(local, O_RDWR | O_CREAT | O_EXCL, 0o600)
        #expect(file >= 0)
        defer {
            close(file)
            unlink(local)
        }
        #expect(LocalFileSystem.holds(file))
    }
}
