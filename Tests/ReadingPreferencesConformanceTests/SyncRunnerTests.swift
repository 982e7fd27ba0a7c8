import Foundation
import ReadingPreferences
import ReadingPreferencesConformance
import Testing

/// The sync vectors' expectations of what a reader skips, the order of a document's keys and the
/// names it learns (Specs/README.md §6, Specs/Sync.md §9): they pass what conforms, and they fail,
/// saying what differed.
@Suite("The conformance runner's sync expectations")
struct SyncRunnerTests {
    let runner = ConformanceRunner()

    /// Runs one case written as JSON text.
    private func run(_ json: String) -> ConformanceResult {
        let entries = ConformanceRunner.cases(in: Data(json.utf8), label: "inline.json")
        #expect(entries.count == 1)
        return entries.first.map { runner.run($0) } ?? ConformanceResult(name: "", failures: ["no case"])
    }

    /// The local replica's file: one key.
    static let local =
        #"{"format": "readingprefs-sync", "version": 1, "replica": "local", "documents": {"epub/shared":"#
        + #" {"fontSize": {"value": 1, "stamp": {"time": 1764000000000, "counter": 0, "replica": "local"}}}}}"#
    /// Another replica's file: a name, a `$id` entry (skipped) and a key the local document lacks.
    static let remote =
        #"{"format": "readingprefs-sync", "version": 1, "replica": "r", "name": "Kobo", "documents": {"epub/shared":"#
        + #" {"$id": {"value": "x", "stamp": {"time": 1764000000005, "counter": 0, "replica": "r"}},"#
        + #" "theme": {"value": "dark", "stamp": {"time": 1764000000005, "counter": 1, "replica": "r"}}}}}"#
    /// A file of a newer version: a reader skips it whole.
    static let future = #"{"format": "readingprefs-sync", "version": 2, "replica": "future"}"#

    static func sync(_ expect: String, replicas: [String] = [local, remote, future], local: Bool = true)
        -> String
    {
        #"{"name": "n", "#
            + (local ? #""localReplica": "local", "now": 1764000100000, "# : "")
            + #""replicas": [\#(replicas.joined(separator: ", "))], "expect": \#(expect)}"#
    }

    @Test("skipped files and entries, key order and names pass when they hold")
    func passing() {
        let result = run(
            Self.sync(
                #"{"skippedFiles": [2], "skipped": ["documents.epub/shared.$id"],"#
                    + #" "keyOrder": {"epub/shared": ["fontSize", "theme"]}, "names": {"r": "Kobo"}}"#))
        #expect(result.passed, "\(result.line)")
    }

    @Test("each wrong expectation fails, in both orders, saying what it got")
    func failing() {
        let result = run(
            Self.sync(
                #"{"skippedFiles": [2], "skipped": ["documents.epub/shared.theme"],"#
                    + #" "keyOrder": {"epub/shared": ["theme", "fontSize"]}, "names": {"r": "Kobo Clara"}}"#))
        let each = { (order: String) in
            [
                #"skipped (\#(order)): expected ["documents.epub/shared.theme"], got ["documents.epub/shared.$id: a file's identifier, not a preference"]"#,
                #"keyOrder epub/shared (\#(order)): expected ["theme", "fontSize"], got ["fontSize", "theme"]"#,
                #"names (\#(order)): expected {"r": "Kobo Clara"}, got {"r": "Kobo"}"#,
            ]
        }
        #expect(result.failures == each("in order") + each("in reverse order"))
    }

    /// A first join (Specs/Sync.md §5.9): the local replica, with a document of its own, meets
    /// the remote file.
    static func firstJoin(_ choice: String, _ expect: String) -> String {
        #"{"name": "n", "localReplica": "local", "now": 1764000100000, "firstJoin": "\#(choice)", "#
            + #""localDocuments": {"epub/shared": {"fontSize": 1}}, "replicas": [\#(remote)], "#
            + #""expect": \#(expect)}"#
    }

    @Test("a first join's differences pass when they hold, and fail in both orders saying what they got")
    func firstJoinDifferences() {
        let passing = run(
            Self.firstJoin(
                "ask", #"{"differences": {"epub/shared": ["fontSize", "theme"]}, "preferences": {}}"#))
        #expect(passing.passed, "\(passing.line)")
        let failing = run(Self.firstJoin("keepMine", #"{"differences": {"epub/shared": ["theme"]}}"#))
        #expect(
            failing.failures
                == ["in order", "in reverse order"].map {
                    #"differences (\#($0)): expected {epub/shared: ["theme"]}, got {epub/shared: ["fontSize", "theme"]}"#
                })
        #expect(
            run(Self.firstJoin("mine", "{}")).failures == [
                "firstJoin: expected ask, keepMine, takeTheirs or merge"
            ])
    }

    @Test("a file listed as skipped that a reader reads fails the case")
    func readThoughSkipped() {
        let result = run(Self.sync(#"{"skippedFiles": [0, 2]}"#, local: false))
        #expect(
            result.failures == [
                "replicas[0]: expected the file to be skipped whole (Specs/Sync.md §2), but it was read"
            ])
    }

    @Test(
        "a file a reader skips, not listed, and expectations that need a local replica fail the case with their path",
        arguments: [
            (sync("{}"), "replicas[2]: format version 2 is newer than 1"),
            (
                sync(#"{"skippedFiles": [3]}"#),
                "expect.skippedFiles[0]: expected a position in replicas (0 to 2)"
            ),
            (
                sync(#"{"keyOrder": {"epub/shared": []}}"#, replicas: [local], local: false),
                "expect.keyOrder: needs localReplica"
            ),
            (
                sync(#"{"names": {}}"#, replicas: [local], local: false),
                "expect.names: needs localReplica"
            ),
            (
                sync(#"{"keyOrder": {"epub/shared": "fontSize"}}"#, replicas: [local]),
                #"expect.keyOrder.epub/shared: expected an array, got string "fontSize""#
            ),
        ])
    func malformed(_ json: String, _ message: String) {
        #expect(run(json).failures == [message])
    }
}
