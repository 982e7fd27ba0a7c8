import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store's write killed at any instant leaves the old file or the new one (Specs/Store.md §6.1, §6.3).
///
/// The helper is the `DurableWriteProbe` executable of this package (Tests/DurableWriteProbe),
/// built next to the test bundle like `readingprefs` and found the same way: it writes the
/// document of iteration k through a store over a file storage, the path apps run, then prints
/// k. The test waits for at least one acknowledgement, lets it run for a random extra time,
/// kills it with SIGKILL, and checks the file parses and is iteration k or k + 1.
@Suite("Crash safety of the durable write", .serialized)
struct CrashSafetyTests {
    static let probe: URL? = CommandLineTool.executable.map {
        $0.deletingLastPathComponent().appendingPathComponent("DurableWriteProbe")
    }

    @Test("200 kills at random instants never leave a torn or stale file")
    func kills() throws {
        let probe = try #require(Self.probe, "DurableWriteProbe is not built next to the tests")
        let folder = try TemporaryFolder()
        let path = folder.path("epub/shared.json")
        var random = PropertyRandom(seed: 0xC0FFEE)
        for round in 0..<200 {
            let process = Process()
            process.executableURL = probe
            process.arguments = [folder.url.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            // Read acknowledgements until at least one arrived, then a random extra time.
            var acknowledged = Data()
            let reader = pipe.fileHandleForReading
            while !acknowledged.contains(0x0A) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                acknowledged.append(chunk)
            }
            usleep(UInt32(random.int(in: 0...4_000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            acknowledged.append(reader.readDataToEndOfFile())
            let lines = String(decoding: acknowledged, as: UTF8.self).split(separator: "\n")
            let last = try #require(lines.last.flatMap { Int($0) }, "round \(round): no acknowledgement")
            let document = try Preferences(json: Data(contentsOf: URL(fileURLWithPath: path)))
            let iteration = document["iteration"]?.numberValue?.integerValue ?? -1
            // Each run starts at iteration 0 again: the file is the last acknowledged one or the next.
            #expect(
                iteration == last || iteration == last + 1,
                "round \(round): file holds \(iteration) after \(last)")
            #expect(document["payload"]?.stringValue?.count == 10 * (1 + iteration % 300))
        }
    }

    @Test("100 kills during two-document batches never leave one document ahead of the other")
    func killsDuringBatches() async throws {
        let probe = try #require(Self.probe, "DurableWriteProbe is not built next to the tests")
        let folder = try TemporaryFolder()
        let storage = FileStorage(root: folder.url)
        let shared = StorageLocation.layer(configurable: "epub", .shared)
        let book = StorageLocation.layer(configurable: "epub", .publication("urn:isbn:978-0"))
        var random = PropertyRandom(seed: 0xBA7C4)
        var unfinished = 0
        for round in 0..<100 {
            let process = Process()
            process.executableURL = probe
            process.arguments = [folder.url.path, "batch"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            var acknowledged = Data()
            let reader = pipe.fileHandleForReading
            while !acknowledged.contains(0x0A) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                acknowledged.append(chunk)
            }
            usleep(UInt32(random.int(in: 0...6_000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            acknowledged.append(reader.readDataToEndOfFile())
            let lines = String(decoding: acknowledged, as: UTF8.self).split(separator: "\n")
            let last = try #require(lines.last.flatMap { Int($0) }, "round \(round): no acknowledgement")
            if Self.hasRecord(folder) { unfinished += 1 }
            // A read finishes a batch the kill cut short, then both documents agree.
            let first = try #require(
                try await storage.load(shared)?.preferences["iteration"]?.numberValue?.integerValue)
            let second = try #require(
                try await storage.load(book)?.preferences["iteration"]?.numberValue?.integerValue)
            #expect(first == second, "round \(round): shared holds \(first), the book \(second)")
            #expect(first == last || first == last + 1, "round \(round): \(first) after \(last)")
        }
        #expect(!Self.hasRecord(folder), "a read leaves no commit record behind")
        // How often a kill landed between a batch's commit point and its end, for the record.
        print("CrashSafetyTests: \(unfinished) of 100 kills left a commit record")
    }

    /// Whether the root holds a batch's commit record (Specs/Store.md §6.3).
    static func hasRecord(_ folder: TemporaryFolder) -> Bool {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: folder.path(".readingprefs/batches"))) ?? []
        return names.contains { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
    }
}
