/// Inputs from the device and the navigator, beside the publication (Specs/Resolution.md §1).
///
/// ```swift
/// let environment = ReadingEnvironment(forceScroll: UIAccessibility.isVoiceOverRunning,
///                                      appearance: .dark, readiumCSS: .v1)
/// ```
public struct ReadingEnvironment: Sendable, Hashable, Codable {
    /// Whether scroll is forced, for example while a screen reader runs.
    public var forceScroll: Bool
    /// The system appearance; an unset theme follows it.
    public var appearance: SystemAppearance
    /// The Readium CSS the navigator ships: EPUB effectiveness is reported for it, and the CSS
    /// output is written for it (Specs/Resolution.md §5.2). Readium CSS 1 by default.
    public var readiumCSS: ReadiumCSSVersion

    /// Creates an environment (light, scroll not forced, Readium CSS 1, by default).
    public init(
        forceScroll: Bool = false, appearance: SystemAppearance = .light, readiumCSS: ReadiumCSSVersion = .v1
    ) {
        self.forceScroll = forceScroll
        self.appearance = appearance
        self.readiumCSS = readiumCSS
    }

    private enum CodingKeys: String, CodingKey {
        case forceScroll, appearance, readiumCSS
    }

    /// Decodes an environment; a missing member takes its default, so environments encoded before
    /// ``readiumCSS`` existed still decode.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            forceScroll: try container.decodeIfPresent(Bool.self, forKey: .forceScroll) ?? false,
            appearance: try container.decodeIfPresent(SystemAppearance.self, forKey: .appearance) ?? .light,
            readiumCSS: try container.decodeIfPresent(ReadiumCSSVersion.self, forKey: .readiumCSS) ?? .v1)
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
    /// Reads an environment from a JSON object such as
    /// `{"forceScroll": true, "appearance": "dark", "readiumCSS": 2}` (Specs/Resolution.md §1,
    /// Specs/README.md §3).
    ///
    /// Every member is optional (light appearance, scroll not forced, Readium CSS 1); `null`
    /// counts as missing and unknown members are ignored.
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
            appearance: try reader.choice("appearance", SystemAppearance.self) ?? .light,
            readiumCSS: try Self.readiumCSS(reader))
    }
}

extension ReadingEnvironment {
    /// The `readiumCSS` member: `1` or `2`.
    private static func readiumCSS(_ reader: JSONMemberReader) throws(JSONMemberError) -> ReadiumCSSVersion {
        guard let value = reader.value("readiumCSS"), !value.isNull else { return .v1 }
        guard let number = value.numberValue?.doubleValue, let version = ReadiumCSSVersion(exactly: number)
        else {
            throw JSONMemberError(
                path: reader.path("readiumCSS"),
                message: "expected 1 or 2 (the Readium CSS version), got \(value.jsonString())")
        }
        return version
    }
}

extension ReadiumCSSVersion {
    /// The version numbered `number` (`1`, `2`), or `nil`.
    ///
    /// - Parameter number: A JSON number, such as a query's or a document's.
    public init?(exactly number: Double) {
        guard let raw = Int(exactly: number), let version = ReadiumCSSVersion(rawValue: raw) else {
            return nil
        }
        self = version
    }
}
