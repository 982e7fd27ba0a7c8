import Foundation
import ReadingPreferences
import TestSupport
import Testing

/// `readingprefs rules` and the rule context options, as a person uses them (Specs/Store.md §4.5).
@Suite("readingprefs rules, as a person uses them")
struct RulesCommandTests {
    struct Root {
        let folder: TemporaryFolder
        var path: String { folder.path("store") }

        init() throws { folder = try TemporaryFolder() }

        @discardableResult
        func run(_ command: String, _ arguments: String...) throws -> CommandLineTool.Outcome {
            try CommandLineTool.run([command, "--root", path] + arguments)
        }

        /// Creates a profile holding one value; returns its id.
        func profile(_ name: String, _ key: String, _ value: String) throws -> String {
            let created = try run("store", "profile", "create", name, "--json")
            let id = try #require(try JSONValue(json: created.output).objectValue?["id"]?.stringValue)
            try run("store", "profile", "activate", id)
            try run("store", "set", key, value, "--layer", "profile")
            try run("store", "profile", "activate", "--auto")
            return id
        }
    }

    @Test("add, list, move and remove rules; positions count from 1; list marks the rule that applies")
    func commands() throws {
        let root = try Root()
        let night = try root.profile("Night", "theme", "dark")
        let manga = try root.profile("Manga", "fontSize", "1.8")
        let added = try root.run("rules", "add", "Night", "--when", #"{"appearance": "dark"}"#)
        #expect(added.status == 0)
        #expect(added.output == "added rule 1: Night (\(night)) when appearance dark\n")
        try root.run("rules", "add", manga, "--when", #"{"collection": ["manga"]}"#)
        let list = try root.run("rules", "list", "--appearance", "dark")
        #expect(
            list.output
                == "1. Night (\(night)) when appearance dark  [applies]\n"
                + "2. Manga (\(manga)) when collection manga\n")
        let moved = try root.run("rules", "move", "2", "1")
        #expect(moved.output == "moved rule 2 to position 1: Manga (\(manga)) when collection manga\n")
        let json = try root.run("rules", "list", "--json", "--collection", "manga")
        let object = try #require(try JSONValue(json: json.output).objectValue)
        let rules = try #require(object["rules"]?.arrayValue)
        #expect(rules.map { $0.objectValue?["profile"] } == [.string(manga), .string(night)])
        #expect(rules.map { $0.objectValue?["applies"] } == [true, false])
        #expect(object["automatic"] == true)
        let removed = try root.run("rules", "remove", "1")
        #expect(removed.output == "removed rule 1: Manga (\(manga)) when collection manga\n")
        #expect(try root.run("rules", "list").output == "1. Night (\(night)) when appearance dark\n")
        let bad = try root.run("rules", "remove", "3")
        #expect(bad.status == 2)
        #expect(bad.error.contains("'3' is no position: expected a number from 1 to 1"))
    }

    @Test("a malformed --when is refused with each problem listed, and nothing is written")
    func malformed() throws {
        let root = try Root()
        _ = try root.profile("Night", "theme", "dark")
        let refused = try root.run(
            "rules", "add", "Night", "--when",
            #"{"apperance": "dark", "time": {"from": "25:00", "to": "06:00"}}"#)
        #expect(refused.status == 1)
        #expect(refused.error.contains("[0].when.apperance): unknown condition"))
        #expect(refused.error.contains(#"[0].when.time.from): expected a time "HH:MM""#))
        #expect(!FileManager.default.fileExists(atPath: root.path + "/epub/rules.json"))
        let notJSON = try root.run("rules", "add", "Night", "--when", "dark")
        #expect(notJSON.status == 2)
        let unknown = try root.run("rules", "add", "Day", "--when", "{}")
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("no profile with the id or name 'Day'"))
    }

    @Test("a hand choice beats the rules until activate --auto; why names the rule or the hand")
    func handAndWhy() throws {
        let root = try Root()
        _ = try root.profile("Night", "theme", "dark")
        _ = try root.profile("Sunset", "fontSize", "1.3")
        try root.run("rules", "add", "Sunset", "--when", #"{"time": {"from": "20:30", "to": "06:45"}}"#)
        try root.run("rules", "add", "Night", "--when", #"{"appearance": "dark"}"#)
        let late = try root.run("why", "fontSize", "--time", "23:10")
        #expect(late.output.hasPrefix("fontSize 1.3 (130%) — profile Sunset (rule 1 (time 20:30–06:45))"))
        let noon = try root.run("why", "theme", "--time", "12:00", "--appearance", "dark", "--json")
        let chosen = try JSONValue(json: noon.output).objectValue?["chosenBy"]
        #expect(chosen == ["by": "rule", "rule": 2, "when": ["appearance": "dark"]])
        try root.run("store", "profile", "activate", "Night")
        let hand = try root.run("why", "theme", "--time", "23:10")
        #expect(hand.output.hasPrefix(#"theme "dark" (Dark) — profile Night (chosen by hand)"#))
        let auto = try root.run("store", "profile", "activate", "--auto", "--time", "23:10")
        #expect(
            auto.output
                == "this device follows the rules again: profile Sunset (rule 1 (time 20:30–06:45)) applies\n"
        )
        #expect(try root.run("why", "theme", "--time", "23:10").output.hasPrefix(#"theme "light""#))
        let badTime = try root.run("why", "theme", "--time", "7pm")
        #expect(badTime.status == 2)
        #expect(badTime.error.contains("--time takes a local time HH:MM"))
    }

    @Test("resolve, css and inspect with --root resolve the profile the rules choose in the context given")
    func storeInputs() throws {
        let root = try Root()
        _ = try root.profile("Night", "theme", "dark")
        _ = try root.profile("Manga", "fontSize", "1.8")
        try root.run("rules", "add", "Night", "--when", #"{"appearance": "dark"}"#)
        try root.run("rules", "add", "Manga", "--when", #"{"collection": ["manga"]}"#)
        func resolved(_ arguments: String...) throws -> JSONObject? {
            let outcome = try CommandLineTool.run(["resolve", "--root", root.path] + arguments)
            #expect(outcome.status == 0, "\(outcome.error)")
            return try JSONValue(json: outcome.output).objectValue
        }
        #expect(try resolved()?["theme"] == "light")
        #expect(try resolved("--appearance", "dark")?["theme"] == "dark")
        #expect(try resolved("--collection", "manga")?["fontSize"] == 1.8)
        #expect(try resolved("--collection", "novels")?["fontSize"] == 1)
        let css = try CommandLineTool.run(["css", "--root", root.path, "--appearance", "dark"])
        #expect(css.output.contains("readium-night-on"))
        let both = try CommandLineTool.run(["resolve", "--root", root.path, "--preferences", "/dev/null"])
        #expect(both.status == 2)
    }

    @Test("inspect, resolve and css take the appearance and the collections")
    func fileCommands() throws {
        let resolved = try CommandLineTool.run([
            "resolve", "--appearance", "dark", "--collection", "manga,comics",
        ])
        #expect(resolved.status == 0)
        let bad = try CommandLineTool.run(["css", "--appearance", "dim"])
        #expect(bad.status == 2)
        #expect(bad.error.contains("--appearance takes light or dark"))
    }
}
