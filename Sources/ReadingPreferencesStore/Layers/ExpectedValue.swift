import ReadingPreferences

/// The value a client read for one key before it changed it: a per-key precondition of an edit
/// (Specs/Store.md §12.5). The edit goes ahead only if the key still holds that value, so two
/// clients that change different keys never conflict, while two that change the same key do.
///
/// ```swift
/// // The page read fontSize 1.2; apply its increment only if nobody changed fontSize since.
/// try await store.apply(
///     [.increment(key: "fontSize")], publication: bookID,
///     expecting: [ExpectedValue(key: "fontSize", value: 1.2)])
/// ```
public struct ExpectedValue: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value the key held, as stored (compared as JSON, numbers by value), or `nil` when
    /// it held none.
    public var value: JSONValue?

    /// Creates an expectation.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The value it held, or `nil` (or JSON `null`, which no stored key holds) for none.
    public init(key: String, value: JSONValue?) {
        self.key = key
        self.value = value?.isNull == true ? nil : value
    }

    /// Whether the key holds this value in `preferences`.
    func holds(in preferences: Preferences) -> Bool {
        preferences[key] == value
    }
}

/// A key whose value is not the one an edit expected (``ExpectedValue``): what the client read,
/// and what is stored now.
public struct StaleValue: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value the client read, or `nil` for none.
    public var expected: JSONValue?
    /// The value stored now, or `nil` for none.
    public var stored: JSONValue?

    /// Creates a stale value.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - expected: The value the client read.
    ///   - stored: The value stored now.
    public init(key: String, expected: JSONValue?, stored: JSONValue?) {
        self.key = key
        self.expected = expected
        self.stored = stored
    }
}
