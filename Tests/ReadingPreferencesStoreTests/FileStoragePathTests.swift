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

/// Where the file storage puts files, and the versions it reports.
@Suite("File storage paths and versions")
struct FileStoragePathTests {
    @Test(
        "a root whose name needs percent escapes in a URL maps to its real folder",
        arguments: ["plain", "with space", "100%", "caf\u{E9}", "a%20b", "trailing/"])
    func escapedRoots(name: String) async throws {
        let folder = try TemporaryFolder()
        let root = folder.url.appendingPathComponent(name)
        let storage = FileStorage(root: root)
        let expected = root.path.hasSuffix("/") ? String(root.path.dropLast()) : root.path
        #expect(storage.path(of: .device) == expected + "/device.json")
        try await PreferencesStore<EPUB>(storage: storage).write(["fontSize": 1.5], to: .shared)
        let shared = URL(fileURLWithPath: expected).appendingPathComponent("epub/shared.json")
        #expect(FileManager.default.fileExists(atPath: shared.path))
    }

    @Test("a loaded document's version is the file's device, inode, size and modification time")
    func versionText() async throws {
        let folder = try TemporaryFolder()
        let storage = FileStorage(root: folder.url)
        let location = StorageLocation.layer(configurable: "epub", .publication("urn:isbn:1"))
        _ = try await storage.save(["fontSize": 1.5], to: location, expecting: nil)
        let loaded = try #require(try await storage.load(location))
        var info = stat()
        #expect(stat(storage.path(of: location), &info) == 0)
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        #expect(
            loaded.version.rawValue
                == "\(info.st_dev):\(info.st_ino):\(info.st_size):\(modified.tv_sec).\(modified.tv_nsec)")
    }
}
