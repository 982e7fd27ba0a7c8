/// A profile: a named set of preferences that replaces the shared ones while it is active
/// (Specs/Store.md §4.1). Its id is stable (the file name); its display name can change.
///
/// ```swift
/// let night = try await store.createProfile(named: "Night")
/// try await store.activateProfile(night.id)
/// ```
public struct Profile: Sendable, Hashable, Identifiable, Codable {
    /// The stable id.
    public let id: String
    /// The display name.
    public var name: String

    /// Creates a profile value.
    ///
    /// - Parameters:
    ///   - id: The stable id.
    ///   - name: The display name.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The reserved key that holds a profile's display name in its document.
    public static let nameKey = "$name"
}
