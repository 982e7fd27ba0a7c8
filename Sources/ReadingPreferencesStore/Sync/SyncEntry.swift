import ReadingPreferences

/// One key's synced state (SPEC 10): its value, or its removal (a tombstone), with the stamp of
/// the change.
///
/// ```json
/// {"value": 1.4, "stamp": {"time": 1764000000000, "counter": 0, "replica": "4f2c9a1b7d3e"}}
/// {"removed": true, "stamp": {"time": 1764000000500, "counter": 2, "replica": "a81be07c55d0"}}
/// ```
public struct SyncEntry: Sendable, Hashable {
    /// The value; `nil` for a removal.
    public var value: JSONValue?
    /// When, and by which replica, the change was made.
    public var stamp: SyncStamp

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - value: The value, or `nil` for a removal.
    ///   - stamp: The stamp of the change.
    public init(value: JSONValue?, stamp: SyncStamp) {
        self.value = value
        self.stamp = stamp
    }

    /// Whether the entry is a removal.
    public var isRemoval: Bool { value == nil }

    /// Whether this entry wins over another for the same key: the greater stamp. Two entries with
    /// the same stamp are the same change; should a damaged file disagree on its value, the
    /// greater canonical JSON wins, so merging stays commutative whatever the input.
    ///
    /// - Parameter other: The other entry.
    /// - Returns: `true` when this one is kept.
    public func wins(over other: SyncEntry) -> Bool {
        if stamp != other.stamp { return other.stamp < stamp }
        return Self.order(other.value).utf8.lexicographicallyPrecedes(Self.order(value).utf8)
    }

    private static func order(_ value: JSONValue?) -> String {
        value.map { "v" + $0.jsonString(options: .init(sortedKeys: true)) } ?? "r"
    }

    /// The entry as JSON.
    public var jsonValue: JSONValue {
        if let value { return ["value": value, "stamp": stamp.jsonValue] }
        return ["removed": true, "stamp": stamp.jsonValue]
    }

    /// Reads an entry.
    ///
    /// - Parameters:
    ///   - json: The JSON object.
    ///   - path: Its path, for error messages.
    /// - Throws: `JSONMemberError`.
    public init(json: JSONValue, path: String) throws(JSONMemberError) {
        let reader = try JSONMemberReader(json, path: path)
        let stamp = try SyncStamp(json: reader.required("stamp", "the stamp"), path: reader.path("stamp"))
        if try reader.bool("removed") == true {
            self.init(value: nil, stamp: stamp)
        } else {
            self.init(value: try reader.required("value", "the value, or \"removed\": true"), stamp: stamp)
        }
    }
}
