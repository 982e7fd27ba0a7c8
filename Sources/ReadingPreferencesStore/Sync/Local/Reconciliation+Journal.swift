import ReadingPreferences

extension Reconciliation {
    /// What a settled document's write records in its journal: the keys the sync changes there
    /// came from other devices (or this one's own published state), each with the stamp of the
    /// entry that won and its device's name when known (Specs/Store.md §15.1).
    ///
    /// - Parameters:
    ///   - scope: The document.
    ///   - settled: What settling it gave.
    /// - Returns: The recording for the document-write step.
    func arrivals(_ scope: SyncScope, _ settled: Settled) -> ChangeRecording {
        var recording = ChangeRecording(.sync, at: settings.now)
        var stamps: [JSONScalarKey: SyncStamp] = [:]
        for key in settled.changes.keys {
            guard let entry = settled.entries[key] ?? settled.snapshot[key] else { continue }
            stamps[JSONScalarKey(key)] = entry.stamp
            if let name = name(of: entry.stamp.replica) { recording.deviceNames[entry.stamp.replica] = name }
        }
        recording.stamps[scope.location] = stamps
        return recording
    }

    /// A replica's display name, as its file last gave it (or this replica's own).
    func name(of replica: ReplicaID) -> String? {
        replica == state.replica ? state.name : state.known[replica]?.name
    }
}
