import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `readingprefs sync --root DIR --mirror DIR [--replica NAME]`: one reconciliation with a mirror
/// folder (SPEC 10).
enum SyncCommand {
    static func run(_ tokens: [String]) throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(
            tokens, command: "sync", spec: OptionSpec(valued: ["root", "mirror", "replica"]))
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .sync))
            return 0
        }
        try arguments.requirePositionals(0, 0, command: "sync", usage: "no arguments")
        guard let root = arguments.values["root"] else { throw .usage("sync needs --root DIR") }
        guard let mirror = arguments.values["mirror"] else { throw .usage("sync needs --mirror DIR") }
        let synchronizer = Synchronizer(
            root: URL(fileURLWithPath: root), mirror: URL(fileURLWithPath: mirror),
            options: .init(replicaName: arguments.values["replica"]))
        switch Blocking.run({ try await synchronizer.reconcile() }) {
        case .success(let report):
            for problem in report.problems { Console.error("readingprefs: warning: \(problem)") }
            for change in report.changes { Console.out(change.description) }
            Console.out("\(report.changes.count) key(s) changed (replica \(report.replica))")
            return 0
        case .failure(let error):
            throw .failure("sync failed: \(error)")
        }
    }
}
