import Foundation
import ReadingPreferences
import TestSupport
import Testing

/// `store device --class/--policy`, `store set --layer`, `store move` and `why` as readers use
/// them, on devices that sync through a folder (Specs/Store.md §3, §1.4; Specs/Sync.md §1).
@Suite("readingprefs device classes, layers and moves")
struct DeviceClassCommandTests {
    let folder: TemporaryFolder
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

    func sync(_ root: String) throws { try run("sync", "--root", root, "--mirror", mirror) }

    /// The effective value and source of a key, from `store show --json`.
    func setting(_ key: String, _ root: String) throws -> (value: JSONValue?, source: String?) {
        let show = try json(try run("store", "--root", root, "show", "--json"))
        let setting = show.objectValue?["settings"]?.objectValue?[key]?.objectValue
        return (setting?["value"], setting?["source"]?.stringValue)
    }

    @Test(
        "the e-ink story: A's font size stays on e-ink devices, its theme reaches every device, a new e-ink device gets the font size and why says so"
    )
    func einkStory() throws {
        let a = folder.path("a")
        let b = folder.path("b")
        let c = folder.path("c")
        try run(
            "store", "--root", a, "device", "--name", "Kobo A", "--class", "eink", "--policy", "formFactor")
        try run(
            "store", "--root", b, "device", "--name", "Phone B", "--class", "phone", "--policy", "formFactor")
        try run("store", "--root", b, "set", "fontSize", "1.1")
        let set = try json(try run("store", "--root", a, "set", "fontSize", "1.6", "--json"))
        #expect(set.objectValue?["changes"]?.arrayValue?.first?.objectValue?["layer"] == "deviceClass")
        try run("store", "--root", a, "set", "theme", "sepia")
        try sync(a)
        try sync(b)
        try sync(a)

        #expect(try setting("theme", b).value == "sepia")
        #expect(try setting("fontSize", b).value == 1.1)
        #expect(try setting("fontSize", b).source == "deviceClass")
        #expect(try setting("fontSize", a).value == 1.6)
        #expect(try setting("theme", a).value == "sepia")

        try run("store", "--root", c, "device", "--name", "Kobo C", "--class", "eink")
        try sync(c)
        #expect(try setting("fontSize", c).value == 1.6)
        #expect(try setting("theme", c).value == "sepia")
        let why = try run("why", "fontSize", "--root", c)
        #expect(why.output.contains("devices like this (eink)"), "\(why.output)")
        #expect(why.output.contains("set on Kobo A"), "\(why.output)")
        let whyJSON = try json(try run("why", "fontSize", "--root", c, "--json"))
        let winner = try #require(whyJSON.objectValue?["layers"]?.arrayValue?.first?.objectValue)
        #expect(winner["name"] == "devices like this (eink)")
        #expect(winner["wins"] == true)
        let provenance = try #require(winner["provenance"]?.objectValue)
        #expect(provenance["device"]?.objectValue?["name"] == "Kobo A")
        #expect(provenance["time"]?.stringValue?.hasPrefix("20") == true)
    }

    @Test("this device's layer never syncs; its class and policy stay with it")
    func deviceLayerStaysHome() throws {
        let a = folder.path("a")
        let b = folder.path("b")
        try run("store", "--root", a, "device", "--class", "eink", "--policy", "formFactor")
        try run("store", "--root", a, "set", "lineHeight", "1.8", "--layer", "device")
        #expect(FileManager.default.fileExists(atPath: folder.path("a/epub/this-device.json")))
        try sync(a)
        try sync(b)
        #expect(try setting("lineHeight", a).value == 1.8)
        #expect(try setting("lineHeight", a).source == "device")
        #expect(try setting("lineHeight", b).source == "fallback")
        let device = try json(try run("store", "--root", b, "device", "--json"))
        #expect(device.objectValue?["class"] == .null)
        #expect(device.objectValue?["policy"] == "default")
        let own = try json(try run("store", "--root", a, "device", "--json"))
        #expect(own.objectValue?["class"] == "eink")
        #expect(own.objectValue?["policy"] == "formFactor")
    }

    @Test("store set and remove take --layer class and device; class needs a class")
    func explicitLayers() throws {
        let a = folder.path("a")
        let refused = try CommandLineTool.run([
            "store", "--root", a, "set", "fontSize", "1.4", "--layer", "class",
        ])
        #expect(refused.status == 2)
        #expect(refused.error.contains("store device --class"), "\(refused.error)")
        try run("store", "--root", a, "device", "--class", "tablet")
        let set = try run("store", "--root", a, "set", "fontSize", "1.4", "--layer", "class")
        #expect(set.output.contains("devices like this (tablet) (epub/classes/tablet.json)"), "\(set.output)")
        try run("store", "--root", a, "remove", "fontSize", "--layer", "class")
        #expect(try setting("fontSize", a).source == "fallback")
        let bad = try CommandLineTool.run(["store", "--root", a, "device", "--class", "E-Ink"])
        #expect(bad.status == 2)
        // A value another layer already gives is still set in the layer named.
        try run("store", "--root", a, "set", "lineHeight", "1.4")
        for (layer, file) in [("class", "classes/tablet.json"), ("device", "this-device.json")] {
            let same = try run("store", "--root", a, "set", "lineHeight", "1.4", "--layer", layer)
            #expect(same.output.contains("lineHeight: none → 1.4 in"), "\(same.output)")
            let document = try JSONValue(json: Data(contentsOf: URL(fileURLWithPath: a + "/epub/" + file)))
            #expect(document.objectValue?["lineHeight"] == 1.4)
        }
        let again = try run("store", "--root", a, "set", "lineHeight", "1.4", "--layer", "device")
        #expect(again.output.contains("nothing changed: lineHeight already holds that value in this device"))
        // Slips are usage errors, and write nothing.
        for arguments in [
            ["store", "--root", "", "set", "theme", "dark"],
            ["store", "--root", a, "move", "", "--to", "base"],
            ["store", "--root", a, "move", "fontSize", "--to", "base", "--layer", "device"],
            ["store", "--root", a, "device", "--class", "eink", "--no-class"],
            ["store", "--root", a, "device", "--name", "K", "--no-name"], ["history", "", "--root", a],
        ] {
            let slip = try CommandLineTool.run(arguments)
            #expect(slip.status == 2, "\(arguments): \(slip.error)")
        }
    }

    @Test("store move keeps the value, sets it in the target and removes it below, in one change")
    func move() throws {
        let a = folder.path("a")
        try run("store", "--root", a, "device", "--class", "eink")
        try run("store", "--root", a, "device", "--name", "Kobo")
        try run("store", "--root", a, "set", "fontSize", "1.6")
        let moved = try json(try run("store", "--root", a, "move", "fontSize", "--to", "class", "--json"))
        let changes = try #require(moved.objectValue?["changes"]?.arrayValue)
        #expect(
            Set(changes.compactMap { $0.objectValue?["layer"]?.stringValue }) == ["shared", "deviceClass"])
        #expect(try setting("fontSize", a).value == 1.6)
        #expect(try setting("fontSize", a).source == "deviceClass")
        try run("store", "--root", a, "move", "fontSize", "--to", "device")
        #expect(try setting("fontSize", a).source == "device")
        // A move is recorded as one: cause move.
        let history = try json(try run("history", "fontSize", "--root", a, "--layer", "device", "--json"))
        #expect(
            history.objectValue?["entries"]?.arrayValue?.last?.objectValue?["cause"] == "move", "\(history)")
        try run("store", "--root", a, "move", "fontSize", "--to", "book", "--publication", "urn:x")
        let book = try json(try run("store", "--root", a, "show", "--publication", "urn:x", "--json"))
        #expect(
            book.objectValue?["settings"]?.objectValue?["fontSize"]?.objectValue?["source"] == "publication")
        // Down to the base: the base gets the value; the book, above it, keeps its own.
        try run("store", "--root", a, "move", "fontSize", "--to", "base", "--publication", "urn:x")
        #expect(try setting("fontSize", a).value == 1.6)
        #expect(try setting("fontSize", a).source == "shared")
        let kept = try json(try run("store", "--root", a, "show", "--publication", "urn:x", "--json"))
        #expect(
            kept.objectValue?["settings"]?.objectValue?["fontSize"]?.objectValue?["source"] == "publication")
        let nothing = try run("store", "--root", a, "move", "lineHeight", "--to", "base")
        #expect(nothing.output.contains("nothing moved"))
        let noClass = try CommandLineTool.run([
            "store", "--root", folder.path("b"), "move", "fontSize", "--to", "class",
        ])
        #expect(noClass.status == 2, "\(noClass.error)")
        let usage = try CommandLineTool.run(["store", "--root", a, "move", "fontSize", "--to", "everywhere"])
        #expect(usage.status == 2)
    }
}
