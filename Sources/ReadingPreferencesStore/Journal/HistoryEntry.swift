import Foundation
import ReadingPreferences

/// One change of a stored key, as history lists it (Specs/Store.md §15.4): in which document,
/// from what to what, when, on which device and why; with an ``id`` that ``PreferencesStore/History``
/// reverts to.
///
/// ```swift
/// for entry in try await store.history.entries(in: .shared, key: "fontSize") {
///     print(entry)   // fontSize 1 → 1.4, set on Kobo Clara at 2026-11-25T18:02:11.000Z (edit)
/// }
/// ```
public struct HistoryEntry: Sendable, Hashable, CustomStringConvertible {
    /// The entry's id: its stamp, `<time>-<counter>-<replica>`, unique among a replica's changes.
    public var id: String
    /// The configurable.
    public var configurable: String
    /// The document changed.
    public var layer: StoreLayer
    /// The key.
    public var key: String
    /// The value before; `nil` when there was none.
    public var oldValue: JSONValue?
    /// The value after; `nil` when the key was removed.
    public var newValue: JSONValue?
    /// Where the change came from.
    public var provenance: Provenance

    /// The entry of a journal entry of a document.
    init?(_ entry: JournalEntry, configurable: String, layer: StoreLayer, devices: DeviceDirectory) {
        guard let stamp = entry.stamp else { return nil }
        id = devices.id(of: stamp)
        self.configurable = configurable
        self.layer = layer
        key = entry.key
        oldValue = entry.oldValue
        newValue = entry.newValue
        provenance = Provenance(
            device: devices.device(stamp.replica, recorded: entry.deviceName), time: stamp.time,
            origin: entry.origin, stamp: stamp)
    }

    /// `key old → new, on DEVICE at TIME (cause)`.
    public var description: String {
        "\(key) \(oldValue?.jsonString() ?? "none") → \(newValue?.jsonString() ?? "none"), on "
            + "\(provenance.device) at \(Provenance.iso8601(provenance.time)) (\(provenance.origin?.rawValue ?? "unknown"))"
    }

    /// `{"id", "layer", "key", "old"?, "new"?, "removed"?, "device", "time", "cause"}`.
    public var jsonValue: JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "id", value: .string(id)), .init(key: "layer", value: .string(layer.code)),
        ]
        if let identifier = layer.identifier {
            members.append(.init(key: "layerID", value: .string(identifier)))
        }
        members.append(.init(key: "key", value: .string(key)))
        members.append(.init(key: "old", value: oldValue ?? .null))
        members.append(.init(key: "new", value: newValue ?? .null))
        members.append(.init(key: "removed", value: .bool(newValue == nil)))
        members.append(.init(key: "device", value: provenance.device.jsonValue))
        members.append(.init(key: "time", value: .string(Provenance.iso8601(provenance.time))))
        members.append(.init(key: "cause", value: provenance.origin.map { .string($0.rawValue) } ?? .null))
        return .object(JSONObject(members: members))
    }
}

/// A point of history to go back to (``PreferencesStore/History/revert(_:in:to:)``).
public enum RevertPoint: Sendable, Hashable, CustomStringConvertible {
    /// Just after a history entry (its ``HistoryEntry/id``): the values it and the changes before
    /// it left.
    case entry(String)
    /// A moment, in milliseconds since 1970: the values of that moment.
    case time(UInt64)

    /// A point from text: a history entry's id, or an ISO 8601 time (read whole: a text that
    /// starts as a date, `2026-11-29`, is a time or nothing, never an entry's id).
    ///
    /// - Parameter text: The text.
    public init?(_ text: String) {
        if let time = Provenance.milliseconds(iso8601: text) {
            self = .time(time)
        } else if Self.startsAsDate(text) {
            return nil
        } else if text.split(separator: "-").count >= 3 {
            self = .entry(text)
        } else {
            return nil
        }
    }

    /// Whether a text starts with `DDDD-DD-DD`: an attempt at a time (an entry's id starts with
    /// its stamp's thirteen digits or more).
    static func startsAsDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(10))
        guard bytes.count == 10 else { return false }
        return bytes.indices.allSatisfy { index in
            index == 4 || index == 7
                ? bytes[index] == UInt8(ascii: "-")
                : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
        }
    }

    /// `entry ID` or `time T`.
    public var description: String {
        switch self {
        case .entry(let id): return "entry \(id)"
        case .time(let time): return "time \(Provenance.iso8601(time))"
        }
    }
}
