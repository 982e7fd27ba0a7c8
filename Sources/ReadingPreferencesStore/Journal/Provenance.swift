import Foundation
import ReadingPreferences

/// Where a stored value came from: the device that made the change that set it, when, and why
/// (Specs/Store.md §15.2).
///
/// ```swift
/// let why = try await store.explanation(of: "fontSize", for: bookID, context: book)
/// why.layers.first?.provenance?.device.name   // "Kobo Clara"
/// ```
///
/// It is read from the change journal of the document holding the value, or, for a value synced
/// before the journal recorded it, from the stamp sync keeps for it (the device and time are
/// known; the cause is not). A value with neither (stored before this version, or written by hand
/// and not synced yet) has no provenance: nothing is made up.
public struct Provenance: Sendable, Hashable {
    /// The device that made the change.
    public var device: DeviceIdentity
    /// When the change was made, in milliseconds since 1970 (its stamp's time).
    public var time: UInt64
    /// Why it was made; `nil` when not known (a value synced before the journal recorded it).
    public var origin: ChangeOrigin?
    /// The stamp of the change.
    public var stamp: SyncStamp

    /// Creates a provenance.
    public init(device: DeviceIdentity, time: UInt64, origin: ChangeOrigin?, stamp: SyncStamp) {
        self.device = device
        self.time = time
        self.origin = origin
        self.stamp = stamp
    }

    /// When the change was made.
    public var date: Date { Milliseconds.date(time) }

    /// `{"device": {"id", "name"?}, "time", "cause"}`: the time as ISO 8601 with milliseconds, the
    /// cause `null` when not known.
    public var jsonValue: JSONValue {
        [
            "device": device.jsonValue, "time": .string(Self.iso8601(time)),
            "cause": origin.map { .string($0.rawValue) } ?? .null,
        ]
    }

    /// A time in milliseconds as ISO 8601 in UTC, with milliseconds: `2026-11-28T22:56:08.123Z`.
    public static func iso8601(_ milliseconds: UInt64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Milliseconds.date(milliseconds))
    }

    /// Reads an ISO 8601 time, whole: a date (`2026-11-29`, midnight UTC), or a date and a time
    /// with a zone (`2026-11-29T08:43:48Z`, `2026-11-29T08:43:48.125+01:00`). A time without a
    /// zone, a field out of range, or anything after the time is not read.
    ///
    /// - Parameter text: The time.
    /// - Returns: Milliseconds since 1970, or `nil` when `text` is not such a time.
    public static func milliseconds(iso8601 text: String) -> UInt64? {
        ISO8601Time.milliseconds(text)
    }
}

/// Provenance of a document's stored keys, from what its storage recorded.
struct ProvenanceIndex: Sendable {
    /// Per key, its recorded changes, oldest first.
    private var latest: [JSONScalarKey: [JournalEntry]] = [:]
    private var snapshot: SyncDocument?
    private let devices: DeviceDirectory

    /// An index of a document's journal (in stamp order) and sync snapshot, naming devices from
    /// `devices`.
    init(journal: [JournalEntry], snapshot: SyncDocument?, devices: DeviceDirectory) {
        for entry in journal where entry.stamp != nil {
            latest[JSONScalarKey(entry.key), default: []].append(entry)
        }
        self.snapshot = snapshot
        self.devices = devices
    }

    /// The provenance of a key holding `value`: the latest recorded change of the key when it set
    /// that value; else the stamp sync keeps for the key, when it holds that value and is later
    /// than every recorded change; else none (a change nobody recorded: a hand edit not synced
    /// yet).
    func provenance(of key: String, holding value: JSONValue) -> Provenance? {
        let newest = latest[JSONScalarKey(key)]?.last
        if let newest, let stamp = newest.stamp, let new = newest.newValue, new.isWrittenAlike(value) {
            return Provenance(
                device: devices.device(stamp.replica, recorded: newest.deviceName), time: stamp.time,
                origin: newest.origin, stamp: stamp)
        }
        if let entry = snapshot?[key], let synced = entry.value, synced.isWrittenAlike(value),
            newest?.stamp.map({ $0 < entry.stamp }) ?? true
        {
            return Provenance(
                device: devices.device(entry.stamp.replica), time: entry.stamp.time, origin: nil,
                stamp: entry.stamp)
        }
        return nil
    }
}
