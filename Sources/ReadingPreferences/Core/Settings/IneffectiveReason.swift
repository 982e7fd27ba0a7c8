/// Why a setting is not effective (Specs/Settings.md §8, Specs/Resolution.md §1): a code with arguments and an English default
/// text, so an app can localize it.
///
/// ```swift
/// let reason = IneffectiveReason.requiresPreference(key: "publisherStyles", value: .bool(false))
/// reason.code          // "requiresPreference"
/// reason.arguments     // ["publisherStyles", "false"]
/// reason.defaultText   // "Requires publisherStyles to be false"
/// ```
public indirect enum IneffectiveReason: Sendable, Hashable, CustomStringConvertible {
    /// The preference `key` must hold `value` (activatable by writing it).
    case requiresPreference(key: String, value: SettingValue)
    /// The resolved setting `key` must equal `value` (not activatable).
    case requiresSetting(key: String, value: SettingValue)
    /// The resolved setting `key` must not equal `value`.
    case excludedBySetting(key: String, value: SettingValue)
    /// The publication must have this layout.
    case needsLayout(PublicationLayout)
    /// The setting has no stored preference.
    case notSet
    /// The setting resolved to no value.
    case noValue
    /// The stored value is not available for this publication.
    case notAvailableForPublication
    /// A temporary override sets this key.
    case overridden
    /// None of these alternatives holds.
    case anyOf([IneffectiveReason])
    /// A reason of a configurable's own, such as EPUB's `needsStylesheet(default)` or
    /// `forcedScroll` (see ``DerivedSettings``).
    case custom(code: String, arguments: [String], text: String)

    /// The stable code, such as `"requiresPreference"` or `"needsLayout"`.
    public var code: String {
        switch self {
        case .requiresPreference: return "requiresPreference"
        case .requiresSetting: return "requiresSetting"
        case .excludedBySetting: return "excludedBySetting"
        case .needsLayout: return "needsLayout"
        case .notSet: return "notSet"
        case .noValue: return "noValue"
        case .notAvailableForPublication: return "notAvailableForPublication"
        case .overridden: return "overridden"
        case .anyOf: return "anyOf"
        case .custom(let code, _, _): return code
        }
    }

    /// The arguments of the code, as strings.
    public var arguments: [String] {
        switch self {
        case .requiresPreference(let key, let value), .requiresSetting(let key, let value),
            .excludedBySetting(let key, let value):
            return [key, value.description]
        case .needsLayout(let layout): return [layout.rawValue]
        case .anyOf(let reasons): return reasons.map(\.description)
        case .custom(_, let arguments, _): return arguments
        default: return []
        }
    }

    /// An English sentence for people.
    public var defaultText: String {
        switch self {
        case .requiresPreference(let key, let value): return "Requires \(key) to be \(value)"
        case .requiresSetting(let key, let value): return "Only when \(key) is \(value)"
        case .excludedBySetting(let key, let value): return "Not when \(key) is \(value)"
        case .needsLayout(let layout): return "Only for \(layout.rawValue) publications"
        case .notSet: return "Not set"
        case .noValue: return "No value"
        case .notAvailableForPublication: return "Not available for this publication"
        case .overridden: return "Overridden"
        case .anyOf(let reasons): return reasons.map(\.defaultText).joined(separator: ", or ")
        case .custom(_, _, let text): return text
        }
    }

    /// An English sentence that names settings by their titles and values by their labels, such
    /// as "Requires Publisher styles to be Off" (keys without a title are named by their key).
    ///
    /// ```swift
    /// IneffectiveReason.requiresPreference(key: "publisherStyles", value: .bool(false))
    ///     .text(in: EPUB.catalogue)   // "Requires Publisher styles to be Off"
    /// ```
    ///
    /// - Parameter catalogue: The catalogue whose titles and labels to use.
    /// - Returns: The sentence.
    public func text(in catalogue: SettingCatalogue) -> String {
        func named(_ key: String, _ value: SettingValue) -> (String, String) {
            guard let descriptor = catalogue.descriptor(forKey: key) else { return (key, value.description) }
            return (descriptor.title ?? key, descriptor.format(value))
        }
        switch self {
        case .requiresPreference(let key, let value):
            let (title, label) = named(key, value)
            return "Requires \(title) to be \(label)"
        case .requiresSetting(let key, let value):
            let (title, label) = named(key, value)
            return "Only when \(title) is \(label)"
        case .excludedBySetting(let key, let value):
            let (title, label) = named(key, value)
            return "Not when \(title) is \(label)"
        case .anyOf(let reasons): return reasons.map { $0.text(in: catalogue) }.joined(separator: ", or ")
        default: return defaultText
        }
    }

    /// The code with its arguments, such as `requiresPreference(publisherStyles, false)`.
    public var description: String {
        arguments.isEmpty ? code : "\(code)(\(arguments.joined(separator: ", ")))"
    }
}
