import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `store restore FILE`: puts back the documents of an export (``PreferencesExport``), such as the
/// one a first sync with `--first take-theirs` set aside (Specs/Sync.md §5.9), as this device's
/// edits, which the next sync sends.
enum StoreRestoreCommand {
    static let usage = "restore FILE"

    static func run<Schema>(_ words: [String], _ invocation: StoreInvocation<Schema>) async throws -> Int32 {
        try StoreCommand.require(words, count: 2, usage)
        let export = try PreferencesExport(contentsOf: URL(fileURLWithPath: words[1]))
        let changes = try await invocation.store.restore(export)
        for change in changes {
            Console.out(
                "\(change.configurable)/\(change.layer) \(change.key): \(change.oldValue?.jsonString() ?? "(none)") → "
                    + (change.newValue?.jsonString() ?? "(removed)"))
        }
        Console.out("restored \(export.documents.count) document(s), \(changes.count) key(s) changed")
        return 0
    }
}
