import Foundation
import ReadingPreferences
import TestSupport
import Testing

/// `readingprefs store` and `readingprefs sync` as a person uses them (issue 20): every change is
/// said, every error says what is expected, and the exit statuses are 0, 1 and 2.
@Suite("readingprefs store and sync, as a person uses them")
struct StoreCommandTests {
    /// A store root in a temporary folder.
    struct Root {
        let folder: TemporaryFolder
        var path: String { folder.path("store") }

        init() throws { folder = try TemporaryFolder() }

        @discardableResult
        func store(_ arguments: String...) throws -> CommandLineTool.Outcome {
            try CommandLineTool.run(["store", "--root", path] + arguments)
        }

        func shared() throws -> Preferences {
            try Preferences(json: Data(contentsOf: URL(fileURLWithPath: path + "/epub/shared.json")))
        }
    }

    @Test("item 1: set says what it wrote: key, layer and file, old → new, clamping and activation")
    func setSaysWhat() throws {
        let root = try Root()
        let clamped = try root.store("set", "fontSize", "9")
        #expect(clamped.status == 0)
        #expect(
            clamped.output == "fontSize: none → 5 in shared (epub/shared.json) (9 asked; kept within 0.1…5)\n"
        )
        let activation = try root.store("set", "lineHeight", "1.6")
        #expect(
            activation.output
                == "lineHeight: none → 1.6 in shared (epub/shared.json)\n"
                + "publisherStyles: none → false in shared (epub/shared.json) (written so that lineHeight takes effect)\n"
        )
        let json = try root.store("set", "fontSize", "1.2", "--json")
        let changes = try #require(try JSONValue(json: json.output).objectValue?["changes"]?.arrayValue)
        #expect(changes.count == 1)
        #expect(changes.first?.objectValue?["old"] == 5)
        #expect(changes.first?.objectValue?["new"] == 1.2)
        #expect(changes.first?.objectValue?["layer"] == "shared")
        let removed = try root.store("remove", "fontSize")
        #expect(removed.output == "fontSize: 1.2 → none in shared (epub/shared.json)\n")
    }

    @Test("item 2: --layer puts a shared key in one book's file; publication needs --publication")
    func explicitLayer() throws {
        let root = try Root()
        let book = try root.store("set", "fontSize", "1.45", "--publication", "X", "--layer", "publication")
        #expect(book.status == 0)
        #expect(book.output.hasPrefix("fontSize: none → 1.45 in publication (epub/publications/x-"))
        #expect(!FileManager.default.fileExists(atPath: root.path + "/epub/shared.json"))
        let missing = try root.store("set", "fontSize", "1.45", "--layer", "publication")
        #expect(missing.status == 2)
        #expect(missing.error.contains("--layer publication needs --publication ID"))
        let bogus = try root.store("set", "fontSize", "1.45", "--layer", "everywhere")
        #expect(bogus.status == 2)
        #expect(bogus.error.contains("expected one of shared, profile, publication (or book), base"))
    }

    @Test("item 3: remove with a profile active says that nothing was removed, where the key is and how")
    func removeUnderProfile() throws {
        let root = try Root()
        try root.store("set", "fontSize", "1.4")
        try root.store("profile", "create", "Night")
        try root.store("profile", "activate", "Night")
        let outcome = try root.store("remove", "fontSize")
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("nothing removed: shared (epub/shared.json) holds 1.4"))
        #expect(outcome.output.contains("use --layer shared"))
        let there = try root.store("remove", "fontSize", "--layer", "shared")
        #expect(there.output == "fontSize: 1.4 → none in shared (epub/shared.json)\n")
    }

    @Test(
        "item 4: every error says what is expected",
        arguments: [
            (["set", "fontSize", "big"], 1, "expected a number from 0.1 to 5"),
            (["set", "theme", "purple"], 1, #"expected one of "light", "dark", "sepia""#),
            (["set", "hyphens", "maybe"], 1, "expected true or false"),
            (["increment", "fontSize"], 2, "expected show, set, remove, move, profile, device or restore"),
            (["show", "--publication"], 2, "needs a value (ID"),
            (["set", "fontSize"], 2, "usage: store set KEY VALUE"),
            (["profile", "activate", "Night"], 1, "no profile"),
            (["profile", "rename"], 2, "usage: store profile rename PROFILE NAME"),
            (["profile", "frobnicate"], 2, "expected profile list"),
            (["set", "fontSize", "1", "--configurable", "comic"], 2, "expected one of epub"),
        ])
    func errorsSayWhatIsExpected(arguments: [String], status: Int32, expected: String) throws {
        let root = try Root()
        let outcome = try CommandLineTool.run(["store", "--root", root.path] + arguments)
        #expect(outcome.status == status, "\(outcome.error)")
        #expect(outcome.error.contains(expected), "\(outcome.error)")
    }

    @Test("item 4: a profile is found by a unique display name; otherwise the profiles are listed")
    func profileByName() throws {
        let root = try Root()
        try root.store("profile", "create", "Night")
        let activated = try root.store("profile", "activate", "Night")
        #expect(activated.status == 0)
        #expect(activated.output.hasPrefix("activated profile Night ("))
        try root.store("profile", "create", "Night")
        let ambiguous = try root.store("profile", "activate", "Night")
        #expect(ambiguous.status == 1)
        #expect(ambiguous.error.contains("2 profiles are named 'Night'; name one by its id"))
    }

    @Test("item 5: a key no setting knows is refused with how to store it, and stored with --unknown")
    func unknownKeys() throws {
        let root = try Root()
        let refused = try root.store("set", "myApp.toolbarHidden", "true")
        #expect(refused.status == 1)
        #expect(refused.error.contains("--unknown"))
        let stored = try root.store("set", "myApp.toolbarHidden", "true", "--unknown")
        #expect(stored.output == "myApp.toolbarHidden: none → true in shared (epub/shared.json)\n")
        #expect(try root.shared()["myApp.toolbarHidden"] == true)
    }

    @Test("item 6: a replica id that differs from the store's is reported; a new mirror folder is said")
    func syncSays() throws {
        let root = try Root()
        let mirror = root.folder.path("mirror")
        try root.store("set", "fontSize", "1.4")
        let first = try CommandLineTool.run([
            "sync", "--root", root.path, "--mirror", mirror, "--replica", "tablet",
        ])
        #expect(first.error.contains("created the mirror folder"))
        let again = try CommandLineTool.run([
            "sync", "--root", root.path, "--mirror", mirror, "--replica", "phone",
        ])
        #expect(again.status == 0)
        #expect(
            again.error.contains("this store already syncs as replica tablet; --replica phone was not used"))
    }

    @Test("item 7: show --json keeps the source's argument")
    func showJSON() throws {
        let root = try Root()
        try root.store("set", "theme", "sepia")
        let outcome = try root.store("show", "--json")
        let settings = try #require(try JSONValue(json: outcome.output).objectValue?["settings"]?.objectValue)
        #expect(settings["backgroundColor"]?.objectValue?["source"] == "derived")
        #expect(settings["backgroundColor"]?.objectValue?["from"] == "theme")
    }

    @Test("item 10: help store and help sync print a worked example with two devices")
    func helpExamples() throws {
        for command in ["store", "sync"] {
            let help = try CommandLineTool.run(["help", command])
            #expect(help.status == 0)
            #expect(
                help.output.contains("--root phone") && help.output.contains("--root tablet"), "\(command)")
        }
    }

    @Test("a usage error names the command's own help")
    func usageNamesHelp() throws {
        let outcome = try CommandLineTool.run(["sync", "--root", "a"])
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("Run 'readingprefs help sync' for usage."))
    }

    @Test(
        "sync --watch and --register go with a server, --class with --register (Specs/Server.md §9.4)",
        arguments: [
            (["--mirror", "m", "--watch"], "--watch goes with --server"),
            (["--mirror", "m", "--register", "Kobo"], "--register NAME goes with --server"),
            (
                ["--server", "http://127.0.0.1:9", "--token", "t", "--class", "eink"],
                "--class CLASS goes with --register"
            ),
            (
                ["--server", "http://127.0.0.1:9", "--token", "t", "--register", "Kobo", "--class", "E Ink"],
                "is not a device class"
            ),
        ])
    func liveUsage(arguments: [String], message: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rp-\(UUID().uuidString)")
        let outcome = try CommandLineTool.run(["sync", "--root", folder.path] + arguments)
        #expect(outcome.status == 2)
        #expect(outcome.error.contains(message), "\(outcome.error)")
    }
}

/// Issue 20's items about what a newcomer reads: the test command and the documents agree with
/// the code.
@Suite("What a newcomer reads")
struct NewcomerDocumentTests {
    /// The package's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("item 8: the README's test command and CI's are the same, and keep XCTest's empty run quiet")
    func testCommand() throws {
        let readme = try Self.read("README.md")
        let ci = try Self.read(".ci/run")
        #expect(readme.contains("swift test --disable-xctest"))
        #expect(ci.contains("\nswift test --disable-xctest\n"))
    }

    @Test("item 9: the README lists the store and sync commands and the Sync folder; help lists them too")
    func documentsMatchTheCode() throws {
        let readme = try Self.read("README.md")
        #expect(readme.contains("`store` and `sync`"))
        #expect(readme.contains("`Sync/`"))
        let modules = try Self.read("Sources/ReadingPreferences/ReadingPreferences.docc/Proposals/RP-0021.md")
        #expect(modules.contains("six modules"))
        for module in [
            "ReadingPreferences`", "ReadingPreferencesStore", "ReadingPreferencesObservation",
            "ReadingPreferencesSQL",
            "ReadingPreferencesConformance", "readingprefs`",
        ] {
            #expect(modules.contains(module), "\(module)")
        }
        let help = try CommandLineTool.run(["help"])
        #expect(
            help.output.contains("store --root DIR COMMAND")
                && help.output.contains("sync --root DIR --mirror DIR"))
    }
}
