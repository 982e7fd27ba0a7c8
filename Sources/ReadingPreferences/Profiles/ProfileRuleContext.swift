import Foundation

/// What profile rules are evaluated against (Specs/Store.md §4.5): the device's appearance, its
/// local time, its class, and the publication's languages and collections.
///
/// The app gives the device's part (from the OS: light or dark, the clock, the kind of device);
/// the publication's part comes from its ``PublicationContext``.
///
/// ```swift
/// let context = ProfileRuleContext(
///     publication: book, appearance: .dark, minuteOfDay: 22 * 60 + 15, deviceClass: "eink")
/// let chosen = rules.firstMatch(in: context)
/// ```
///
/// Languages are kept as lower-cased primary subtags and made once per context, so evaluating
/// every rule against it allocates nothing.
public struct ProfileRuleContext: Sendable, Hashable {
    /// The system appearance.
    public var appearance: SystemAppearance
    /// The device's local time, in minutes after midnight (0 ..< 1440); `nil` when not given, so
    /// no `time` condition holds.
    public var minuteOfDay: Int?
    /// The device's class (`phone`, `tablet`, `eink`, ...); `nil` when it has none, so no
    /// `deviceClass` condition holds.
    public var deviceClass: String?
    /// The publication's languages, as lower-cased primary subtags (`ja` for `ja-JP`).
    public private(set) var languages: [String]
    /// The publication's collections: its series, shelves, folders.
    public var collections: [String]

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - appearance: The system appearance (light by default).
    ///   - minuteOfDay: The local time in minutes after midnight, or `nil`.
    ///   - deviceClass: The device's class, or `nil`.
    ///   - languages: The publication's language tags (primary subtags are taken).
    ///   - collections: The publication's collections.
    public init(
        appearance: SystemAppearance = .light, minuteOfDay: Int? = nil, deviceClass: String? = nil,
        languages: [LanguageTag] = [], collections: [String] = []
    ) {
        self.appearance = appearance
        self.minuteOfDay = minuteOfDay
        self.deviceClass = deviceClass
        self.languages = languages.map(\.primarySubtag)
        self.collections = collections
    }

    /// Creates a context for a publication.
    ///
    /// - Parameters:
    ///   - publication: What is known of the publication: its languages and collections.
    ///   - appearance: The system appearance.
    ///   - minuteOfDay: The local time in minutes after midnight, or `nil`.
    ///   - deviceClass: The device's class, or `nil`.
    public init(
        publication: PublicationContext, appearance: SystemAppearance = .light, minuteOfDay: Int? = nil,
        deviceClass: String? = nil
    ) {
        self.init(
            appearance: appearance, minuteOfDay: minuteOfDay, deviceClass: deviceClass,
            languages: publication.languages, collections: publication.collections)
    }

    /// This context with another publication's languages and collections.
    ///
    /// - Parameter publication: The publication.
    /// - Returns: The device's part of this context with the publication's part of `publication`.
    public func with(publication: PublicationContext) -> ProfileRuleContext {
        ProfileRuleContext(
            publication: publication, appearance: appearance, minuteOfDay: minuteOfDay,
            deviceClass: deviceClass)
    }

    /// The minute of the day of a date in a time zone, for ``minuteOfDay``.
    ///
    /// ```swift
    /// let minute = ProfileRuleContext.minuteOfDay(of: Date(), in: .current)
    /// ```
    ///
    /// - Parameters:
    ///   - date: The date.
    ///   - timeZone: The device's time zone.
    /// - Returns: Minutes after local midnight.
    public static func minuteOfDay(of date: Date, in timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }
}
