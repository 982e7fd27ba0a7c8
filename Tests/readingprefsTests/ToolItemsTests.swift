import Foundation
import ReadingPreferences
import TestSupport
import Testing

/// Issue 37's items about the tools: Readium dialects on the command line, and messages that say
/// what happened and what is expected.
@Suite("The tools as a web team judges them")
struct ToolItemsTests {
    static func write(_ text: String, in folder: TemporaryFolder, as name: String) throws -> String {
        let path = folder.path(name)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    static let thorium =
        #"{"fontWeight": 700, "theme": "night", "darkenFilter": true, "pageGutter": 20, "columnCount": null}"#

    @Test("convert --from readium-ts reads a web reader's object into ours, saying what it kept untranslated")
    func convertFrom() throws {
        let folder = try TemporaryFolder()
        let path = try Self.write(Self.thorium, in: folder, as: "ts.json")
        let outcome = try CommandLineTool.run(["convert", path, "--from", "readium-ts", "--compact"])
        #expect(outcome.status == 0, "\(outcome.error)")
        // The navigator's `null` column count is "auto" (no value, not the app's default).
        #expect(
            outcome.output
                == #"{"fontWeight":1.75,"theme":"dark","imageFilter":"darken","pageGutter":20,"columnCount":"auto"}"#
                + "\n")
        #expect(outcome.error.contains("readium-ts: pageGutter: unknownKey"), "\(outcome.error)")
    }

    @Test("convert --to kotlin writes ours for Readium Kotlin, saying what it dropped; short names work")
    func convertTo() throws {
        let folder = try TemporaryFolder()
        let path = try Self.write(
            ##"{"textColor": "#FF0000", "spread": "auto", "myApp.flag": true}"##, in: folder, as: "ours.json")
        let outcome = try CommandLineTool.run(["convert", path, "--to", "kotlin", "--compact"])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output == #"{"textColor":-65536}"# + "\n")
        #expect(outcome.error.contains("readium-kotlin: spread not written: Readium Kotlin cannot read it"))
        #expect(outcome.error.contains("myApp.flag not written"))
        let both = try CommandLineTool.run([
            "convert", path, "--from", "swift", "--to", "readium-swift", "--compact",
        ])
        #expect(both.output == #"{"textColor":16711680,"spread":"auto"}"# + "\n", "\(both.output)")
    }

    @Test("convert without --from or --to, or with an unknown dialect, is a usage error naming the dialects")
    func convertUsage() throws {
        let folder = try TemporaryFolder()
        let path = try Self.write("{}", in: folder, as: "p.json")
        let none = try CommandLineTool.run(["convert", path])
        #expect(none.status == 2)
        #expect(none.error.contains("readium-ts") && none.error.contains("kotlin"))
        let unknown = try CommandLineTool.run(["convert", path, "--to", "java"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("unknown dialect 'java' for --to"), "\(unknown.error)")
    }

    @Test("resolve --dialect reads the file in that dialect and writes the settings in it")
    func resolveDialect() throws {
        let folder = try TemporaryFolder()
        let path = try Self.write(Self.thorium, in: folder, as: "ts.json")
        let outcome = try CommandLineTool.run(["resolve", "--preferences", path, "--dialect", "readium-ts"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let object = try #require(try JSONValue(json: outcome.output).objectValue)
        // Settings, not preferences: every setting that resolved, in the navigator's names and
        // units (its theme as colors); a member no setting has is not a setting.
        #expect(object["fontWeight"] == 700 && object["darkenFilter"] == true)
        #expect(object["backgroundColor"] == "#000000" && object["theme"] == nil)
        #expect(object["pageGutter"] == nil)
        #expect(object["pageMargins"] == nil)
        #expect(outcome.error.contains("pageMargins not written"), "\(outcome.error)")
        let kotlin = try CommandLineTool.run(["resolve", "--dialect", "kotlin"])
        #expect(kotlin.status == 0)
        #expect(try JSONValue(json: kotlin.output).objectValue?["spread"] == nil)
    }

    @Test("inspect --dialect reads the preferences file in that dialect")
    func inspectDialect() throws {
        let folder = try TemporaryFolder()
        let path = try Self.write(Self.thorium, in: folder, as: "ts.json")
        let outcome = try CommandLineTool.run(["inspect", "--preferences", path, "--dialect", "ts", "--json"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let form = try SettingsForm(jsonData: Data(outcome.output.utf8))
        #expect(form.rows.first { $0.key == "fontWeight" }?.storedValue == 1.75)
        #expect(form.rows.first { $0.key == "imageFilter" }?.storedValue == "darken")
    }

    @Test(
        "edit says why a value was kept within its range, and why another key was written, as store set does")
    func editExplains() throws {
        let folder = try TemporaryFolder()
        let path = try Self.write("{}", in: folder, as: "prefs.json")
        let clamped = try CommandLineTool.run(["edit", path, "set", "fontSize", "9"])
        #expect(clamped.status == 0)
        #expect(clamped.error.contains("fontSize: 9 asked; kept within 0.1…5"), "\(clamped.error)")
        let activated = try CommandLineTool.run(["edit", path, "set", "wordSpacing", "0.3"])
        #expect(activated.error.contains("publisherStyles: written so that wordSpacing takes effect"))
        let exact = try CommandLineTool.run(["edit", path, "set", "fontSize", "1.5"])
        #expect(exact.error.isEmpty, "\(exact.error)")
    }

    @Test("help with an unknown topic is a usage error that names the topics")
    func helpUnknownTopic() throws {
        let outcome = try CommandLineTool.run(["help", "nothing"])
        #expect(outcome.status == 2)
        #expect(outcome.output.isEmpty)
        #expect(outcome.error.contains("no help topic 'nothing'"))
        #expect(outcome.error.contains("inspect, resolve, edit, css, convert"))
        #expect(try CommandLineTool.run(["help", "convert"]).output.contains("--from DIALECT"))
    }

    @Test("migrate-legacy says what is expected of a value it cannot migrate")
    func migrateExpected() throws {
        let folder = try TemporaryFolder()
        let path = try Self.write(
            #"{"--USER__appearance": 5, "--USER__bodyHyphens": "maybe", "--USER__textColor": "nope"}"#,
            in: folder, as: "legacy.json")
        let outcome = try CommandLineTool.run(["migrate-legacy", path])
        #expect(outcome.status == 0)
        #expect(outcome.error.contains("expected an index: 0 light, 1 sepia, 2 dark"), "\(outcome.error)")
        #expect(outcome.error.contains(#"expected true, false, "auto" or "none""#))
        #expect(outcome.error.contains("expected a color"))
    }
}
