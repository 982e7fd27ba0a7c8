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
        var recording = ChangeRecording(firstJoin[scope] == nil ? .sync : .firstJoin, at: settings.now)
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
        replica == state.replica || state.former.contains(replica) ? state.name : state.names[replica]
    }

    /// Other devices' changes of a document that this replica learns of now without applying them
    /// (a later change of the same key won), for its history: each entry read that is newer than
    /// what the snapshot held for its key, not this replica's own, and not among the changes
    /// applied (the write records those).
    func learned(_ scope: SyncScope, snapshot: Snapshot, settled: Settled) -> [JournalEntry] {
        guard let remote = incoming.documents[scope] else { return [] }
        var before: SyncDocument?
        if case .present(let entries) = snapshot { before = entries }
        var result: [JournalEntry] = []
        for (key, entry) in remote.all.sorted(by: { $0.entry.stamp < $1.entry.stamp }) {
            guard entry.stamp.replica != state.replica, !state.former.contains(entry.stamp.replica),
                settled.changes[key] == nil, before?[key].map({ $0.stamp < entry.stamp }) ?? true
            else { continue }
            result.append(
                JournalEntry(
                    key: key, oldValue: nil, newValue: entry.value, origin: .sync, time: entry.stamp.time,
                    stamp: entry.stamp, deviceName: name(of: entry.stamp.replica)))
        }
        return result
    }
}
