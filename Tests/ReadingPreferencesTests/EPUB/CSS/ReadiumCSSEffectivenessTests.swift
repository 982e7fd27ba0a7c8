import Foundation
import Testing

@testable import ReadingPreferences

/// Effectiveness follows the stylesheets (Specs/Resolution.md §5.2): for every user setting of
/// Readium CSS's own `settings.json`, in every script mode, a key of ours takes effect exactly
/// when that mode's stylesheets apply it, for Readium CSS 2 as the file says, and for Readium CSS
/// 1 with the differences written here, read from its stylesheets.
@Suite(
    "effectiveness per script mode follows Readium CSS's settings.json",
    .enabled(if: ReadiumCSSData.shouldRun, "Readium CSS's settings.json was not found (see ReadiumCSSData)"))
struct ReadiumCSSEffectivenessTests {
    /// The script modes of `settings.json`, and a publication that resolves to each.
    static let modes: [(name: String, publication: PublicationContext)] = [
        ("ltr", PublicationContext(languages: ["en"])),
        ("rtl", PublicationContext(languages: ["ar"])),
        ("cjk-horizontal", PublicationContext(languages: ["ja"], readingProgression: .ltr)),
        ("cjk-vertical", PublicationContext(languages: ["ja"], readingProgression: .rtl)),
    ]

    /// The key of ours each Readium CSS user setting is, with a value that sets it; `nil` for a
    /// setting we have no key for yet (Specs/CSS.md §5).
    static let keys: [String: (key: String, value: JSONValue)?] = [
        "a11yNormalize": ("textNormalization", true),
        "bodyHyphens": ("hyphens", true),
        "colCount": ("columnCount", "2"),
        "letterSpacing": ("letterSpacing", 0.2),
        "ligatures": ("ligatures", true),
        "paraIndent": ("paragraphIndent", 1),
        "textAlign": ("textAlign", "justify"),
        "wordSpacing": ("wordSpacing", 0.2),
        "noRuby": nil,
    ]

    /// Where Readium CSS 1 (the Swift and Kotlin toolkits 3.x) differs from `settings.json`:
    /// ligatures are the right-to-left stylesheet's alone, right-to-left has no word spacing and
    /// CJK no letter spacing. Each entry: mode → settings disabled besides the file's.
    static let readiumCSS1Disables: [String: Set<String>] = [
        "ltr": ["ligatures"], "rtl": ["wordSpacing"], "cjk-horizontal": ["letterSpacing"],
        "cjk-vertical": ["letterSpacing"],
    ]

    struct Mode {
        var disabled: Set<String>
        var added: Set<String>
    }

    static func settingsFile() throws -> [String: Mode] {
        guard case .object(let top) = try ReadiumCSSData.json("settings.json") else {
            throw ReadiumCSSData.Missing(file: "settings.json as an object")
        }
        var modes: [String: Mode] = [:]
        for member in top.members {
            func names(_ list: String) -> Set<String> {
                Set(member.value.objectValue?[list]?.arrayValue?.compactMap(\.stringValue) ?? [])
            }
            modes[member.key] = Mode(disabled: names("disabled"), added: names("added"))
        }
        return modes
    }

    @Test("every mode of settings.json is one we resolve to, and every setting it names has a row here")
    func covered() throws {
        let file = try Self.settingsFile()
        #expect(Set(file.keys) == Set(Self.modes.map(\.name)))
        let named = file.values.reduce(into: Set<String>()) { $0.formUnion($1.disabled.union($1.added)) }
        #expect(named.subtracting(Self.keys.keys).isEmpty, "settings.json names settings we do not map")
        for name in named {
            #expect(ReadiumCSSSupport.Feature(rawValue: name) != nil, "no support row for \(name)")
        }
    }

    @Test(
        "each key of ours takes effect exactly where the stylesheets apply it",
        arguments: ReadiumCSSVersion.allCases)
    func effectiveness(version: ReadiumCSSVersion) throws {
        let file = try Self.settingsFile()
        // A setting is in the default build unless a mode adds it (noRuby is CJK's own).
        let addedSomewhere = file.values.reduce(into: Set<String>()) { $0.formUnion($1.added) }
        for (mode, publication) in Self.modes {
            let entry = try #require(file[mode])
            var disabled = entry.disabled
            if version == .v1 { disabled.formUnion(Self.readiumCSS1Disables[mode] ?? []) }
            for (name, mapped) in Self.keys {
                let applies =
                    addedSomewhere.contains(name) ? entry.added.contains(name) : !disabled.contains(name)
                // The support table says the same as the file (for noRuby, the only way to check it).
                let feature = try #require(ReadiumCSSSupport.Feature(rawValue: name))
                let variant = try #require(Self.variant(mode))
                #expect(
                    ReadiumCSSSupport.applies(feature, in: variant, version: version) == applies,
                    "\(version), \(mode): \(name)")
                guard let (key, value) = mapped else { continue }
                let preferences: Preferences = [key: value, "publisherStyles": false, "scroll": false]
                let editor = EPUB.Editor(
                    preferences: preferences,
                    resolver: EPUB.Resolver(
                        publication: publication, environment: ReadingEnvironment(readiumCSS: version)))
                let handle = editor.handle(forKey: key)
                #expect(
                    handle?.isEffective == applies,
                    "\(version), \(mode): \(key) (\(name)) \(applies ? "applies" : "does not apply"); reasons \(handle?.reasons ?? [])"
                )
                if !applies, key != "columnCount" {
                    // The stylesheet is the reason (column count in vertical text: forced scroll).
                    #expect(
                        handle?.reasons.contains { $0.code == "needsStylesheet" } == true, "\(mode): \(key)")
                }
            }
        }
    }

    static func variant(_ mode: String) -> EPUB.StylesheetVariant? {
        switch mode {
        case "ltr": return .default
        case "rtl": return .rtl
        case "cjk-horizontal": return .cjkHorizontal
        case "cjk-vertical": return .cjkVertical
        default: return nil
        }
    }

    @Test("every language of i18n.json gets its line-height compensation in Readium CSS 2 output")
    func lineHeightCompensation() throws {
        guard case .object(let languages) = try ReadiumCSSData.json("i18n.json") else {
            throw ReadiumCSSData.Missing(file: "i18n.json as an object")
        }
        #expect(languages.members.count > 20)
        for member in languages.members where member.key != "latin" {
            let expected = member.value.objectValue?["lineHeightCompensation"]?.numberValue?.doubleValue ?? 1
            #expect(ReadiumCSSLanguages.lineHeightCompensation(member.key) == expected, "\(member.key)")
            let settings = EPUB.Resolver(environment: ReadingEnvironment(readiumCSS: .v2))
                .resolve(
                    ["language": .string(member.key), "lineHeight": 1.5, "publisherStyles": false]
                        as Preferences)
            #expect(
                settings.readiumCSS()["--USER__lineHeight"] == NumberFormatting.decimal(1.5 * expected),
                "\(member.key)")
        }
        // A region or script subtag falls back to the language.
        #expect(ReadiumCSSLanguages.lineHeightCompensation("ja-JP") == 1.167)
        #expect(ReadiumCSSLanguages.lineHeightCompensation("en-GB") == 1)
    }
}
