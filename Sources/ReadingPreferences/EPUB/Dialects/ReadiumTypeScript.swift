import Foundation

/// Readium's TypeScript navigator (`@readium/navigator` 2.x, `IEpubPreferences`): its names,
/// units and ranges where they differ from ours, and the rules both directions share
/// (Specs/CSS.md §2.3). What differs between its versions is in ``ReadiumTypeScriptVersion``.
enum ReadiumTypeScript {

    /// The prefix of the keys that keep, verbatim, a navigator value with no value of ours under
    /// a name of ours (`"readium-ts:columnCount": 3`): no setting has such a key, so the value is
    /// kept, merged and synced as an unknown key without being mistaken for a setting, and an
    /// export writes it back under its name.
    static let keptPrefix = "readium-ts:"

    /// The prefix of the keys that keep a `null` member of the navigator's
    /// (`"readium-ts:null:maximalLineLength": true`), so an export writes it back as `null`: a
    /// `null` of ours would be "unset", and a key per member merges as any other key.
    static let nullPrefix = "readium-ts:null:"

    /// The key that keeps a `null` member.
    static func null(_ member: String) -> String { nullPrefix + member }

    /// The member a `readium-ts:null:` key keeps as `null`, or `nil`.
    static func member(nullIn key: String) -> String? {
        guard key.hasPrefix(nullPrefix) else { return nil }
        let name = String(key.dropFirst(nullPrefix.count))
        return name.isEmpty ? nil : name
    }

    /// Our keys the navigator applies whatever else is set, but our model only while publisher
    /// styles are off: an export writes them only when the document turns publisher styles off,
    /// and an import that sets one turns them off.
    static let publisherStyleKeys: Set<String> = [
        "hyphens", "letterSpacing", "ligatures", "lineHeight", "paragraphIndent", "paragraphSpacing",
        "textAlign", "wordSpacing",
    ]

    /// Our keys with no member in the navigator: dropped on export; a member of that name in a
    /// navigator object is kept aside (`readium-ts:` key) on import, never read as ours.
    static let oursOnly: Set<String> = [
        "fit", "language", "offsetFirstPage", "pageMargins", "readingProgression", "spread", "typeScale",
        "verticalText",
    ]

    /// The font sizes the navigator accepts (it ignores others).
    static let fontSizes = 0.7...4.0
    /// The font weights the navigator accepts (it ignores others).
    static let fontWeights = 100.0...1000.0

    /// How a number member of ours relates to the navigator's: theirs = ours × `scale`.
    static func scale(of key: String) -> Double? {
        switch key {
        case "fontSize", "lineHeight", "paragraphIndent", "paragraphSpacing", "wordSpacing": return 1
        case "fontWeight": return 400
        // Ours is a fraction of the half rem our CSS writes; theirs is rem.
        case "letterSpacing": return 0.5
        default: return nil
        }
    }

    /// A number rounded to 5 fraction digits: the binary noise of a scale removed (150.5 stays
    /// 150.5, never 150.49999999999997), as CSS numbers are written (Specs/CSS.md §1.2).
    static func clean(_ value: Double) -> Double {
        (value * 100_000).rounded(.toNearestOrAwayFromZero) / 100_000
    }

    /// The key that keeps a navigator member's value aside.
    static func kept(_ key: String) -> String { keptPrefix + key }

    /// The navigator member a `readium-ts:` key keeps, or `nil` (also for a `readium-ts:null:` key).
    static func member(keptIn key: String) -> String? {
        guard key.hasPrefix(keptPrefix), !key.hasPrefix(nullPrefix) else { return nil }
        let name = String(key.dropFirst(keptPrefix.count))
        return name.isEmpty ? nil : name
    }

    /// A number rounded half away from zero (the one rounding rule of the project).
    static func rounded(_ value: Double) -> Double { value.rounded(.toNearestOrAwayFromZero) }

    /// One CSS `font-family` name, unquoted: `Georgia`, `"Iowan Old Style"` or `'Literata'`; `nil`
    /// for a list of families (a stack) or anything else that is not a single name.
    static func singleFamily(_ css: String) -> String? {
        let text = css.trimmingCharacters(in: .whitespaces)
        guard let first = text.first else { return nil }
        if first == "\"" || first == "'" {
            var name = ""
            var escaped = false
            var index = text.index(after: text.startIndex)
            while index < text.endIndex {
                let character = text[index]
                if escaped {
                    name.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == first {
                    // Only a whole quoted string is one name.
                    return text.index(after: index) == text.endIndex && !name.isEmpty ? name : nil
                } else {
                    name.append(character)
                }
                index = text.index(after: index)
            }
            return nil
        }
        guard !text.contains(","), !text.contains("\""), !text.contains("'") else { return nil }
        // Unquoted identifiers separated by spaces name one family.
        return text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
