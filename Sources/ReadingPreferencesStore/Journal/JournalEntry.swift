import ReadingPreferences

/// One key change of one document, as its storage's change journal keeps it (Specs/Store.md
/// §15.1): the value before and after, when and on which device it was made, and why.
///
/// The document-write step makes every entry, for the keys it writes; nothing else records a
/// change. An entry the step hands to ``PreferencesStorage/commit(_:)`` may come without a
/// ``stamp``: a storage that keeps a journal stamps it with its replica clock as it records it
/// (``PreferencesStorage/updateReplicaClock(_:)``), above every stamp the replica has made or
/// accepted. Entries read back (``PreferencesStorage/journal(of:after:)``) are all stamped.
public struct JournalEntry: Sendable, Hashable, CustomStringConvertible {
    /// The key.
    public var key: String
    /// The value before; `nil` when the document did not hold the key.
    public var oldValue: JSONValue?
    /// The value after; `nil` when the key was removed.
    public var newValue: JSONValue?
    /// Why it changed.
    public var origin: ChangeOrigin
    /// When the change was made, in milliseconds since 1970 (the wall clock of the device that
    /// made it; a stamp's time may be later, never earlier).
    public var time: UInt64
    /// The change's stamp: its time, counter and the replica that made it; `nil` until the
    /// storage records it.
    public var stamp: SyncStamp?
    /// The display name of the device that made it, as known when it was recorded.
    public var deviceName: String?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - oldValue: The value before, or `nil`.
    ///   - newValue: The value after, or `nil` for a removal.
    ///   - origin: Why it changed.
    ///   - time: When it was made, in milliseconds since 1970.
    ///   - stamp: Its stamp, or `nil` for the storage to give it one.
    ///   - deviceName: The name of the device that made it.
    public init(
        key: String, oldValue: JSONValue?, newValue: JSONValue?, origin: ChangeOrigin, time: UInt64,
        stamp: SyncStamp? = nil, deviceName: String? = nil
    ) {
        self.key = key
        self.oldValue = oldValue
        self.newValue = newValue
        self.origin = origin
        self.time = time
        self.stamp = stamp
        self.deviceName = deviceName
    }

    /// `key: old → new (origin, stamp)`.
    public var description: String {
        "\(key): \(oldValue?.jsonString() ?? "none") → \(newValue?.jsonString() ?? "none") "
            + "(\(origin), \(stamp?.description ?? "unstamped"))"
    }

    /// The sync entry this change stands for: its new value (or a removal) at its stamp.
    var syncEntry: SyncEntry? {
        stamp.map { SyncEntry(value: newValue, stamp: $0) }
    }
}

extension JournalEntry {
    /// The entry as one line of a journal: a compact JSON object,
    /// `{"key", "old"?, "new"?, "cause", "time", "stamp"?, "name"?}`, where `old` and `new` are
    /// present only when the document held a value.
    public var jsonValue: JSONValue {
        var members: [JSONObject.Member] = [.init(key: "key", value: .string(key))]
        if let oldValue { members.append(.init(key: "old", value: oldValue)) }
        if let newValue { members.append(.init(key: "new", value: newValue)) }
        members.append(.init(key: "cause", value: .string(origin.rawValue)))
        members.append(.init(key: "time", value: .number(JSONNumber(Int(min(time, SyncStamp.maximum))))))
        if let stamp { members.append(.init(key: "stamp", value: stamp.jsonValue)) }
        if let deviceName { members.append(.init(key: "name", value: .string(deviceName))) }
        return .object(JSONObject(members: members))
    }

    /// Reads an entry from its JSON form.
    ///
    /// - Parameter json: The object.
    /// - Throws: ``SyncFormatError`` when it is not an entry: no key, a key holding U+0000, an
    ///   unknown cause, or an invalid stamp.
    public init(json: JSONValue) throws(SyncFormatError) {
        guard let object = json.objectValue else { throw SyncFormatError("a journal entry is not an object") }
        guard let key = object["key"]?.stringValue, !StorageLocation.holdsNUL(key) else {
            throw SyncFormatError("a journal entry has no valid \"key\"")
        }
        guard let cause = object["cause"]?.stringValue, let origin = ChangeOrigin(rawValue: cause) else {
            throw SyncFormatError("a journal entry has no known \"cause\"")
        }
        var stamp: SyncStamp?
        if let value = object["stamp"] { stamp = try SyncStamp(json: value) }
        let time = object["time"]?.numberValue?.integerValue.flatMap { $0 >= 0 ? UInt64($0) : nil }
        self.init(
            key: key, oldValue: object["old"], newValue: object["new"], origin: origin,
            time: time ?? stamp?.time ?? 0, stamp: stamp, deviceName: object["name"]?.stringValue)
    }
}
