import Foundation
import ReadingPreferences

extension SyncSession {
    /// At a replica's first sync, after every remote state was admitted and before anything is
    /// written (Specs/Sync.md §5.9): the documents this replica holds that differ from the ones
    /// read. None: `nil`, and the sync merges as always. Some, with no choice: ``FirstJoinError``.
    /// With ``FirstJoinChoice/takeTheirs``, this replica's differing documents are written to an
    /// export file first.
    func settleFirstJoin(_ reconciliation: inout Reconciliation) async throws -> FirstJoinOutcome? {
        var differences: [FirstJoinDifference] = []
        var documents: [ExportedDocument] = []
        for scope in reconciliation.incoming.documents.keys.sorted() {
            // A document that cannot be read is left to the sync, which reports it.
            guard let stored = try? await storage.load(scope.location) else { continue }
            let keys = reconciliation.firstJoinDifferences(scope, local: stored.preferences)
            guard !keys.isEmpty else { continue }
            differences.append(FirstJoinDifference(scope: scope, keys: keys))
            documents.append(ExportedDocument(location: scope.location, document: stored))
        }
        guard !differences.isEmpty else { return nil }
        guard let choice = options.firstJoin else { throw FirstJoinError(differences: differences) }
        var export: URL?
        if choice == .takeTheirs {
            export = try writeExport(
                PreferencesExport(documents: documents), replica: reconciliation.state.replica)
        }
        if choice != .merge {
            for difference in differences { reconciliation.firstJoin[difference.scope] = choice }
        }
        return FirstJoinOutcome(choice: choice, differences: differences, export: export)
    }

    /// Writes this replica's differing documents to `first-join-<replica>-<time>.json` in the
    /// export folder: the one asked for, the store's folder, or the temporary directory.
    private func writeExport(_ export: PreferencesExport, replica: ReplicaID) throws -> URL {
        let folder = options.exportFolder ?? storage.folder ?? FileManager.default.temporaryDirectory
        let url = folder.appendingPathComponent(
            "first-join-\(replica.rawValue)-\(options.nowMilliseconds).json")
        try export.write(to: url)
        return url
    }
}
