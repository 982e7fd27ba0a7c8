import Foundation

/// How a sync behaves (Specs/Sync.md §5).
///
/// ```swift
/// try await store.sync(with: mirror, options: SyncOptions(replica: ReplicaID("phone")))
/// ```
public struct SyncOptions: Sendable {
    /// The replica id to take the first time the store syncs (a random id otherwise); once the
    /// store has an id, another one asked for is reported and not used.
    public var replica: ReplicaID?
    /// How old a removal must be before it can be forgotten (once every known replica has
    /// merged past it), in seconds; 30 days by default.
    public var tombstoneHorizon: TimeInterval
    /// How long a replica may go unseen before it is retired and no longer holds removals back,
    /// in seconds; 180 days by default.
    public var retirementHorizon: TimeInterval
    /// How far ahead of the local clock a remote stamp may be; later ones are ignored and
    /// reported. 24 hours.
    public var futureLimit: TimeInterval
    /// Replicas to retire now (a device known to be gone), so they no longer hold removals back.
    public var retire: [ReplicaID]
    /// Whether this sync gives the store a new replica id (``replica`` when it is another one,
    /// else a random one) and retires the old one: what to do when a server refuses the stored
    /// id. Its edits and history are kept; only the name they are published under changes.
    public var newReplica: Bool
    /// How long to wait for another sync of the same store to finish before reporting it busy,
    /// in seconds; 30 by default.
    public var busyTimeout: TimeInterval
    /// What this store's first sync does when the mirror or server already holds documents that
    /// differ from its own (Specs/Sync.md §5.9); `nil` (the default) throws ``FirstJoinError``
    /// and writes nothing. Later syncs never ask, and ignore it.
    public var firstJoin: FirstJoinChoice?
    /// Where ``FirstJoinChoice/takeTheirs`` writes the export of this device's documents: the
    /// store's folder when `nil` and its storage is one, else the temporary directory.
    public var exportFolder: URL?
    /// The wall clock.
    public var now: @Sendable () -> Date

    /// Creates options.
    ///
    /// - Parameters:
    ///   - replica: The replica id to take the first time.
    ///   - tombstoneHorizon: The tombstone horizon, in seconds.
    ///   - retirementHorizon: The retirement horizon, in seconds.
    ///   - futureLimit: The future limit, in seconds.
    ///   - retire: Replicas to retire now.
    ///   - newReplica: Whether to take a new replica id now and retire the old one.
    ///   - busyTimeout: How long to wait for another sync of the same store, in seconds.
    ///   - firstJoin: What the first sync does when the two sides differ.
    ///   - exportFolder: Where ``FirstJoinChoice/takeTheirs`` sets this device's documents aside.
    ///   - now: The wall clock.
    public init(
        replica: ReplicaID? = nil, tombstoneHorizon: TimeInterval = 30 * 86_400,
        retirementHorizon: TimeInterval = 180 * 86_400, futureLimit: TimeInterval = 86_400,
        retire: [ReplicaID] = [], newReplica: Bool = false, busyTimeout: TimeInterval = 30,
        firstJoin: FirstJoinChoice? = nil, exportFolder: URL? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.replica = replica
        self.tombstoneHorizon = tombstoneHorizon
        self.retirementHorizon = retirementHorizon
        self.futureLimit = futureLimit
        self.retire = retire
        self.newReplica = newReplica
        self.busyTimeout = busyTimeout
        self.firstJoin = firstJoin
        self.exportFolder = exportFolder
        self.now = now
    }

    /// The wall clock in milliseconds since 1970.
    var nowMilliseconds: UInt64 {
        Milliseconds.of(now())
    }

    /// The horizons and limits in milliseconds, at `now`.
    func settings(now: UInt64) -> Reconciliation.Settings {
        Reconciliation.Settings(
            now: now, tombstoneHorizon: Self.milliseconds(tombstoneHorizon),
            retirementHorizon: Self.milliseconds(retirementHorizon),
            futureLimit: Self.milliseconds(futureLimit))
    }

    static func milliseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64(max(0, min((seconds * 1000).rounded(), Double(SyncStamp.maximum))))
    }
}
