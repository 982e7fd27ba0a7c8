import ReadingPreferences

/// One change of a key's value, as a store's change streams report it (Specs/Store.md §9.2).
///
/// A publication's stream reports effective values (what the navigator uses); the stored
/// stream reports stored values. `nil` means none or unset.
public struct PreferenceChange: Sendable, Hashable, CustomStringConvertible {
    /// The key.
    public var key: String
    /// The value before, in JSON; `nil` for none.
    public var oldValue: JSONValue?
    /// The value after, in JSON; `nil` for none.
    public var newValue: JSONValue?
    /// What caused the change.
    public var cause: ChangeCause
    /// For a ``ChangeCause/profileSwitch``, who chose the profile that applies now: the rule
    /// (its position and conditions) or the reader by hand; `nil` when shared applies, or for
    /// another cause (Specs/Store.md §9.2).
    public var profileChoice: ProfileChoice?

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - oldValue: The value before.
    ///   - newValue: The value after.
    ///   - cause: What caused it.
    ///   - profileChoice: For a profile switch, who chose the profile that applies now.
    public init(
        key: String, oldValue: JSONValue?, newValue: JSONValue?, cause: ChangeCause,
        profileChoice: ProfileChoice? = nil
    ) {
        self.key = key
        self.oldValue = oldValue
        self.newValue = newValue
        self.cause = cause
        self.profileChoice = profileChoice
    }

    /// `key: old → new (cause)`, or `(profileSwitch, rule 1 (appearance dark))`.
    public var description: String {
        "\(key): \(oldValue?.jsonString() ?? "none") → \(newValue?.jsonString() ?? "none") (\(cause.rawValue)"
            + (profileChoice.map { ", \($0))" } ?? ")")
    }
}

/// What caused a change (Specs/Store.md §9.2).
public enum ChangeCause: String, Sendable, Hashable, Codable, CaseIterable {
    /// An edit through this store.
    case edit
    /// Another profile became active: chosen by hand, deleted, or chosen by another rule as the
    /// rule context or the rules changed.
    case profileSwitch
    /// The app changed its defaults.
    case defaultsChange
    /// A temporary override was set or removed.
    case override
    /// A sync with other devices.
    case sync
    /// Another process or a person changed the files, found by ``PreferencesStore/reload()``.
    case external
}
