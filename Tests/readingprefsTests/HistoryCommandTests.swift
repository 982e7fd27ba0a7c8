import Foundation
import ReadingPreferences
import TestSupport
import Testing

/// `readingprefs why`, `history`, `revert` and `store device` as a reader uses them, on two devices
/// that sync through a folder (Specs/Store.md §15).
@Suite("readingprefs why, history and revert")
struct HistoryCommandTests {
    let folder: TemporaryFolder
    var kobo: String { folder.path("kobo") }
    var iphone: String { folder.path("iphone") }
    var mirror: String { folder.path("mirror") }

    init() throws { folder = try TemporaryFolder() }

    @discardableResult
    func run(_ arguments: String...) throws -> CommandLineTool.Outcome {
        let outcome = try CommandLineTool.run(arguments)
        #expect(outcome.status == 0, "\(arguments): \(outcome.error)")
        return outcome
    }

    func json(_ outcome: CommandLineTool.Outcome) throws -> JSONValue {
        try JSONValue(json: Data(outcome.output.utf8))
    }

    // Both devices hold edits at their first sync: they merge key by key (Specs/Sync.md §5.9).
    func sync(_ root: String) throws {
        try run("sync", "--root", root, "--mirror", mirror, "--first", "merge")
    }

    @Test(
        "two named devices edit one key: why names the device and time of the winning edit, history lists both, a revert wins on both"
    )
    func twoDevices() throws {
        try run("store", "--root", kobo, "device", "--name", "Kobo Clara")
        try run("store", "--root", iphone, "device", "--name", "iPhone")
        try run("store", "--root", kobo, "set", "fontSize", "1.2")
        try sync(kobo)
        try run("store", "--root", iphone, "set", "fontSize", "1.6")
        try sync(iphone)
        try sync(kobo)
        try sync(iphone)

        for root in [kobo, iphone] {
            let why = try json(try run("why", "fontSize", "--root", root, "--json"))
            #expect(why.objectValue?["value"] == 1.6)
            let winner = try #require(why.objectValue?["layers"]?.arrayValue?.first?.objectValue)
            #expect(winner["wins"] == true)
            let provenance = try #require(winner["provenance"]?.objectValue)
            #expect(provenance["device"]?.objectValue?["name"] == "iPhone")
            #expect(provenance["time"]?.stringValue?.hasPrefix("20") == true)

            let history = try json(try run("history", "fontSize", "--root", root, "--json"))
            let entries = try #require(history.objectValue?["entries"]?.arrayValue)
            #expect(entries.compactMap { $0.objectValue?["new"] } == [1.2, 1.6])
            #expect(
                entries.compactMap { $0.objectValue?["device"]?.objectValue?["name"]?.stringValue } == [
                    "Kobo Clara", "iPhone",
                ])
        }
        // The same change has the same id on both devices.
        let ids = try [kobo, iphone].map { root in
            try json(try run("history", "fontSize", "--root", root, "--json")).objectValue?["entries"]?
                .arrayValue?
                .compactMap { $0.objectValue?["id"]?.stringValue }
        }
        #expect(ids[0] == ids[1])
        let older = try #require(ids[0]?.first)

        let reverted = try run("revert", "fontSize", "--root", iphone, "--to", older)
        #expect(reverted.output.contains("fontSize: 1.6 → 1.2"))
        try sync(iphone)
        try sync(kobo)
        for root in [kobo, iphone] {
            let why = try json(try run("why", "fontSize", "--root", root, "--json"))
            #expect(why.objectValue?["value"] == 1.2)
            let history = try json(try run("history", "fontSize", "--root", root, "--json"))
            #expect(history.objectValue?["entries"]?.arrayValue?.count == 3)
        }
        let text = try run("why", "fontSize", "--root", iphone).output
        #expect(text.hasPrefix("fontSize 1.2 (120%) — all books, set on iPhone, "))
        #expect(text.contains(", revert)"), "\(text)")
    }

    @Test("a device that keeps no history says so, and a revert there says what to do")
    func noHistory() throws {
        try run("store", "--root", kobo, "set", "fontSize", "1.2")
        let device = try run("store", "--root", kobo, "device").output
        #expect(device.contains("no replica id yet"))
        #expect(try run("history", "--root", kobo).output == "no changes recorded\n")
        let revert = try CommandLineTool.run([
            "revert", "fontSize", "--root", kobo, "--to", "2026-01-01T00:00:00Z",
        ])
        #expect(revert.status == 1)
        #expect(revert.error.contains("store device --name"))
        let why = try run("why", "fontSize", "--root", kobo).output
        #expect(why.contains("provenance unknown"))
    }

    @Test("revert --to a time restores the value of that moment; an unknown entry or time is refused")
    func revertToTime() throws {
        try run("store", "--root", kobo, "device", "--history")
        try run("store", "--root", kobo, "set", "fontSize", "1.2")
        let history = try json(try run("history", "--root", kobo, "--json"))
        let time = try #require(
            history.objectValue?["entries"]?.arrayValue?.first?.objectValue?["time"]?.stringValue)
        try run("store", "--root", kobo, "set", "fontSize", "1.8")
        try run("revert", "fontSize", "--root", kobo, "--to", time)
        #expect(try json(try run("why", "fontSize", "--root", kobo, "--json")).objectValue?["value"] == 1.2)
        let unknown = try CommandLineTool.run(["revert", "fontSize", "--root", kobo, "--to", "1-2-nobody"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("no history entry has the id 1-2-nobody"))
        let bad = try CommandLineTool.run(["revert", "fontSize", "--root", kobo, "--to", "yesterday"])
        #expect(bad.status == 2)
    }
}
