import Foundation
import ReadingPreferences
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 19's findings, driven through `readingprefs` as a person (or an attacker with write
/// access to the shared folder) would: each test failed before the storage layer was rebuilt.
@Suite("Sync findings, through the command line", .serialized)
struct SyncFindingsCommandTests {
    /// Store roots and one mirror folder in a temporary folder.
    struct Rig {
        let folder: TemporaryFolder
        var mirror: String { folder.path("mirror") }

        init() throws { folder = try TemporaryFolder() }

        func root(_ name: String) -> String { folder.path(name) }

        @discardableResult
        func run(_ arguments: [String]) throws -> CommandLineTool.Outcome {
            try CommandLineTool.run(arguments)
        }

        @discardableResult
        func sync(_ name: String, replica: String? = nil) throws -> CommandLineTool.Outcome {
            try run(
                ["sync", "--root", root(name), "--mirror", mirror]
                    + (replica.map { ["--replica", $0] } ?? []))
        }

        /// A root's document, or `nil` when its file does not exist.
        func document(_ name: String, _ relative: String = "epub/shared.json") throws -> Preferences? {
            let path = root(name) + "/" + relative
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return try Preferences(json: Data(contentsOf: URL(fileURLWithPath: path)))
        }

        func write(_ text: String, to path: String) throws {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }

        /// The publication files of a root.
        func publicationFiles(_ name: String) -> [String] {
            let folder = root(name) + "/epub/publications"
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".json") }.sorted()
        }
    }

    /// Milliseconds since 1970, now.
    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func stamp(_ time: Int64, _ counter: UInt64 = 0, _ replica: String) -> String {
        #"{"time": \#(time), "counter": \#(counter), "replica": "\#(replica)"}"#
    }

    static func replicaFile(_ replica: String, merged: String = "{}", documents: String = "{}") -> String {
        #"{"format": "readingprefs-sync", "version": 1, "replica": "\#(replica)", "writer": "w", "merged": \#(merged), "documents": \#(documents)}"#
    }

    // MARK: - 1. Writes outside the mirror

    @Test("finding 1: a link planted at the own replica file's path is replaced, never followed")
    func linkAtOwnFile() throws {
        let rig = try Rig()
        try rig.run(["store", "--root", rig.root("a"), "set", "fontSize", "1.4"])
        let victim = rig.folder.path("victim.txt")
        try rig.write("precious\n", to: victim)
        try FileManager.default.createDirectory(atPath: rig.mirror, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: rig.mirror + "/a.json", withDestinationPath: victim)
        let outcome = try rig.sync("a", replica: "a")
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(!FileManager.default.fileExists(atPath: victim + ".lock"))
        var info = stat()
        #expect(lstat(rig.mirror + "/a.json", &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFREG, "the own file is a regular file again")
        #expect(outcome.error.contains("a.json"), "the link is reported: \(outcome.error)")
    }

    @Test("finding 1: a link planted at a lock file's path in the mirror creates nothing")
    func linkAtLockFile() throws {
        let rig = try Rig()
        try rig.run(["store", "--root", rig.root("a"), "set", "fontSize", "1.4"])
        let target = rig.folder.path("created-by-sync")
        try FileManager.default.createDirectory(atPath: rig.mirror, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: rig.mirror + "/a.json.lock", withDestinationPath: target)
        let outcome = try rig.sync("a", replica: "a")
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(!FileManager.default.fileExists(atPath: target))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: rig.mirror).filter {
            $0 != "a.json" && $0 != "a.json.lock"
        }
        #expect(leftovers.isEmpty, "no lock or temporary file is left in the mirror: \(leftovers)")
    }

    // MARK: - 2. A trap from a remote file

    @Test("finding 2: a remote counter near 2^63 is ignored and reported; stamping 1,200 keys never traps")
    func counterNearOverflow() throws {
        let rig = try Rig()
        try rig.write("{\"fontSize\": 1.2}\n", to: rig.root("a") + "/epub/shared.json")
        let entry =
            #"{"value": 1, "stamp": \#(Self.stamp(Self.now + 3_600_000, 9_223_372_036_854_774_783, "evil"))}"#
        try rig.write(
            Self.replicaFile("evil", documents: #"{"epub/shared": {"theme": \#(entry)}}"#),
            to: rig.mirror + "/evil.json")
        let outcome = try rig.sync("a", replica: "a")
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.error.contains("evil.json"), "the stamp is reported: \(outcome.error)")
        // After reading that file, the person adds 1,200 keys: each needs a stamp.
        let keys = (0..<1_200).map { #""myApp.k\#($0)": \#($0)"# }.joined(separator: ", ")
        try rig.write("{\(keys)}\n", to: rig.root("a") + "/epub/shared.json")
        let again = try rig.sync("a", replica: "a")
        #expect(again.status == 0, "\(again.error)")
        let published = try String(contentsOfFile: rig.mirror + "/a.json", encoding: .utf8)
        #expect(published.contains("myApp.k1199"))
        #expect(try rig.document("a")?["theme"] == nil, "the out-of-range entry is not applied")
    }

    // MARK: - 3. One typo deletes keys on every device

    @Test("finding 3: a typo in a hand-edited file never spreads removals", arguments: [false, true])
    func typoSpreadsNothing(publication: Bool) throws {
        let rig = try Rig()
        let book = publication ? ["--publication", "urn:isbn:1"] : []
        try rig.run(["store", "--root", rig.root("a"), "set", "fontSize", "1.4"] + book)
        try rig.run(["store", "--root", rig.root("a"), "set", "theme", "sepia"] + book)
        try rig.run(["store", "--root", rig.root("a"), "set", "readingProgression", "rtl"] + book)
        try rig.sync("a", replica: "a")
        try rig.sync("b", replica: "b")
        // A person breaks the file holding readingProgression (the book's file when there is one).
        let relative =
            publication ? "epub/publications/" + (rig.publicationFiles("a").first ?? "") : "epub/shared.json"
        let before = try rig.document("b", relative)
        #expect(before?["readingProgression"] == "rtl")
        try rig.write(#"{"readingProgression": "rtl", "fontSize": 1.4"#, to: rig.root("a") + "/" + relative)
        // The app reads the broken file first (it is moved aside), then both devices sync, twice.
        #expect(try rig.run(["store", "--root", rig.root("a"), "show"] + book).status == 0)
        for _ in 0..<2 {
            #expect(try rig.sync("a", replica: "a").status == 0)
            #expect(try rig.sync("b", replica: "b").status == 0)
        }
        #expect(try rig.document("b", relative) == before, "the other device keeps every value")
        #expect(try rig.document("b")?["fontSize"] == 1.4)
    }

    // MARK: - 6. Hand edits missed

    @Test("finding 6: a hand edit that keeps the file's size and modification time syncs")
    func sameSizeAndTime() throws {
        let rig = try Rig()
        let shared = rig.root("a") + "/epub/shared.json"
        try rig.write("{\"fontSize\": 1.2}\n", to: shared)
        try rig.sync("a", replica: "a")
        try rig.sync("b", replica: "b")
        var before = stat()
        #expect(stat(shared, &before) == 0)
        try rig.write("{\"fontSize\": 1.8}\n", to: shared)
        #if canImport(Darwin)
            var times = [before.st_atimespec, before.st_mtimespec]
        #else
            var times = [before.st_atim, before.st_mtim]
        #endif
        #expect(utimensat(AT_FDCWD, shared, &times, 0) == 0)
        try rig.sync("a", replica: "a")
        try rig.sync("b", replica: "b")
        #expect(try rig.document("b")?["fontSize"] == 1.8)
    }

    // MARK: - 7. Unicode-equivalent keys and books

    @Test("finding 7: canonically equivalent keys and publication identifiers stay distinct through sync")
    func equivalentKeysAndBooks() throws {
        let rig = try Rig()
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        try rig.write(
            "{\"\(composed)\": 1, \"\(decomposed)\": 2, \"\u{212A}\": 3, \"K\": 4}\n",
            to: rig.root("a") + "/epub/shared.json")
        try rig.run([
            "store", "--root", rig.root("a"), "set", "readingProgression", "rtl", "--publication", composed,
        ])
        try rig.run([
            "store", "--root", rig.root("a"), "set", "readingProgression", "ltr", "--publication", decomposed,
        ])
        #expect(rig.publicationFiles("a").count == 2)
        try rig.sync("a", replica: "a")
        try rig.sync("b", replica: "b")
        let shared = try #require(try rig.document("b"))
        #expect(shared.count == 4, "\(shared)")
        #expect(shared.members.map(\.value).sorted { "\($0)" < "\($1)" } == [1, 2, 3, 4])
        for member in shared.members {
            let expected: JSONValue =
                member.key.unicodeScalars.elementsEqual(composed.unicodeScalars)
                ? 1
                : member.key.unicodeScalars.elementsEqual(decomposed.unicodeScalars)
                    ? 2
                    : member.key == "K" && member.key.unicodeScalars.first?.value == 0x212A ? 3 : 4
            #expect(member.value == expected, "\(member.key.unicodeScalars.map { $0.value })")
        }
        #expect(rig.publicationFiles("b").count == 2)
        let progressions = try rig.publicationFiles("b").compactMap {
            try rig.document("b", "epub/publications/" + $0)?["readingProgression"]?.stringValue
        }
        #expect(progressions.sorted() == ["ltr", "rtl"])
    }

    // MARK: - 8. One deep value blocks a device

    @Test("finding 8: a value nested 13 levels deep syncs; the file holding it is not skipped")
    func deepValue() throws {
        let rig = try Rig()
        let deep = String(repeating: "[", count: 13) + "1" + String(repeating: "]", count: 13)
        try rig.write(
            "{\"myApp.deep\": \(deep), \"fontSize\": 1.6}\n", to: rig.root("a") + "/epub/shared.json")
        try rig.sync("a", replica: "a")
        let outcome = try rig.sync("b", replica: "b")
        #expect(outcome.status == 0)
        #expect(try rig.document("b")?["fontSize"] == 1.6, "\(outcome.error)")
        #expect(try rig.document("b")?["myApp.deep"] == (try JSONValue(json: deep)))
    }

    // MARK: - 9. The clock, compaction, a lost sidecar

    @Test("finding 9: the clock follows stamps seen in merged maps, so a later local edit wins")
    func clockFollowsMergedMaps() throws {
        let rig = try Rig()
        let ahead = Self.now + 600_000
        try rig.write("{\"fontSize\": 1.2}\n", to: rig.root("a") + "/epub/shared.json")
        try rig.write(
            Self.replicaFile("r", merged: #"{"x": \#(Self.stamp(ahead, 0, "x"))}"#),
            to: rig.mirror + "/r.json")
        try rig.sync("a", replica: "a")
        // After reading a stamp of ten minutes ahead, the person edits the file: a later edit.
        try rig.write("{\"fontSize\": 1.6}\n", to: rig.root("a") + "/epub/shared.json")
        try rig.sync("a", replica: "a")
        // The edit r had merged arrives: it came before the local edit, so it loses.
        let entry = #"{"value": 1.2, "stamp": \#(Self.stamp(ahead, 0, "x"))}"#
        try rig.write(
            Self.replicaFile(
                "x", merged: #"{"x": \#(Self.stamp(ahead, 0, "x"))}"#,
                documents: #"{"epub/shared": {"fontSize": \#(entry)}}"#),
            to: rig.mirror + "/x.json")
        try rig.sync("a", replica: "a")
        #expect(try rig.document("a")?["fontSize"] == 1.6)
    }

    @Test("finding 9: a lost sidecar does not bring back a removed key")
    func lostSidecar() throws {
        let rig = try Rig()
        try rig.run(["store", "--root", rig.root("a"), "set", "fontSize", "1.2"])
        try rig.run(["store", "--root", rig.root("a"), "set", "theme", "dark"])
        try rig.sync("a", replica: "a")
        try rig.sync("b", replica: "b")
        try rig.run(["store", "--root", rig.root("a"), "remove", "theme"])
        try rig.sync("a", replica: "a")
        // The sync state beside the document is lost (a backup restore, a careless clean-up).
        for name in try FileManager.default.contentsOfDirectory(atPath: rig.root("a") + "/epub")
        where name.hasPrefix("shared.json.") {
            try FileManager.default.removeItem(atPath: rig.root("a") + "/epub/" + name)
        }
        for _ in 0..<2 {
            try rig.sync("a", replica: "a")
            try rig.sync("b", replica: "b")
        }
        #expect(try rig.document("a")?["theme"] == nil)
        #expect(try rig.document("b")?["theme"] == nil)
        #expect(try rig.document("b")?["fontSize"] == 1.2)
    }

    // MARK: - 10. Replica identity

    @Test("finding 10: four concurrent syncs of one root keep one replica id and one file")
    func concurrentSyncs() throws {
        let rig = try Rig()
        try rig.run(["store", "--root", rig.root("a"), "set", "fontSize", "1.2"])
        let outcomes = LockedOutcomes()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let outcome = try? rig.sync("a") { outcomes.append(outcome) }
        }
        #expect(outcomes.all.count == 4)
        for outcome in outcomes.all {
            #expect(outcome.status == 0, "\(outcome.error)")
            #expect(!outcome.error.contains("another device"), "\(outcome.error)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: rig.mirror).filter {
            $0.hasSuffix(".json")
        }
        #expect(files.count == 1, "\(files)")
    }

    @Test(
        "finding 10: an empty or malformed replica id is a usage error",
        arguments: ["", "Phone", "-a", "a/b"])
    func badReplicaID(id: String) throws {
        let rig = try Rig()
        #expect(try rig.sync("a", replica: id).status == 2)
    }

    @Test("finding 10: a file claiming the local replica's id under another name is skipped and reported")
    func fileClaimingLocalID() throws {
        let rig = try Rig()
        let entry = #"{"value": 2.0, "stamp": \#(Self.stamp(Self.now, 0, "a"))}"#
        try rig.write(
            Self.replicaFile("a", documents: #"{"epub/shared": {"fontSize": \#(entry)}}"#),
            to: rig.mirror + "/impostor.json")
        let outcome = try rig.sync("a", replica: "a")
        #expect(outcome.error.contains("impostor.json"), "\(outcome.error)")
        #expect(try rig.document("a")?["fontSize"] == nil)
    }

    @Test("finding 10: a mirror that overlaps the store root is a usage error")
    func overlappingFolders() throws {
        let rig = try Rig()
        try rig.run(["store", "--root", rig.root("a"), "set", "fontSize", "1.2"])
        let same = try rig.run([
            "sync", "--root", rig.root("a"), "--mirror", rig.root("a"), "--replica", "device",
        ])
        #expect(same.status == 2, "\(same.error)")
        let inside = try rig.run([
            "sync", "--root", rig.root("a"), "--mirror", rig.root("a") + "/epub/profiles", "--replica", "a",
        ])
        #expect(inside.status == 2, "\(inside.error)")
        let around = try rig.run(["sync", "--root", rig.root("a") + "/x", "--mirror", rig.root("a")])
        #expect(around.status == 2, "\(around.error)")
    }
}

/// Outcomes appended from several threads.
private final class LockedOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [CommandLineTool.Outcome] = []

    func append(_ outcome: CommandLineTool.Outcome) { lock.withLock { outcomes.append(outcome) } }
    var all: [CommandLineTool.Outcome] { lock.withLock { outcomes } }
}
