import Foundation
import ReadingPreferences
import TestSupport
import Testing

/// `readingprefs sync --first keep-mine|take-theirs|merge` (Specs/Sync.md §5.9).
@Suite("readingprefs sync --first")
struct FirstJoinCommandTests {
    let folder: TemporaryFolder
    var phone: String { folder.path("phone") }
    var tablet: String { folder.path("tablet") }
    var mirror: String { folder.path("mirror") }

    init() throws { folder = try TemporaryFolder() }

    /// Runs the tool, expecting `status`.
    @discardableResult
    func run(_ arguments: String..., status: Int32 = 0) throws -> CommandLineTool.Outcome {
        let outcome = try CommandLineTool.run(arguments)
        #expect(outcome.status == status, "\(arguments): \(outcome.error)")
        return outcome
    }

    /// The phone synced its values; the tablet holds others of its own.
    func joining() throws {
        try run("store", "--root", phone, "set", "fontSize", "1.4")
        try run("store", "--root", phone, "set", "theme", "sepia")
        try run("sync", "--root", phone, "--mirror", mirror, "--replica", "phone")
        try run("store", "--root", tablet, "set", "fontSize", "1.8")
    }

    func shared(_ root: String) throws -> JSONValue {
        try JSONValue(json: Data(contentsOf: URL(fileURLWithPath: root + "/epub/shared.json")))
    }

    @Test(
        "without --first, a first join with differences exits 1, names the keys and the three choices, writes nothing"
    )
    func asks() throws {
        try joining()
        let before = try shared(tablet)
        let outcome = try run("sync", "--root", tablet, "--mirror", mirror, "--replica", "tablet", status: 1)
        #expect(outcome.error.contains("nothing was written"), "\(outcome.error)")
        #expect(outcome.error.contains("epub/shared: fontSize, theme"), "\(outcome.error)")
        for choice in ["--first keep-mine", "--first take-theirs", "--first merge"] {
            #expect(outcome.error.contains(choice), "\(outcome.error)")
        }
        #expect(try shared(tablet) == before)
        let mirrored = try FileManager.default.contentsOfDirectory(atPath: mirror)
        #expect(mirrored == ["phone.json"])
        // --json says the same as data, on standard output.
        let json = try run(
            "sync", "--root", tablet, "--mirror", mirror, "--replica", "tablet", "--json", status: 1)
        let stopped = try JSONValue(json: Data(json.output.utf8)).objectValue?["firstJoin"]?.objectValue
        #expect(stopped?["choice"] == .null)
        #expect(stopped?["choices"] == ["keep-mine", "take-theirs", "merge"])
        let difference = stopped?["differences"]?.arrayValue?.first?.objectValue
        #expect(difference?["scope"] == "epub/shared")
        #expect(difference?["keys"] == ["fontSize", "theme"])
        #expect(try shared(tablet) == before)
    }

    @Test(
        "--first take-theirs says where the export is, store restore puts it back, and later syncs never ask")
    func takeTheirs() throws {
        try joining()
        let outcome = try run(
            "sync", "--root", tablet, "--mirror", mirror, "--replica", "tablet", "--first", "take-theirs",
            "--json")
        let report = try JSONValue(json: Data(outcome.output.utf8))
        let firstJoin = try #require(report.objectValue?["firstJoin"]?.objectValue)
        #expect(firstJoin["choice"] == "take-theirs")
        let export = try #require(firstJoin["export"]?.stringValue)
        #expect(try shared(tablet) == ["fontSize": 1.4, "theme": "sepia"])
        try run("store", "--root", tablet, "restore", export)
        #expect(try shared(tablet) == ["fontSize": 1.8])
        let later = try run("sync", "--root", tablet, "--mirror", mirror)
        #expect(later.output.contains("sent epub/shared fontSize 1.4 → 1.8"), "\(later.output)")
    }

    @Test("--first keep-mine wins on the other device too")
    func keepMine() throws {
        try joining()
        let outcome = try run(
            "sync", "--root", tablet, "--mirror", mirror, "--replica", "tablet", "--first", "keep-mine")
        #expect(outcome.output.contains("first sync: keep-mine for epub/shared"), "\(outcome.output)")
        try run("sync", "--root", phone, "--mirror", mirror)
        #expect(try shared(phone) == ["fontSize": 1.8])
    }

    @Test("--first with another word is a usage error")
    func unknownChoice() throws {
        let outcome = try run("sync", "--root", tablet, "--mirror", mirror, "--first", "mine", status: 2)
        #expect(outcome.error.contains("keep-mine, take-theirs or merge"), "\(outcome.error)")
    }
}
