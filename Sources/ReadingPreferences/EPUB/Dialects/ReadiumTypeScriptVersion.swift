/// One version of Readium's TypeScript navigator, as the dialect reads and writes it
/// (Specs/CSS.md §2.3): the members of its `IEpubPreferences` and the checks its
/// `EpubPreferences` constructor (and `merging`) runs on them, what `null` means for each, and
/// the ranges its `EpubPreferencesEditor` offers.
struct ReadiumTypeScriptVersion: Sendable {
    /// What the navigator checks of a member's value; a value that fails is ignored (left out
    /// without a word, never clamped).
    enum Check: Sendable {
        /// A string (`ensureString`).
        case string
        /// `true` or `false` (`ensureBoolean`).
        case boolean
        /// A boolean, or a strength: a number of 0 or more (`ensureFilter`).
        case filter
        /// A number of 0 or more (`ensureNonNegative`).
        case nonNegative
        /// A number in the range (`ensureValueInRange`).
        case range(ClosedRange<Double>)
        /// One of `start`, `left`, `right`, `justify` (`ensureEnumValue`).
        case textAlign
        /// A number of 0 or more, and not below `optimalLineLength` (65 when unset), which
        /// `merging` requires.
        case atLeastOptimalLineLength
        /// A number of 0 or more, and not above `optimalLineLength` (65 when unset).
        case atMostOptimalLineLength
    }

    /// What a `null` member means to the navigator (its `EpubSettings`).
    enum NullMeaning: Sendable {
        /// The same as no member: the app's default applies (strings and booleans, read with `||`
        /// or `typeof`).
        case unset
        /// "No value": the app's default is ignored and nothing is applied (numbers, read with
        /// `!== undefined`): a `columnCount` of `null` is automatic columns, a
        /// `maximalLineLength` of `null` no limit.
        case noValue
    }

    /// The version checked, as written in the dialect's table (`2.2.5`).
    let navigatorVersion: String
    /// The ranges the navigator's editor offers, in its units (letter spacing in rem): a value
    /// in one of them that ours cannot hold is kept beside ours.
    let editorRanges: [String: ClosedRange<Double>]

    /// The navigator's members and their checks.
    static let checks: [String: Check] = [
        "backgroundColor": .string, "blendFilter": .boolean, "columnCount": .nonNegative,
        "constraint": .nonNegative, "darkenFilter": .filter, "deprecatedFontSize": .boolean,
        "fontFamily": .string, "fontOpticalSizing": .boolean, "fontSize": .range(0.7...4),
        "fontSizeNormalize": .boolean, "fontWeight": .range(100...1000), "fontWidth": .range(50...250),
        "hyphens": .boolean, "invertFilter": .filter, "invertGaijiFilter": .filter, "iOSPatch": .boolean,
        "iPadOSPatch": .boolean, "letterSpacing": .nonNegative, "ligatures": .boolean,
        "lineHeight": .nonNegative, "linkColor": .string, "maximalLineLength": .atLeastOptimalLineLength,
        "minimalLineLength": .atMostOptimalLineLength, "noRuby": .boolean, "optimalLineLength": .nonNegative,
        "pageGutter": .nonNegative, "paragraphIndent": .nonNegative, "paragraphSpacing": .nonNegative,
        "scroll": .boolean, "scrollPaddingBottom": .nonNegative, "scrollPaddingTop": .nonNegative,
        "selectionBackgroundColor": .string, "selectionTextColor": .string, "textAlign": .textAlign,
        "textColor": .string, "textNormalization": .boolean, "visitedColor": .string,
        "wordSpacing": .nonNegative,
    ]

    /// The members whose `null` is "no value" (the rest: unset).
    static let noValueWhenNull: Set<String> = [
        "columnCount", "fontSize", "fontWeight", "fontWidth", "letterSpacing", "lineHeight",
        "maximalLineLength", "minimalLineLength", "pageGutter", "paragraphIndent", "paragraphSpacing",
        "scrollPaddingBottom", "scrollPaddingTop", "wordSpacing",
    ]

    /// `@readium/navigator` 2.2.5.
    static let navigator22 = ReadiumTypeScriptVersion(
        navigatorVersion: "2.2.5",
        editorRanges: [
            "fontSize": 0.7...4, "fontWeight": 100...1000, "letterSpacing": 0...1, "lineHeight": 1...2,
            "paragraphIndent": 0...3, "paragraphSpacing": 0...3, "wordSpacing": 0...2,
        ])

    /// `@readium/navigator` 2.12.x, the newest checked: line height to 2.5 (since 2.5.2); editors
    /// clone their preferences and `clear()` writes `null` (since 2.8.2).
    static let navigator212 = ReadiumTypeScriptVersion(
        navigatorVersion: "2.12.1",
        editorRanges: [
            "fontSize": 0.7...4, "fontWeight": 100...1000, "letterSpacing": 0...1, "lineHeight": 1...2.5,
            "paragraphIndent": 0...3, "paragraphSpacing": 0...3, "wordSpacing": 0...2,
        ])

    /// What `null` means for a member.
    func nullMeaning(of member: String) -> NullMeaning {
        Self.noValueWhenNull.contains(member) ? .noValue : .unset
    }

    /// Why the navigator would ignore `value` as `member` of `object`, or `nil` when it keeps it;
    /// a member it does not have is ignored too.
    func rejection(of value: JSONValue, as member: String, in object: JSONObject) -> String? {
        guard let check = Self.checks[member] else { return "not a member of the navigator's preferences" }
        if value.isNull { return nil }
        let number = value.numberValue.flatMap { $0.isFinite ? $0.doubleValue : nil }
        let optimal = object["optimalLineLength"]?.numberValue?.doubleValue ?? 65
        switch check {
        case .string:
            if case .string = value { return nil }
            return "not a string"
        case .boolean:
            if case .bool = value { return nil }
            return "not true or false"
        case .filter:
            if case .bool = value { return nil }
            return number.map { $0 >= 0 } == true ? nil : "not true, false or a strength of 0 or more"
        case .nonNegative:
            return number.map { $0 >= 0 } == true ? nil : "not a number of 0 or more"
        case .range(let range):
            return number.map(range.contains) == true
                ? nil : "not a number in \(Self.text(range.lowerBound))…\(Self.text(range.upperBound))"
        case .textAlign:
            if case .string(let text) = value, ["start", "left", "right", "justify"].contains(text) {
                return nil
            }
            return "not start, left, right or justify"
        case .atLeastOptimalLineLength:
            guard let number, number >= 0 else { return "not a number of 0 or more" }
            return number >= optimal ? nil : "below optimalLineLength (\(Self.text(optimal)))"
        case .atMostOptimalLineLength:
            guard let number, number >= 0 else { return "not a number of 0 or more" }
            return number <= optimal ? nil : "above optimalLineLength (\(Self.text(optimal)))"
        }
    }

    /// Whether the navigator's editor offers `value` for `member` (in its units).
    func editorOffers(_ value: Double, for member: String) -> Bool {
        editorRanges[member]?.contains(value) ?? false
    }

    static func text(_ number: Double) -> String { NumberFormatting.decimal(number) }
}
