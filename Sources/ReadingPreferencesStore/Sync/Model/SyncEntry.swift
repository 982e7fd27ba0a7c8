import ReadingPreferences

/// One key's synced state (Specs/Sync.md §1): its value, or its removal (a tombstone), with the stamp of
/// the change.
///
/// ```json
/// {"value": 1.4, "stamp": {"time": 1764000000000, "counter": 0, "replica": "4f2c9a1b7d3e"}}
/// {"removed": true, "stamp": {"time": 1764000000500, "counter": 2, "replica": "a81be07c55d0"}}
/// ```
public struct SyncEntry: Sendable, Hashable {
    /// How deep a value may nest: 511 levels, its own included, since the document that holds it
    /// is the first of the 512 levels any document may nest (Specs/Preferences.md §2.10). One rule
    /// for a value in a document, a replica file, a sidecar, a journal and a push, so a value a
    /// sync accepts can always be stored.
    public static let maximumValueDepth = 511

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

    /// Whether this entry wins over another for the same key (Specs/Sync.md §3): the greater stamp; for
    /// equal stamps (possible only after a device was cloned), a value beats a removal, then the
    /// greater canonical JSON text of the value (compared byte by byte) wins. The order is total,
    /// so merging is commutative whatever the input.
    ///
    /// - Parameter other: The other entry.
    /// - Returns: `true` when this one is kept.
    public func wins(over other: SyncEntry) -> Bool {
        if stamp != other.stamp { return other.stamp < stamp }
        switch (value, other.value) {
        case (nil, _): return false
        case (.some, nil): return true
        case (let mine?, let theirs?):
            if mine.isWrittenAlike(theirs) { return false }
            return theirs.canonicalText.utf8.lexicographicallyPrecedes(mine.canonicalText.utf8)
        }
    }

    /// The entry as JSON.
    public var jsonValue: JSONValue {
        if let value { return ["value": value, "stamp": stamp.jsonValue] }
        return ["removed": true, "stamp": stamp.jsonValue]
    }

    /// Reads an entry.
    ///
    /// - Parameter json: The JSON object.
    /// - Throws: ``SyncFormatError`` naming what is wrong.
    public init(json: JSONValue) throws(SyncFormatError) {
        guard case .object(let object) = json else { throw SyncFormatError("an entry is not an object") }
        self = try Self.read(value: object["value"], removed: object["removed"], stamp: object["stamp"])
    }

    /// Reads an entry's members.
    static func read(value: JSONValue?, removed: JSONValue?, stamp: JSONValue?) throws(SyncFormatError)
        -> SyncEntry
    {
        guard let stamp else { throw SyncFormatError("an entry has no stamp") }
        let parsed = try SyncStamp(json: stamp)
        switch (value, removed) {
        case (nil, .bool(true)?): return SyncEntry(value: nil, stamp: parsed)
        case (let value?, nil), (let value?, .bool(false)?):
            guard !value.isNull else { throw SyncFormatError("an entry's value is null") }
            return SyncEntry(value: value, stamp: parsed)
        case (nil, _): throw SyncFormatError("an entry has neither a value nor \"removed\": true")
        case (.some, _): throw SyncFormatError("an entry has both a value and \"removed\"")
        }
    }
}
