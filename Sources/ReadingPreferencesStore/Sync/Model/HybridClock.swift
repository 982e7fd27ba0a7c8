/// A hybrid logical clock (Specs/Sync.md §4): stamps that follow the wall clock, never go
/// backwards, and always come after every stamp the replica has seen, so an edit made after
/// reading another device's state wins over that state even when this device's clock is slow.
///
/// It never traps: when the counter would pass 2^53 − 1 in one millisecond (a stamp read from
/// elsewhere may have pinned it there), ``tick(now:)`` returns `nil` until the wall clock moves
/// past that millisecond, and the caller stamps later.
public struct HybridClock: Sendable, Hashable {
    /// The replica whose stamps this clock makes.
    public let replica: ReplicaID
    /// The last time and counter made or seen.
    public private(set) var time: UInt64 = 0
    /// The counter of stamps made in that millisecond.
    public private(set) var counter: UInt64 = 0

    /// A clock that has seen nothing, or that resumes after `time.counter`.
    public init(replica: ReplicaID, time: UInt64 = 0, counter: UInt64 = 0) {
        self.replica = replica
        self.time = min(time, SyncStamp.maximum)
        self.counter = min(counter, SyncStamp.maximum)
    }

    /// The last stamp made or seen, as this replica's.
    public var last: SyncStamp { SyncStamp(unchecked: time, counter, replica) }

    /// A new stamp, after everything seen and no earlier than `now`; `nil` when the counter is
    /// exhausted for the last millisecond seen and `now` has not passed it.
    public mutating func tick(now: UInt64) -> SyncStamp? {
        let wall = min(now, SyncStamp.maximum)
        if wall > time {
            time = wall
            counter = 0
        } else if counter < SyncStamp.maximum {
            counter += 1
        } else {
            return nil
        }
        return last
    }

    /// Takes a stamp seen elsewhere into account, so later stamps come after it.
    public mutating func observe(_ stamp: SyncStamp) {
        if stamp.time > time || (stamp.time == time && stamp.counter > counter) {
            time = stamp.time
            counter = stamp.counter
        }
    }
}
