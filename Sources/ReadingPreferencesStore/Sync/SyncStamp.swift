import ReadingPreferences

/// A hybrid logical clock stamp (SPEC 10): wall time in milliseconds, a counter for events in
/// the same millisecond, and the replica that made it. Stamps are totally ordered (time, then
/// counter, then replica id), so every replica picks the same winner for a key.
///
/// ```json
/// {"time": 1764000000000, "counter": 0, "replica": "4f2c9a1b7d3e"}
/// ```
public struct SyncStamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970 (UTC), as the making replica's clock saw it, never behind a stamp
    /// it had seen.
    public var time: Int64
    /// Orders stamps of the same millisecond.
    public var counter: Int
    /// The replica that made the stamp.
    public var replica: String

    /// Creates a stamp.
    ///
    /// - Parameters:
    ///   - time: Milliseconds since 1970.
    ///   - counter: The counter.
    ///   - replica: The making replica's id.
    public init(time: Int64, counter: Int, replica: String) {
        self.time = time
        self.counter = counter
        self.replica = replica
    }

    /// Orders by time, then counter, then replica id (by UTF-8 bytes).
    public static func < (lhs: SyncStamp, rhs: SyncStamp) -> Bool {
        if lhs.time != rhs.time { return lhs.time < rhs.time }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.replica.utf8.lexicographicallyPrecedes(rhs.replica.utf8)
    }

    /// `time.counter@replica`.
    public var description: String { "\(time).\(counter)@\(replica)" }

    /// The stamp as JSON: `{"time": …, "counter": …, "replica": "…"}`.
    public var jsonValue: JSONValue {
        [
            "time": .number(JSONNumber(Int(time))), "counter": .number(JSONNumber(counter)),
            "replica": .string(replica),
        ]
    }

    /// Reads a stamp from its JSON form.
    ///
    /// - Parameters:
    ///   - json: The JSON object.
    ///   - path: Its path, for error messages.
    /// - Throws: `JSONMemberError` naming a missing or wrong member.
    public init(json: JSONValue, path: String) throws(JSONMemberError) {
        let reader = try JSONMemberReader(json, path: path)
        guard let time = try reader.number("time"), let exactTime = Int64(exactly: time) else {
            throw JSONMemberError(path: reader.path("time"), message: "missing or not an integer")
        }
        guard let counter = try reader.number("counter"), let exactCounter = Int(exactly: counter),
            exactCounter >= 0
        else {
            throw JSONMemberError(
                path: reader.path("counter"), message: "missing or not a non-negative integer")
        }
        guard let replica = try reader.string("replica"), !replica.isEmpty else {
            throw JSONMemberError(path: reader.path("replica"), message: "missing")
        }
        self.init(time: exactTime, counter: exactCounter, replica: replica)
    }
}

/// A hybrid logical clock (SPEC 10): stamps that follow the wall clock, never go backwards, and
/// always come after every stamp the replica has seen, so an edit made after reading another
/// device's state wins over that state even when this device's clock is slow.
public struct HybridClock: Sendable, Hashable {
    /// The replica whose stamps this clock makes.
    public let replica: String
    /// The last stamp made or seen (its time and counter).
    public private(set) var last: SyncStamp

    /// Creates a clock that has seen nothing.
    ///
    /// - Parameter replica: The replica's id.
    public init(replica: String) {
        self.replica = replica
        last = SyncStamp(time: 0, counter: 0, replica: replica)
    }

    /// A new stamp, after everything seen and no earlier than `now`.
    ///
    /// - Parameter now: The wall clock, in milliseconds since 1970.
    /// - Returns: The stamp.
    public mutating func tick(now: Int64) -> SyncStamp {
        if now > last.time {
            last = SyncStamp(time: now, counter: 0, replica: replica)
        } else {
            last = SyncStamp(time: last.time, counter: last.counter + 1, replica: replica)
        }
        return last
    }

    /// Takes a stamp seen from another replica into account, so later stamps come after it.
    ///
    /// - Parameter stamp: The stamp seen.
    public mutating func observe(_ stamp: SyncStamp) {
        if stamp.time > last.time || (stamp.time == last.time && stamp.counter > last.counter) {
            last = SyncStamp(time: stamp.time, counter: stamp.counter, replica: replica)
        }
    }
}
