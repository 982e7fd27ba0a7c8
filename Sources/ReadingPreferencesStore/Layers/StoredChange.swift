import ReadingPreferences

/// One key a store wrote: in which layer, from what, to what (``PreferencesStore/apply(_:publication:context:to:allowingUnknownKeys:)``,
/// ``PreferencesStore/write(_:to:)``).
///
/// ```swift
/// for change in try await store.apply(.set(key: "fontSize", value: 9)) {
///     print(change)   // shared fontSize: 1 → 5
/// }
/// ```
public struct StoredChange: Sendable, Hashable, CustomStringConvertible {
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
    ///   - layer: The layer.
    ///   - key: The key.
    ///   - oldValue: The value before.
    ///   - newValue: The value after.
    public init(layer: StoreLayer, key: String, oldValue: JSONValue?, newValue: JSONValue?) {
        self.layer = layer
        self.key = key
        self.oldValue = oldValue
        self.newValue = newValue
    }

    /// `layer key: old → new`, with `none` for a missing value.
    public var description: String {
        "\(layer) \(key): \(oldValue?.jsonString() ?? "none") → \(newValue?.jsonString() ?? "none")"
    }
}
