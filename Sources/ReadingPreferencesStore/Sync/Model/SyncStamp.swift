import ReadingPreferences

/// A hybrid logical clock stamp (Specs/Sync.md §1): wall time in milliseconds, a counter for events
/// in the same millisecond, and the replica that made it. Stamps are totally ordered (time, then
/// counter, then replica id by bytes), so every replica picks the same winner for a key.
///
/// ```json
/// {"time": 1764000000000, "counter": 0, "replica": "4f2c9a1b7d3e"}
/// ```
///
/// `time` and `counter` are exact integers in 0 ... 2^53 − 1, safe in every JSON library; a
/// stamp outside that range cannot be made, and a file holding one has that entry ignored.
public struct SyncStamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The greatest `time` or `counter`: 2^53 − 1.
    public static let maximum: UInt64 = (1 << 53) - 1

    /// Milliseconds since 1970 (UTC), as the making replica's clock saw it, never behind a stamp
    /// it had seen.
    public let time: UInt64
    /// Orders stamps of the same millisecond.
    public let counter: UInt64
    /// The replica that made the stamp.
    public let replica: ReplicaID

    /// A stamp, or `nil` when `time` or `counter` is above ``maximum``.
    ///
    /// - Parameters:
    ///   - time: Milliseconds since 1970.
    ///   - counter: The counter.
    ///   - replica: The making replica.
    public init?(time: UInt64, counter: UInt64, replica: ReplicaID) {
        guard time <= Self.maximum, counter <= Self.maximum else { return nil }
        self.time = time
        self.counter = counter
        self.replica = replica
    }

    /// The lowest stamp a replica can hold: time 0, counter 0. A document found without its
    /// sync snapshot is stamped with it, so any stamped entry from elsewhere wins (Specs/Sync.md §5.4).
    ///
    /// - Parameter replica: The replica.
    /// - Returns: The stamp.
    public static func lowest(for replica: ReplicaID) -> SyncStamp {
        SyncStamp(unchecked: 0, 0, replica)
    }

    /// A stamp whose numbers are known to be in range.
    init(unchecked time: UInt64, _ counter: UInt64, _ replica: ReplicaID) {
        self.time = time
        self.counter = counter
        self.replica = replica
    }

    /// Orders by time, then counter, then replica id (by UTF-8 bytes).
    public static func < (lhs: SyncStamp, rhs: SyncStamp) -> Bool {
        if lhs.time != rhs.time { return lhs.time < rhs.time }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.replica < rhs.replica
    }

    /// `time.counter@replica`.
    public var description: String { "\(time).\(counter)@\(replica)" }

    /// The stamp as JSON: `{"time": …, "counter": …, "replica": "…"}`.
    public var jsonValue: JSONValue {
        [
            "time": .number(JSONNumber(Int(time))), "counter": .number(JSONNumber(Int(counter))),
            "replica": .string(replica.rawValue),
        ]
    }

    /// Reads a stamp from its JSON form.
    ///
    /// - Parameter json: The JSON object.
    /// - Throws: ``SyncFormatError`` naming the member that is missing or wrong.
    public init(json: JSONValue) throws(SyncFormatError) {
        guard case .object(let object) = json else { throw SyncFormatError("a stamp is not an object") }
        self = try Self.read(time: object["time"], counter: object["counter"], replica: object["replica"])
    }

    /// Reads a stamp's three members.
    static func read(time: JSONValue?, counter: JSONValue?, replica: JSONValue?) throws(SyncFormatError)
        -> SyncStamp
    {
        let time = try integer(time, "time")
        let counter = try integer(counter, "counter")
        guard let text = replica?.stringValue else {
            throw SyncFormatError("a stamp's replica is missing or not a string")
        }
        guard let id = ReplicaID(text) else {
            throw SyncFormatError("a stamp's replica \(JSONValue.string(text)) is not a replica id")
        }
        return SyncStamp(unchecked: time, counter, id)
    }

    /// An exact integer in 0 ... 2^53 − 1, read from the number's text (never through `Double`).
    private static func integer(_ value: JSONValue?, _ name: String) throws(SyncFormatError) -> UInt64 {
        guard let number = value?.numberValue else {
            throw SyncFormatError("a stamp's \(name) is missing or not a number")
        }
        guard let integer = number.integerValue, integer >= 0, UInt64(integer) <= maximum else {
            throw SyncFormatError("a stamp's \(name) \(number.text) is not an integer in 0...2^53-1")
        }
        return UInt64(integer)
    }
}

/// Why part of a sync file could not be read: one line, naming what is wrong.
public struct SyncFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    /// Creates an error.
    ///
    /// - Parameter description: What is wrong.
    public init(_ description: String) { self.description = description }
}
