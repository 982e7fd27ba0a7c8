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
        #expect(storage.path(of: .device) == expected + "/.readingprefs/device.json")
        try await PreferencesStore<EPUB>(storage: storage).write(["fontSize": 1.5], to: .shared)
        let shared = URL(fileURLWithPath: expected).appendingPathComponent("epub/shared.json")
        #expect(FileManager.default.fileExists(atPath: shared.path))
    }

    @Test(
        "a version is a digest of the bytes: equal bytes, equal versions; any change, even of same size and time, a new one"
    )
    func versionText() async throws {
        let folder = try TemporaryFolder()
        let storage = FileStorage(root: folder.url)
        let location = StorageLocation.layer(configurable: "epub", .publication("urn:isbn:1"))
        let saved = try await storage.save(["fontSize": 1.5], to: location, expecting: nil)
        let path = storage.path(of: location)
        let loaded = try #require(try await storage.load(location))
        #expect(loaded.version == saved)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(saved.rawValue.hasSuffix("-\(bytes.count)"))
        // A person changes one digit, and puts the modification time back.
        var before = stat()
        #expect(stat(path, &before) == 0)
        try Data(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "1.5", with: "1.6").utf8)
            .write(
                to: URL(fileURLWithPath: path))
        #if canImport(Darwin)
            var times = [before.st_atimespec, before.st_mtimespec]
        #else
            var times = [before.st_atim, before.st_mtim]
        #endif
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let edited = try #require(try await storage.load(location))
        #expect(edited.version != saved)
        await #expect(throws: StorageError.self) {
            _ = try await storage.save(["fontSize": 1.7], to: location, expecting: saved)
        }
        // Removed and written again with other contents: the old version never comes back.
        try await storage.remove(location, expecting: edited.version)
        let again = try await storage.save(["fontSize": 1.8], to: location, expecting: nil)
        #expect(again != saved && again != edited.version)
    }
}
