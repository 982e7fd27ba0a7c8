import ReadingPreferences

/// One key a write changed: in which document (a configurable's layer), from what, to what.
///
/// The one record of a change, wherever it was made: what the store's edits return
/// (``PreferencesStore/apply(_:publication:context:to:allowingUnknownKeys:)``,
/// ``PreferencesStore/write(_:to:)``), what a sync received (``SyncReport/changes``) and sent
/// (``SyncReport/sent``).
///
/// ```swift
/// for change in try await store.apply(.set(key: "fontSize", value: 9)) {
///     print(change)   // shared fontSize: 1 → 5
/// }
/// ```
public struct StoredChange: Sendable, Hashable, CustomStringConvertible {
    /// The configurable whose document changed, such as `epub`.
    public var configurable: String
    /// The layer written.
    public var layer: StoreLayer
    /// The key.
    public var key: String
    /// The stored value before; `nil` when there was none.
    public var oldValue: JSONValue?
    /// The stored value after; `nil` when the key was removed.
    public var newValue: JSONValue?

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - configurable: The configurable.
    ///   - layer: The layer.
    ///   - key: The key.
    ///   - oldValue: The value before.
    ///   - newValue: The value after.
    public init(
        configurable: String, layer: StoreLayer, key: String, oldValue: JSONValue?, newValue: JSONValue?
    ) {
        self.configurable = configurable
        self.layer = layer
        self.key = key
        self.oldValue = oldValue
        self.newValue = newValue
    }

    /// Creates a change of a synced document.
    ///
    /// - Parameters:
    ///   - scope: The document.
    ///   - key: The key.
    ///   - oldValue: The value before.
    ///   - newValue: The value after.
    public init(scope: SyncScope, key: String, oldValue: JSONValue?, newValue: JSONValue?) {
        self.init(
            configurable: scope.configurable, layer: scope.layer, key: key, oldValue: oldValue,
            newValue: newValue)
    }

    /// The synced document the change is in; `nil` for the overrides, which never sync.
    public var scope: SyncScope? { SyncScope(configurable: configurable, layer: layer) }

    /// Where the document lives in a storage.
    public var location: StorageLocation { .layer(configurable: configurable, layer) }

    /// `layer key: old → new`, with `none` for a missing value.
    public var description: String {
        "\(layer) \(key): \(oldValue?.jsonString() ?? "none") → \(newValue?.jsonString() ?? "none")"
    }
}

/// A key a sync changed, or sent: the same record as every other change.
public typealias SyncChange = StoredChange

extension StoredChange {
    /// The keys a write changes in one layer document: in the new document's order, then the
    /// removed keys in the old one's (values compared as written: `1.5` → `1.50` is a change).
    ///
    /// - Parameters:
    ///   - location: The document; a location that is not a layer changes no preference.
    ///   - stored: The document before (`nil`: there was none).
    ///   - edited: The document after (empty: removed).
    /// - Returns: One change per key.
    public static func changes(
        at location: StorageLocation, from stored: Preferences?, to edited: Preferences
    )
        -> [StoredChange]
    {
        guard case .layer(let configurable, let layer) = location else { return [] }
        let before = stored ?? Preferences()
        let keys = KeyChanges(from: before, to: edited)
        return keys.keys.compactMap { key in
            guard let value = keys[key] else { return nil }
            return StoredChange(
                configurable: configurable, layer: layer, key: key, oldValue: before[key], newValue: value)
        }
    }
}
