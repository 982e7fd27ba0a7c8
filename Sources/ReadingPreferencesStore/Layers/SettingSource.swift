import ReadingPreferences

/// Where a setting's effective value came from (Specs/Store.md §2.1 attribution).
///
/// ```swift
/// let settings = try await store.attributedSettings(for: "urn:isbn:978-0", context: book)
/// settings.first { $0.key == "readingProgression" }?.source   // .publication
/// settings.first { $0.key == "fontSize" }?.source             // .shared
/// ```
public enum SettingSource: Sendable, Hashable, CustomStringConvertible {
    /// The overrides layer sets it.
    case override
    /// The publication's own preferences set it.
    case publication
    /// This device's own preferences set it (Specs/Store.md §1.4).
    case device
    /// The preferences of this device's class set it, named by the class's id.
    case deviceClass(String)
    /// The active profile sets it, named by its display name.
    case profile(name: String)
    /// The shared preferences set it.
    case shared
    /// An app default supplies it.
    case `default`
    /// The publication's metadata supplies it (its language, its reading progression).
    case publicationMetadata
    /// A rule derives it from other settings (reading progression from the language, vertical
    /// text from CJK and right to left, colors from the theme).
    case derived(from: [String])
    /// A rule forces it (scroll, by vertical text or a screen reader).
    case forced(by: String)
    /// The configurable's fallback, or none.
    case fallback

    /// The stable code for JSON and the CLI: `override`, `publication`, `device`, `deviceClass`,
    /// `profile`, `shared`, `default`, `publicationMetadata`, `derived`, `forced` or `fallback`.
    public var code: String {
        switch self {
        case .override: return "override"
        case .publication: return "publication"
        case .device: return "device"
        case .deviceClass: return "deviceClass"
        case .profile: return "profile"
        case .shared: return "shared"
        case .default: return "default"
        case .publicationMetadata: return "publicationMetadata"
        case .derived: return "derived"
        case .forced: return "forced"
        case .fallback: return "fallback"
        }
    }

    /// The code with its argument: `profile(Night)`, `deviceClass(eink)`, `derived(language)`,
    /// `forced(verticalText)`.
    public var description: String {
        switch self {
        case .deviceClass(let id): return "deviceClass(\(id))"
        case .profile(let name): return "profile(\(name))"
        case .derived(let keys): return "derived(\(keys.joined(separator: ", ")))"
        case .forced(let cause): return "forced(\(cause))"
        default: return code
        }
    }
}

extension SettingSource {
    /// The source as JSON members: `"source"` (its ``code``), with its argument where it has one:
    /// `"from"` (the keys a derived value comes from, joined by `, `), `"by"` (what forces it),
    /// `"profile"` (the profile's display name) or `"class"` (the device class's id).
    ///
    /// ```swift
    /// SettingSource.derived(from: ["theme"]).jsonMembers   // "source": "derived", "from": "theme"
    /// ```
    public var jsonMembers: [JSONObject.Member] {
        var members = [JSONObject.Member(key: "source", value: .string(code))]
        switch self {
        case .derived(let keys):
            members.append(.init(key: "from", value: .string(keys.joined(separator: ", "))))
        case .forced(let cause): members.append(.init(key: "by", value: .string(cause)))
        case .profile(let name): members.append(.init(key: "profile", value: .string(name)))
        case .deviceClass(let id): members.append(.init(key: "class", value: .string(id)))
        default: break
        }
        return members
    }
}

/// One setting as the store resolves it for a publication: its effective value, where that
/// value came from, and whether it takes effect.
public struct AttributedSetting: Sendable, Hashable {
    /// The setting's key.
    public var key: String
    /// The effective value in the setting's JSON form; `nil` when there is none.
    public var value: JSONValue?
    /// Where the value came from.
    public var source: SettingSource
    /// Whether the setting takes effect (an overridden key does not).
    public var isEffective: Bool
    /// Why it does not take effect; empty when it does.
    public var reasons: [IneffectiveReason]
    /// Where the stored value that resolves came from (Specs/Store.md §15.2), when the value comes
    /// from a layer and it was asked for; `nil` when not known or not asked.
    public var provenance: Provenance?
    /// Who chose the profile the value comes from (a rule, or the reader by hand), when it comes
    /// from a profile (Specs/Store.md §4.5); `nil` otherwise.
    public var profileChoice: ProfileChoice?

    /// Creates an attributed setting.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The effective value, or `nil`.
    ///   - source: Where it came from.
    ///   - isEffective: Whether it takes effect.
    ///   - reasons: Why it does not take effect.
    public init(
        key: String,
        value: JSONValue?,
        source: SettingSource,
        isEffective: Bool,
        reasons: [IneffectiveReason] = []
    ) {
        self.key = key
        self.value = value
        self.source = source
        self.isEffective = isEffective
        self.reasons = reasons
    }
}
