/// Inputs from the device, beside the publication (SPEC 4).
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

/// The reading progression a publication declares (SPEC 5.1).
public enum PublicationReadingProgression: String, Sendable, Hashable, Codable, CaseIterable {
    /// Left to right.
    case ltr
    /// Right to left.
    case rtl
    /// Not declared: derived from the language.
    case auto
}
