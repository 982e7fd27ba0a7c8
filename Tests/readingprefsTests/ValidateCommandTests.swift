import Foundation
import TestSupport
import Testing

/// `readingprefs validate` on every hostile input: the built executable, run as a user would.
@Suite("Hostile input through readingprefs validate (SPEC 11)")
struct ValidateCommandTests {
    @Test(
        "validate answers each hostile input in one line, exit status 1 for errors and diagnostics other than unknownKey",
        arguments: HostileInput.all)
    func validate(_ input: HostileInput) throws {
        let tool = try #require(Self.executable, "readingprefs is not built next to the test bundle")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rp-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("preferences.json")
        try Data(input.bytes()).write(to: file)

        let (status, output) = try Self.run(tool, ["validate", file.path])
        let lines = output.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "\(output)")
        #expect(status == input.validateExitStatus, "\(output)")
        if case .error = input.outcome {
            #expect(output.hasPrefix("readingprefs: error: \(file.path): "))
        }
    }

    @Test("validate accepts unknown keys with odd numbers: they are informational")
    func unknownKeys() throws {
        let tool = try #require(Self.executable, "readingprefs is not built next to the test bundle")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rp-unknown-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"newerAppKey":1e400}"#.utf8).write(to: file)
        let (status, output) = try Self.run(tool, ["validate", file.path])
        #expect(status == 0)
        #expect(output.hasPrefix("newerAppKey: ") && output.contains("unknown"))
        #expect(output.split(separator: "\n").count == 1)
    }

    /// The `readingprefs` executable in the build products folder that holds the test bundle.
    static let executable: URL? = {
        var folders: [URL] = []
        if let url = Bundle.main.executableURL { folders.append(url.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL)
        folders.append(contentsOf: Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() })
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        return folders.lazy.map { $0.appendingPathComponent("readingprefs") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs the tool; returns its exit status and its standard output and error, together.
    static func run(_ tool: URL, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
