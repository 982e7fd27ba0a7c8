import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `readingprefs sync --root DIR --mirror DIR [--replica ID]`: one sync of a store's folder with
/// a mirror folder (SPEC 10), through the store, so its pending edits are written first and
/// every configurable under the root syncs.
enum SyncCommand {
    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(
            tokens, command: "sync",
            spec: OptionSpec(
                valued: ["root", "mirror", "replica"],
                placeholders: ["root": "DIR", "mirror": "DIR", "replica": "ID"]))
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .sync))
            return 0
        }
        try arguments.requirePositionals(0, 0, command: "sync", usage: "no arguments")
        guard let root = arguments.values["root"] else {
            throw .usage("sync needs --root DIR (the folder the store keeps its files in)")
        }
        guard let mirror = arguments.values["mirror"] else {
            throw .usage("sync needs --mirror DIR (a folder the devices share, outside the store's folder)")
        }
        var options = SyncOptions()
        if let text = arguments.values["replica"] {
            guard let replica = ReplicaID(text) else {
                throw .usage(
                    "--replica \(text.isEmpty ? "''" : text) is not a replica id: use 1 to 64 lower-case letters, "
                        + "digits and hyphens, starting with a letter or digit (for example: phone, tablet-2)"
                )
            }
            options.replica = replica
        }
        let store = PreferencesStore<EPUB>(storage: FileStorage(root: URL(fileURLWithPath: root)))
        let report: SyncReport
        do {
            report = try await store.sync(
                with: MirrorFolder(url: URL(fileURLWithPath: mirror)), options: options)
        } catch let error as SyncError {
            if case .usage(let message) = error { throw .usage(message) }
            throw .failure("sync failed: \(error)")
        } catch {
            throw .failure("sync failed: \(error)")
        }
        for problem in await store.problems { Console.error("readingprefs: warning: \(problem.message)") }
        for problem in report.problems { Console.error("readingprefs: warning: \(problem)") }
        for change in report.changes { Console.out(change.description) }
        Console.out("\(report.changes.count) key(s) changed (replica \(report.replica?.rawValue ?? "-"))")
        return 0
    }
}
