import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// Sync between real store folders through one mirror folder (Specs/Sync.md).
// A stream that never delivers fails the suite, never hangs it (`.timeLimit` needs macOS 13 on
// Apple systems, above the package's floor).
#if canImport(Darwin)
    @Suite("Sync end to end", .serialized)
#else
    @Suite("Sync end to end", .serialized, .timeLimit(.minutes(5)))
#endif
struct SyncEndToEndTests {
    /// Two devices: their store folders and a shared mirror.
    struct Devices {
        let folder: TemporaryFolder
        var phone: URL { folder.url.appendingPathComponent("phone") }
        var tablet: URL { folder.url.appendingPathComponent("tablet") }
        var mirror: URL { folder.url.appendingPathComponent("mirror") }

        init() throws { folder = try TemporaryFolder() }

        func store(_ root: URL) -> PreferencesStore<EPUB> {
            PreferencesStore(storage: FileStorage(root: root))
        }

        func sync(_ root: URL, name: String, offset: TimeInterval = 0) async throws -> SyncReport {
            try await store(root).sync(
                with: mirror,
                options: .init(replica: ReplicaID(name), now: { Date().addingTimeInterval(offset) }))
        }
    }

    @Test(
        "two stores converge in one round each way, and a removal stays removed, with one clock an hour off",
        arguments: [0.0, 3_600, -3_600])
    func convergeAndRemove(offset: TimeInterval) async throws {
        let devices = try Devices()
        let phone = devices.store(devices.phone)
        try await phone.edit(publication: "urn:isbn:1") { editor in
            try editor.set(.fontSize, 1.4)
            try editor.set(.readingProgression, .rtl)
        }
        let night = try await phone.createProfile(named: "Night")
        try await phone.write(["theme": "dark"], to: .profile(night.id))
        _ = try await devices.sync(devices.phone, name: "phone")
        let report = try await devices.sync(devices.tablet, name: "tablet", offset: offset)
        #expect(report.changes.count == 4, "\(report.changes)")
        let tablet = devices.store(devices.tablet)
        #expect(
            try await tablet.preferences(for: "urn:isbn:1") == ["fontSize": 1.4, "readingProgression": "rtl"])
        #expect(try await tablet.profiles() == [Profile(id: night.id, name: "Night")])
        // Which profile is active does not sync.
        try await phone.activateProfile(night.id)
        _ = try await devices.sync(devices.phone, name: "phone")
        _ = try await devices.sync(devices.tablet, name: "tablet", offset: offset)
        #expect(try await devices.store(devices.tablet).activeProfile() == nil)

        // The tablet (clock off) removes the font size; it stays removed on both, round after round.
        try await devices.store(devices.tablet).edit { editor in editor.clear(.fontSize) }
        try await devices.store(devices.tablet).write(["fontSize": nil], to: .publication("urn:isbn:1"))
        for _ in 0..<3 {
            _ = try await devices.sync(devices.tablet, name: "tablet", offset: offset)
            _ = try await devices.sync(devices.phone, name: "phone")
        }
        #expect(try await devices.store(devices.phone).preferences(for: "urn:isbn:1")["fontSize"] == nil)
        #expect(try await devices.store(devices.tablet).preferences(for: "urn:isbn:1")["fontSize"] == nil)
        // Equal documents (the phone's active profile is its own choice, so compare layers).
        for layer in [StoreLayer.shared, .publication("urn:isbn:1"), .profile(night.id)] {
            let onPhone = try await devices.store(devices.phone).storedPreferences(in: layer)
            let onTablet = try await devices.store(devices.tablet).storedPreferences(in: layer)
            #expect(onPhone == onTablet, "\(layer): \(onPhone) vs \(onTablet)")
        }
    }

    @Test("a hand edit of a plain file syncs")
    func handEdit() async throws {
        let devices = try Devices()
        try await devices.store(devices.phone).write(["fontSize": 1.2], to: .shared)
        _ = try await devices.sync(devices.phone, name: "phone")
        _ = try await devices.sync(devices.tablet, name: "tablet")
        // A person edits the tablet's file in a text editor.
        let shared = devices.tablet.appendingPathComponent("epub/shared.json")
        try Data("{\n  \"fontSize\": 1.8,\n  \"myApp.note\": \"by hand\"\n}\n".utf8).write(to: shared)
        _ = try await devices.sync(devices.tablet, name: "tablet")
        let report = try await devices.sync(devices.phone, name: "phone")
        #expect(report.changes.map(\.key).sorted() == ["fontSize", "myApp.note"])
        #expect(
            try await devices.store(devices.phone).preferences() == [
                "fontSize": 1.8, "myApp.note": "by hand",
            ])
    }

    @Test(
        "a replica file truncated mid-write is skipped and reported, never a reason to delete; it merges again once whole"
    )
    func truncatedReplicaFile() async throws {
        let devices = try Devices()
        try await devices.store(devices.phone).write(["fontSize": 1.2, "theme": "dark"], to: .shared)
        _ = try await devices.sync(devices.phone, name: "phone")
        let file = devices.mirror.appendingPathComponent("phone.json")
        let whole = try Data(contentsOf: file)
        try whole.prefix(whole.count / 2).write(to: file)
        try await devices.store(devices.tablet).write(["lineHeight": 1.5], to: .shared)
        let report = try await devices.sync(devices.tablet, name: "tablet")
        #expect(
            report.problems.contains {
                if case .skippedReplicaFile("phone.json", _) = $0 { true } else { false }
            })
        #expect(try await devices.store(devices.tablet).preferences() == ["lineHeight": 1.5])
        // The file comes back whole (the phone writes it again): merged like any other.
        try whole.write(to: file)
        _ = try await devices.sync(devices.tablet, name: "tablet")
        #expect(
            try await devices.store(devices.tablet).preferences() == [
                "lineHeight": 1.5, "fontSize": 1.2, "theme": "dark",
            ])
        _ = try await devices.sync(devices.phone, name: "phone")
        #expect(
            try await devices.store(devices.phone).preferences() == [
                "fontSize": 1.2, "theme": "dark", "lineHeight": 1.5,
            ])
    }

    @Test("a cloud placeholder is reported as not downloaded yet, and merged once the file arrives")
    func cloudPlaceholder() async throws {
        let devices = try Devices()
        try await devices.store(devices.phone).write(["theme": "sepia"], to: .shared)
        _ = try await devices.sync(devices.phone, name: "phone")
        // iCloud Drive has not downloaded the phone's file on the tablet yet: only its placeholder.
        let file = devices.mirror.appendingPathComponent("phone.json")
        let placeholder = devices.mirror.appendingPathComponent(".phone.json.icloud")
        try FileManager.default.moveItem(at: file, to: placeholder)
        try await devices.store(devices.tablet).write(["fontSize": 1.3], to: .shared)
        let waiting = try await devices.sync(devices.tablet, name: "tablet")
        #expect(
            waiting.problems.map(\.description) == [
                "skipped replica file phone.json: not downloaded yet; its download was requested"
            ])
        #expect(try await devices.store(devices.tablet).preferences() == ["fontSize": 1.3])
        try FileManager.default.moveItem(at: placeholder, to: file)
        let arrived = try await devices.sync(devices.tablet, name: "tablet")
        #expect(arrived.problems.isEmpty)
        #expect(try await devices.store(devices.tablet).preferences() == ["fontSize": 1.3, "theme": "sepia"])
    }

    @Test("a file of a newer format is skipped and reported")
    func futureFormat() async throws {
        let devices = try Devices()
        try FileManager.default.createDirectory(at: devices.mirror, withIntermediateDirectories: true)
        try Data(#"{"format":"readingprefs-sync","version":2,"replica":"future","documents":{}}"#.utf8)
            .write(to: devices.mirror.appendingPathComponent("future.json"))
        let report = try await devices.sync(devices.phone, name: "phone")
        #expect(
            report.problems.map(\.description) == [
                "skipped replica file future.json: format version 2 is newer than 1"
            ])
    }

    @Test("a second device writing under the same id is reported, and the local replica takes a new id")
    func cloneDetected() async throws {
        let devices = try Devices()
        _ = try await devices.sync(devices.phone, name: "phone")
        // A copy of the phone's folder, as a restore or a copy would make it.
        try FileManager.default.copyItem(at: devices.phone, to: devices.tablet)
        // The phone goes on: its next sync publishes a new state, which the copy did not write.
        try await devices.store(devices.phone).write(["fontSize": 1.3], to: .shared)
        _ = try await devices.sync(devices.phone, name: "phone")
        let report = try await devices.sync(devices.tablet, name: "phone")
        #expect(
            report.problems.contains {
                if case .replicaIDInUse(ReplicaID("phone"), _) = $0 { true } else { false }
            })
        #expect(report.replica?.rawValue != "phone")
        // From then on, both write their own files.
        let again = try await devices.sync(devices.tablet, name: "phone")
        let actual = try #require(report.replica)
        #expect(again.problems == [.replicaMismatch(requested: try replicaID("phone"), actual: actual)])
        #expect(again.replica == report.replica)
    }

    @Test("sync reports changed keys on the store's change streams with cause sync, once")
    func observation() async throws {
        let devices = try Devices()
        try await devices.store(devices.phone).write(["fontSize": 1.6], to: .shared)
        _ = try await devices.sync(devices.phone, name: "phone")
        let tablet = devices.store(devices.tablet)
        var changes = try await tablet.changes().makeAsyncIterator()
        _ = try await tablet.sync(with: devices.mirror, options: .init(replica: ReplicaID("tablet")))
        #expect(
            await changes.next()
                == PreferenceChange(key: "fontSize", oldValue: 1.0, newValue: 1.6, cause: .sync))
        _ = try await tablet.sync(with: devices.mirror, options: .init(replica: ReplicaID("tablet")))
        try await tablet.write(["theme": "sepia"], to: .shared)
        let next = await changes.next()
        #expect(next?.cause == .edit)  // the second sync changed nothing
    }

    @Test(
        "a sync run by another process is reported on an open store's stream, with cause sync",
        .timeLimit(.minutes(1)))
    func syncInAnotherProcess() async throws {
        let devices = try Devices()
        try await devices.store(devices.phone).write(["fontSize": 1.4], to: .shared)
        _ = try await devices.sync(devices.phone, name: "phone")
        _ = try await devices.sync(devices.tablet, name: "tablet")
        try await devices.store(devices.tablet).write(["fontSize": 1.8], to: .shared)
        _ = try await devices.sync(devices.tablet, name: "tablet")
        let phone = devices.store(devices.phone)
        var changes = try await phone.changes().makeAsyncIterator()
        let outcome = try CommandLineTool.run([
            "sync", "--root", devices.phone.path, "--mirror", devices.mirror.path, "--replica", "phone",
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(
            await changes.next()
                == PreferenceChange(key: "fontSize", oldValue: 1.4, newValue: 1.8, cause: .sync))
    }

    @Test("a sync through one store is reported on every store open on the same storage")
    func everyStoreHears() async throws {
        let devices = try Devices()
        try await devices.store(devices.tablet).write(["fontSize": 1.8], to: .shared)
        _ = try await devices.sync(devices.tablet, name: "tablet")
        let reader = devices.store(devices.phone)
        let pdf = PreferencesStore<PDF>(storage: FileStorage(root: devices.phone))
        var changes = try await reader.changes().makeAsyncIterator()
        _ = try await pdf.sync(with: devices.mirror, options: .init(replica: ReplicaID("phone")))
        #expect(
            await changes.next()
                == PreferenceChange(key: "fontSize", oldValue: 1.0, newValue: 1.8, cause: .sync))
    }

    @Test("readingprefs sync: one line per changed key and a count")
    func command() throws {
        let folder = try TemporaryFolder()
        let (a, b, mirror) = (folder.path("a"), folder.path("b"), folder.path("mirror"))
        #expect(try CommandLineTool.run(["store", "--root", a, "set", "fontSize", "1.5"]).status == 0)
        #expect(
            try CommandLineTool.run(["sync", "--root", a, "--mirror", mirror, "--replica", "a"]).status == 0)
        let outcome = try CommandLineTool.run(["sync", "--root", b, "--mirror", mirror, "--replica", "b"])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output == "epub/shared fontSize (none) → 1.5\n1 key(s) changed (replica b)\n")
        #expect(try CommandLineTool.run(["store", "--root", b, "remove", "fontSize"]).status == 0)
        #expect(try CommandLineTool.run(["sync", "--root", b, "--mirror", mirror]).status == 0)
        let back = try CommandLineTool.run(["sync", "--root", a, "--mirror", mirror])
        #expect(back.output == "epub/shared fontSize 1.5 → (removed)\n1 key(s) changed (replica a)\n")
    }
}

@Suite("Edits stamped when made, through the command line")
struct EditStampCommandTests {
    @Test("two roots: B edits after A, A syncs last, and B's value wins on both")
    func laterEditWins() throws {
        let folder = try TemporaryFolder()
        let (a, b, mirror) = (folder.path("a"), folder.path("b"), folder.path("mirror"))
        // Both devices know each other first.
        #expect(
            try CommandLineTool.run(["sync", "--root", a, "--mirror", mirror, "--replica", "a"]).status == 0)
        #expect(
            try CommandLineTool.run(["sync", "--root", b, "--mirror", mirror, "--replica", "b"]).status == 0)
        // A edits, then B edits the same key later (each command is a process of its own, so
        // B's edit is made milliseconds after A's at least).
        #expect(try CommandLineTool.run(["store", "--root", a, "set", "fontSize", "1.2"]).status == 0)
        #expect(try CommandLineTool.run(["store", "--root", b, "set", "fontSize", "1.8"]).status == 0)
        // B syncs first, A last: A's older edit must not win.
        let fromB = try CommandLineTool.run(["sync", "--root", b, "--mirror", mirror])
        #expect(
            fromB.output
                == "sent epub/shared fontSize (none) → 1.8\n1 key(s) sent\n0 key(s) changed (replica b)\n")
        let fromA = try CommandLineTool.run(["sync", "--root", a, "--mirror", mirror])
        #expect(fromA.status == 0, "\(fromA.error)")
        #expect(
            fromA.output
                == "sent epub/shared fontSize (none) → 1.2\nepub/shared fontSize 1.2 → 1.8\n1 key(s) sent\n"
                + "1 key(s) changed (replica a)\n")
        #expect(try CommandLineTool.run(["sync", "--root", b, "--mirror", mirror]).status == 0)
        for root in [a, b] {
            let shared = try String(contentsOfFile: root + "/epub/shared.json", encoding: .utf8)
            #expect(shared == "{\n  \"fontSize\": 1.8\n}\n", "\(root)")
        }
    }

    @Test("--new-replica gives a root a new id, retires the old one, and keeps its edits")
    func newReplica() throws {
        let folder = try TemporaryFolder()
        let (root, mirror) = (folder.path("root"), folder.path("mirror"))
        #expect(try CommandLineTool.run(["store", "--root", root, "set", "fontSize", "1.5"]).status == 0)
        #expect(
            try CommandLineTool.run(["sync", "--root", root, "--mirror", mirror, "--replica", "phone"]).status
                == 0)
        let kept = try CommandLineTool.run([
            "sync", "--root", root, "--mirror", mirror, "--replica", "tablet",
        ])
        #expect(kept.error.contains("--new-replica"), "\(kept.error)")
        let renamed = try CommandLineTool.run([
            "sync", "--root", root, "--mirror", mirror, "--replica", "tablet", "--new-replica",
        ])
        #expect(renamed.status == 0, "\(renamed.error)")
        #expect(renamed.output.hasSuffix("(replica tablet)\n"), "\(renamed.output)")
        #expect(
            renamed.error.contains("now syncs as replica tablet; replica phone is retired"),
            "\(renamed.error)")
        #expect(!renamed.error.contains("retirement horizon"), "\(renamed.error)")
        let file = try String(contentsOfFile: mirror + "/tablet.json", encoding: .utf8)
        #expect(file.contains("\"fontSize\":{\"value\":1.5"), "\(file)")
    }

    @Test("a deleted file is said by name: its keys are sent as removed")
    func deletedFile() throws {
        let folder = try TemporaryFolder()
        let (a, b, mirror) = (folder.path("a"), folder.path("b"), folder.path("mirror"))
        #expect(try CommandLineTool.run(["store", "--root", a, "set", "fontSize", "1.5"]).status == 0)
        #expect(try CommandLineTool.run(["store", "--root", a, "set", "lineHeight", "1.4"]).status == 0)
        #expect(
            try CommandLineTool.run(["sync", "--root", a, "--mirror", mirror, "--replica", "a"]).status == 0)
        #expect(
            try CommandLineTool.run(["sync", "--root", b, "--mirror", mirror, "--replica", "b"]).status == 0)
        try FileManager.default.removeItem(atPath: a + "/epub/shared.json")
        let outcome = try CommandLineTool.run(["sync", "--root", a, "--mirror", mirror])
        #expect(
            outcome.output.hasPrefix("epub/shared: 3 keys removed (the file was deleted)\n"),
            "\(outcome.output)")
        #expect(outcome.output.contains("sent epub/shared fontSize 1.5 → (removed)\n"))
        #expect(outcome.output.contains("3 key(s) sent\n"))
        let json = try CommandLineTool.run(["sync", "--root", b, "--mirror", mirror, "--json"])
        let report = try JSONValue(json: Data(json.output.utf8)).objectValue
        #expect(report?["received"]?.arrayValue?.count == 3)
        #expect(report?["sent"]?.arrayValue?.isEmpty == true)
        #expect(report?["replica"] == "b")
    }

    @Test("the last key removed by an edit is said as such, not as a deleted file")
    func lastKeyRemoved() throws {
        let folder = try TemporaryFolder()
        let (a, mirror) = (folder.path("a"), folder.path("mirror"))
        #expect(try CommandLineTool.run(["store", "--root", a, "set", "fontSize", "1.5"]).status == 0)
        #expect(
            try CommandLineTool.run(["sync", "--root", a, "--mirror", mirror, "--replica", "a"]).status == 0)
        #expect(try CommandLineTool.run(["store", "--root", a, "remove", "fontSize"]).status == 0)
        let outcome = try CommandLineTool.run(["sync", "--root", a, "--mirror", mirror])
        #expect(
            outcome.output.hasPrefix(
                "epub/shared: 1 key removed (its last key was removed, and the document with it)\n"),
            "\(outcome.output)")
        #expect(!outcome.output.contains("the file was deleted"))
        #expect(outcome.output.contains("sent epub/shared fontSize 1.5 → (removed)\n"))
    }
}
