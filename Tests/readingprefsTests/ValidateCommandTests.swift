import Foundation
import TestSupport
import Testing

/// `readingprefs validate` on every hostile input: the built executable, run as a user would.
@Suite("Hostile input through readingprefs validate (Specs/README.md §1)")
struct ValidateCommandTests {
    @Test(
        "validate answers each hostile input in one line, exit status 1 for errors and diagnostics other than unknownKey",
        arguments: HostileInput.all)
    func validate(_ input: HostileInput) throws {
        _ = try #require(CommandLineTool.executable, "readingprefs is not built next to the test bundle")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rp-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("preferences.json")
        try Data(input.bytes()).write(to: file)

        let outcome = try CommandLineTool.run(["validate", file.path])
        let (status, output) = (outcome.status, outcome.output + outcome.error)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "\(output)")
        #expect(status == input.validateExitStatus, "\(output)")
        if case .error = input.outcome {
            #expect(output.hasPrefix("readingprefs: error: \(file.path): "))
        }
    }

    @Test("validate accepts unknown keys with odd numbers: they are informational")
    func unknownKeys() throws {
        _ = try #require(CommandLineTool.executable, "readingprefs is not built next to the test bundle")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rp-unknown-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"newerAppKey":1e400}"#.utf8).write(to: file)
        let outcome = try CommandLineTool.run(["validate", file.path])
        let (status, output) = (outcome.status, outcome.output + outcome.error)
        #expect(status == 0)
        #expect(output.hasPrefix("newerAppKey: ") && output.contains("unknown"))
        #expect(output.split(separator: "\n").count == 1)
    }
}
