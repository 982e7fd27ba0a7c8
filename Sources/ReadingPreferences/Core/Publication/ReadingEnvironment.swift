/// Inputs from the device, beside the publication (Specs/Resolution.md §1).
///
/// ```swift
/// let environment = ReadingEnvironment(forceScroll: UIAccessibility.isVoiceOverRunning,
///                                      appearance: .dark)
/// ```
public struct ReadingEnvironment: Sendable, Hashable, Codable {
    /// Whether scroll is forced, for example while a screen reader runs.
    public var forceScroll: Bool
    /// The system appearance; an unset theme follows it.
    public var appearance: SystemAppearance

    /// Creates an environment (light, scroll not forced, by default).
    public init(forceScroll: Bool = false, appearance: SystemAppearance = .light) {
        self.forceScroll = forceScroll
        self.appearance = appearance
    }
}

/// The system's light or dark appearance.
public enum SystemAppearance: String, Sendable, Hashable, Codable, CaseIterable {
    /// Light mode.
    case light
    /// Dark mode.
    case dark
}

extension ReadingEnvironment {
    /// Reads an environment from a JSON object such as `{"forceScroll": true, "appearance": "dark"}`
    /// (Specs/Resolution.md §1, Specs/README.md §3).
    ///
    /// Both members are optional (light appearance, scroll not forced); `null` counts as missing
    /// and unknown members are ignored.
    ///
    /// ```swift
    /// let environment = try ReadingEnvironment(json: ["appearance": "dark"])
    /// ```
    ///
    /// - Parameters:
    ///   - json: The JSON object.
    ///   - path: The object's path in a larger document, for error messages (empty for a file).
    /// - Throws: ``JSONMemberError`` naming the member with the wrong type or value.
    public init(json: JSONValue, path: String = "") throws(JSONMemberError) {
        let reader = try JSONMemberReader(json, path: path)
        self.init(
            forceScroll: try reader.bool("forceScroll") ?? false,
            appearance: try reader.choice("appearance", SystemAppearance.self) ?? .light)
    }
}
