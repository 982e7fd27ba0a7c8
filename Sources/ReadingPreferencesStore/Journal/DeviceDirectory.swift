import ReadingPreferences

/// The devices a replica knows, for provenance and history (Specs/Store.md §15.2): each one's
/// display name as its replica file last gave it, and this device's own name under its id and
/// under the ids it had before (an edit made before the first sync took one id; the sync asked
/// for another), which name this device's changes by its id of now.
struct DeviceDirectory: Sendable {
    private var names: [ReplicaID: String] = [:]
    private var aliases: [ReplicaID: ReplicaID] = [:]

    init() {}

    /// The directory a sync state gives.
    init(_ state: SyncState) {
        names = state.names
        if let name = state.name { names[state.replica] = name }
        for former in state.former { aliases[former] = state.replica }
    }

    /// The device of a stamp's replica, named when known (`recorded`: the name a journal entry
    /// carries, when the directory has none).
    func device(_ replica: ReplicaID, recorded: String? = nil) -> DeviceIdentity {
        let id = aliases[replica] ?? replica
        return DeviceIdentity(id: id, name: names[id] ?? recorded)
    }

    /// A history entry's id: its stamp, with this device's former ids told as its id of now.
    func id(of stamp: SyncStamp) -> String {
        "\(stamp.time)-\(stamp.counter)-\(aliases[stamp.replica] ?? stamp.replica)"
    }
}
