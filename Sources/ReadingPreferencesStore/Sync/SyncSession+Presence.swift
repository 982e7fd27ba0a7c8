import ReadingPreferences

extension SyncSession {
    /// Whether a scope has a document or a sync snapshot, for the scopes a storage need not
    /// hold (the rules, Specs/Sync.md §1); a damaged one counts (the sync reports it).
    func isPresent(_ scope: SyncScope) async -> Bool {
        for location in [scope.location, scope.snapshotLocation] {
            do {
                if try await storage.load(location) != nil { return true }
            } catch {
                return true
            }
        }
        return false
    }
}
