import TestSupport

@testable import ReadingPreferences

/// A generated reading context: the publication, the environment and the app defaults.
struct ReadingContext: CustomStringConvertible, Sendable {
    var layout: PublicationLayout = .reflowable
    var languages: [String] = []
    var readingProgression: PublicationReadingProgression = .auto
    var environment = ReadingEnvironment()
    var defaults = Document()

    var description: String {
        "layout \(layout.rawValue), languages \(languages), progression \(readingProgression.rawValue), "
            + "forceScroll \(environment.forceScroll), appearance \(environment.appearance.rawValue), "
            + "defaults \(defaults.text)"
    }

    /// The defaults decoded for a schema (keys defaults may not set are ignored).
    func defaultValues<Schema: SettingsSchema>(_ schema: Schema.Type) -> SettingValueTable<Schema> {
        SettingValueTable((try? defaults.preferences) ?? Preferences(), asDefaults: true)
    }
}

extension Gen {
    /// Tags of Specs/Resolution.md §3 (right-to-left, CJK, the Chinese exceptions) and a few ordinary ones.
    static let languageTags = [
        "en", "fr-CA", "ar", "ar-EG", "fa", "he", "iw", "ur", "ps", "sd", "ug", "yi", "ji", "dv", "ckb",
        "zh", "zh-Hant", "zh-TW", "zh-Hant-TW", "zh-Hant-HK", "zh-HK", "zh-Hans", "zh_tw", "ZH-HANT", "ja",
        "ja-JP", "ko", "ko-KR", "sr-Arab", "en-Hebr-US", "tlh-Hani", "az-Thaa", "uz-Adlm", "en-Kore", "arab",
    ]

    /// A language tag: from the list of Specs/Resolution.md §3, or random subtags.
    static func languageTag(_ random: inout PropertyRandom) -> String {
        if random.oneIn(4) {
            let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
            let subtag = { (random: inout PropertyRandom, count: Int) in
                String((0..<count).map { _ in random.pick(letters) })
            }
            var parts = [subtag(&random, random.int(in: 0...3))]
            for _ in 0..<random.below(3) { parts.append(subtag(&random, random.int(in: 0...5))) }
            return parts.joined(separator: random.oneIn(3) ? "_" : "-")
        }
        return random.pick(languageTags)
    }

    /// A publication, an environment and defaults for a catalogue.
    static func context(for catalogue: SettingCatalogue, _ random: inout PropertyRandom) -> ReadingContext {
        var context = ReadingContext()
        context.layout = random.oneIn(4) ? .fixed : .reflowable
        context.languages = (0..<random.below(3)).map { _ in languageTag(&random) }
        context.readingProgression = random.pick(PublicationReadingProgression.allCases)
        context.environment = ReadingEnvironment(
            forceScroll: random.oneIn(4), appearance: random.oneIn(3) ? .dark : .light)
        if random.oneIn(2) { context.defaults = document(for: catalogue, &random, maxMembers: 4) }
        return context
    }

    /// Odd amounts for `adjustBy`: fractions that do not add up in binary, tiny and huge ones.
    static let oddAmounts: [Double] = [
        0.1, -0.1, 0.3, -0.7, 0.05, 1.25, -3, 7, 0.123456789, 1e-9, -1e-12, 1e308, -1e308, 0, 2.5e-5,
    ]

    /// An edit sequence: every operation, on known keys mostly, with awkward values.
    static func edits(for catalogue: SettingCatalogue, _ random: inout PropertyRandom, maxCount: Int = 5)
        -> [PreferenceEdit]
    {
        (0..<random.below(maxCount + 1)).map { _ in edit(for: catalogue, &random) }
    }

    static func edit(for catalogue: SettingCatalogue, _ random: inout PropertyRandom) -> PreferenceEdit {
        let descriptor = random.pick(catalogue.descriptors)
        let key = random.oneIn(10) ? random.pick(["zz", "$version", "", "FontSize"]) : descriptor.key
        let value = random.oneIn(3) ? Gen.value(&random, depth: 1) : knownValue(for: descriptor, &random)
        switch random.below(12) {
        case 0, 1: return .set(key: key, value: value, activate: !random.oneIn(4))
        case 2: return .set(key: key, value: nil)
        case 3: return .clear(key: key)
        case 4: return random.oneIn(3) ? .clearAll : .toggle(key: key)
        case 5, 6: return .toggleValue(key: key, value: value)
        case 7: return .increment(key: key)
        case 8: return .decrement(key: key)
        case 9: return .adjustBy(key: key, amount: random.pick(oddAmounts))
        default: return .activate(key: key)
        }
    }
}
