/// The conditions of a profile rule, all of which must hold (Specs/Store.md §4.5): the `when`
/// object of `{"profile": ID, "when": {...}}`.
///
/// ```swift
/// let conditions = try ProfileRuleConditions(json: ["appearance": "dark", "language": ["ja"]])
/// conditions.holds(in: ProfileRuleContext(appearance: .dark, languages: ["ja-JP"]))   // true
/// ```
///
/// A condition that is not given holds always; `{}` holds in every context. The lists are made
/// into sets when the conditions are made, so ``holds(in:)`` allocates nothing.
public struct ProfileRuleConditions: Sendable, Hashable {
    /// `appearance`: the system appearance it needs.
    public let appearance: SystemAppearance?
    /// `deviceClass`: the class of device it needs.
    public let deviceClass: String?
    /// `language`: BCP 47 primary subtags (lower-cased); one of the publication's languages must
    /// have one of them.
    public let languages: [String]?
    /// `collection`: one of the publication's collections must be one of them.
    public let collections: [String]?
    /// `time`: the window of local time it needs.
    public let time: LocalTimeWindow?
    /// The `when` object as written (member order and spelling kept).
    public let json: JSONObject

    private let languageSet: Set<String>
    private let collectionSet: Set<String>

    /// Creates conditions; `nil` for a condition that always holds.
    ///
    /// - Parameters:
    ///   - appearance: The appearance it needs.
    ///   - deviceClass: The device class it needs.
    ///   - languages: Primary subtags, one of which a publication language must have.
    ///   - collections: Collections, one of which the publication must be in.
    ///   - time: The window of local time.
    public init(
        appearance: SystemAppearance? = nil, deviceClass: String? = nil, languages: [String]? = nil,
        collections: [String]? = nil, time: LocalTimeWindow? = nil
    ) {
        var members: [JSONObject.Member] = []
        if let appearance { members.append(.init(key: "appearance", value: .string(appearance.rawValue))) }
        if let deviceClass { members.append(.init(key: "deviceClass", value: .string(deviceClass))) }
        if let languages {
            members.append(.init(key: "language", value: .array(languages.map(JSONValue.string))))
        }
        if let collections {
            members.append(.init(key: "collection", value: .array(collections.map(JSONValue.string))))
        }
        if let time { members.append(.init(key: "time", value: time.jsonValue)) }
        self.init(
            appearance: appearance, deviceClass: deviceClass, languages: languages, collections: collections,
            time: time, json: JSONObject(members: members))
    }

    /// The conditions with the `when` object they were read from.
    init(
        appearance: SystemAppearance?, deviceClass: String?, languages: [String]?, collections: [String]?,
        time: LocalTimeWindow?, json: JSONObject
    ) {
        self.appearance = appearance
        self.deviceClass = deviceClass
        self.languages = languages?.map(Self.asciiLowercased)
        self.collections = collections
        self.time = time
        self.json = json
        languageSet = Set(self.languages ?? [])
        collectionSet = Set(collections ?? [])
    }

    /// Whether every condition holds in a context. It allocates nothing.
    ///
    /// - Parameter context: The device and the publication.
    /// - Returns: `true` when all the given conditions hold.
    public func holds(in context: ProfileRuleContext) -> Bool {
        Self.holds(
            appearance: appearance, deviceClass: deviceClass, time: time,
            languages: languages == nil ? nil : languageSet,
            collections: collections == nil ? nil : collectionSet,
            in: context)
    }

    /// The conditions, read once into a reference: what ``ProfileRules`` evaluates, so that trying
    /// a rule copies nothing (a struct read out of an array is copied, each member retained).
    final class Compiled: Sendable {
        let appearance: SystemAppearance?
        let deviceClass: String?
        let time: LocalTimeWindow?
        let languages: Set<String>?
        let collections: Set<String>?

        init(_ conditions: ProfileRuleConditions) {
            appearance = conditions.appearance
            deviceClass = conditions.deviceClass
            time = conditions.time
            languages = conditions.languages == nil ? nil : conditions.languageSet
            collections = conditions.collections == nil ? nil : conditions.collectionSet
        }

        func holds(in context: ProfileRuleContext) -> Bool {
            ProfileRuleConditions.holds(
                appearance: appearance, deviceClass: deviceClass, time: time, languages: languages,
                collections: collections, in: context)
        }
    }

    /// Whether every given condition holds in a context (the one place the rule is written).
    @inline(__always)
    static func holds(
        appearance: SystemAppearance?, deviceClass: String?, time: LocalTimeWindow?, languages: Set<String>?,
        collections: Set<String>?, in context: ProfileRuleContext
    ) -> Bool {
        if let appearance, appearance != context.appearance { return false }
        if let deviceClass, deviceClass != context.deviceClass { return false }
        if let time {
            guard let minute = context.minuteOfDay, time.contains(minuteOfDay: minute) else { return false }
        }
        if let languages, !meets(languages, context.languages) { return false }
        if let collections, !meets(collections, context.collections) { return false }
        return true
    }

    /// Whether one of `candidates` is in `wanted`: a loop, so no closure is made per rule.
    private static func meets(_ wanted: Set<String>, _ candidates: [String]) -> Bool {
        for candidate in candidates where wanted.contains(candidate) { return true }
        return false
    }

    /// ASCII letters lower-cased; other characters kept.
    static func asciiLowercased(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The conditions for people: `appearance dark, language ja, time 20:30–06:45`, or `always`.
    public var summary: String {
        var parts: [String] = []
        if let appearance { parts.append("appearance \(appearance.rawValue)") }
        if let deviceClass { parts.append("deviceClass \(deviceClass)") }
        if let languages { parts.append("language " + languages.joined(separator: "|")) }
        if let collections { parts.append("collection " + collections.joined(separator: "|")) }
        if let time { parts.append("time \(time)") }
        return parts.isEmpty ? "always" : parts.joined(separator: ", ")
    }
}
