import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `readingprefs edit` respects files (issue 11, findings 3 and 4): links, modes, owners, hard
/// links, leftovers, concurrent runs and layout.
@Suite("readingprefs edit respects files", .serialized)
struct EditCommandTests {
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o7777
    }

    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test("editing through a symbolic link updates the file it names and keeps the link and the mode")
    func symbolicLink() throws {
        let folder = try TemporaryFolder()
        let target = folder.path("real.json")
        let link = folder.path("link.json")
        try #"{"theme":"dark"}"#.write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, 0o640)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.json")
        let outcome = try CommandLineTool.run(["edit", link, "set", "fontSize", "1.5"])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.json")
        #expect(try Self.read(target) == #"{"theme":"dark","fontSize":1.5}"#)
        #expect(Self.mode(target) == 0o640)
    }

    @Test("a new file gets an ordinary mode, not 0777")
    func newFileMode() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("new.json")
        let outcome = try CommandLineTool.run(["edit", path, "set", "theme", "sepia"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let mask = umask(0)
        umask(mask)
        #expect(Self.mode(path) == 0o666 & ~mask)
    }

    @Test("a file with several hard links is refused with the reason, and left unchanged")
    func hardLinks() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("prefs.json")
        try #"{"theme":"dark"}"#.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(link(path, folder.path("other.json")) == 0)
        let outcome = try CommandLineTool.run(["edit", path, "set", "fontSize", "1.5"])
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("2 hard links"), "\(outcome.error)")
        #expect(try Self.read(path) == #"{"theme":"dark"}"#)
    }

    @Test(
        "the owner is kept when an administrator edits another user's file",
        .enabled(if: geteuid() == 0, "only an administrator can give files away"))
    func owner() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("prefs.json")
        try #"{}"#.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chown(path, 12345, 23456) == 0)
        let outcome = try CommandLineTool.run(["edit", path, "set", "scroll", "true"])
        #expect(outcome.status == 0, "\(outcome.error)")
        var info = stat()
        _ = stat(path, &info)
        #expect(info.st_uid == 12345 && info.st_gid == 23456)
    }

    /// An administrator may write any file, so as one the edit runs as `nobody` instead.
    @Test(
        "a read-only file or folder is reported with the system's reason",
        .enabled(
            if: geteuid() != 0 || CommandLineTool.switchUser != nil,
            "an administrator may write anything, and there is no setpriv to run as another user"))
    func readOnly() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("prefs.json")
        try #"{}"#.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o444)
        let outcome = try CommandLineTool.run(
            ["edit", path, "set", "scroll", "true"], as: geteuid() == 0 ? (65534, 65534) : nil)
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("Permission denied"), "\(outcome.error)")
        #expect(!outcome.error.contains("flushing"))
        #expect(try Self.read(path) == #"{}"#)
    }

    @Test("a killed run's temporary file is removed by the next edit")
    func leftovers() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("prefs.json")
        try #"{}"#.write(toFile: path, atomically: false, encoding: .utf8)
        let leftover = folder.path(".prefs.json.tmp")
        try Data(repeating: 0x41, count: 3 * 1024 * 1024).write(to: URL(fileURLWithPath: leftover))
        let outcome = try CommandLineTool.run(["edit", path, "toggle", "scroll"])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        // Nothing beside the user's file: the lock is its folder.
        #expect(names == ["prefs.json"])
    }

    @Test("twenty concurrent increments lose no update")
    func concurrentEdits() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("pdf.json")
        try await withThrowingTaskGroup(of: Int32.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try CommandLineTool.run([
                        "edit", path, "increment", "pageSpacing", "--configurable", "pdf",
                    ]).status
                }
            }
            for try await status in group { #expect(status == 0) }
        }
        #expect(try Self.read(path).contains(#""pageSpacing": 80"#))
    }

    @Test("a one-line file stays on one line, a pretty one stays pretty")
    func layout() throws {
        let folder = try TemporaryFolder()
        let compact = folder.path("compact.json")
        try #"{"theme":"dark"}"#.write(toFile: compact, atomically: false, encoding: .utf8)
        #expect(try CommandLineTool.run(["edit", compact, "set", "scroll", "true"]).status == 0)
        #expect(try Self.read(compact) == #"{"theme":"dark","scroll":true}"#)
        let pretty = folder.path("pretty.json")
        try "{\n  \"theme\": \"dark\"\n}\n".write(toFile: pretty, atomically: false, encoding: .utf8)
        #expect(try CommandLineTool.run(["edit", pretty, "set", "scroll", "true"]).status == 0)
        #expect(try Self.read(pretty) == "{\n  \"theme\": \"dark\",\n  \"scroll\": true\n}\n")
    }

    @Test("an enum value that parses as a number is taken as its string: set columnCount 2")
    func enumNumber() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("prefs.json")
        let outcome = try CommandLineTool.run(["edit", path, "set", "columnCount", "2"])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(try Self.read(path).contains(#""columnCount": "2""#))
    }
}

/// The other papercuts of the command line (issue 11, finding 11).
@Suite("readingprefs papercuts", .serialized)
struct CommandPapercutTests {
    @Test("a repeated option is a usage error")
    func repeatedOption() throws {
        let outcome = try CommandLineTool.run(["inspect", "--configurable", "pdf", "--configurable", "tts"])
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("--configurable is given more than once"))
    }

    @Test("a defaults file whose values have no effect is reported")
    func badDefaults() throws {
        let folder = try TemporaryFolder()
        let defaults = folder.path("defaults.json")
        try ##"{"theme":"purple","textColor":"#FF0000","pageMargins":2}"##.write(
            toFile: defaults, atomically: false, encoding: .utf8)
        let outcome = try CommandLineTool.run(["resolve", "--defaults", defaults])
        #expect(outcome.status == 0)
        #expect(
            outcome.error.contains(#"theme: unsupportedValue: unsupported value "purple"; ignored"#),
            "\(outcome.error)")
        #expect(outcome.error.contains("textColor"))
        #expect(!outcome.error.contains("pageMargins"))
    }

    @Test("toggles read On and Off, and reasons name settings by title")
    func table() throws {
        let outcome = try CommandLineTool.run(["inspect"])
        #expect(outcome.status == 0)
        let hyphens = outcome.output.split(separator: "\n").first { $0.hasPrefix("hyphens ") } ?? ""
        #expect(hyphens.contains(" Off "), "\(hyphens)")
        let imageFilter = outcome.output.split(separator: "\n").first { $0.hasPrefix("imageFilter ") } ?? ""
        #expect(imageFilter.contains("Requires Theme to be Dark"), "\(imageFilter)")
    }

    @Test("a diagnostic shows the rejected value")
    func rejectedValue() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("prefs.json")
        try #"{"theme":"purple"}"#.write(toFile: path, atomically: false, encoding: .utf8)
        let outcome = try CommandLineTool.run(["validate", path])
        #expect(outcome.status == 1)
        #expect(outcome.output.contains(#""purple""#))
    }

    @Test("migrate-legacy says an unknown key is not migrated")
    func migrateLegacyUnknownKey() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("legacy.json")
        try #"{"--USER__fontSize":150,"--USER__unknown":1}"#.write(
            toFile: path, atomically: false, encoding: .utf8)
        let outcome = try CommandLineTool.run(["migrate-legacy", path])
        #expect(outcome.status == 0)
        #expect(outcome.error.contains("not migrated"))
        #expect(!outcome.error.contains("kept as is"))
    }
}
