import ReadingPreferences

/// One fuzz input: its bytes and the choices derived from them.
struct FuzzRun {
    let bytes: [UInt8]
    var random: FuzzRandom

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.random = FuzzRandom(bytes: bytes)
    }

    /// A font registry with a cycle and names that need quoting, for the CSS font stack.
    static let cssOptions = ReadiumCSSOptions(
        fonts: FontFamilyRegistry([
            .init(name: "Literata", alternates: ["Georgia", "serif"]),
            .init(name: "Georgia", alternates: ["Literata", "Times \"New\" Roman"]),
            .init(name: "Times \"New\" Roman", alternates: ["back\\slash"]),
        ]))

    /// Runs the input through everything: any JSON value, then every configurable.
    mutating func exerciseAll() {
        parseAnyValue()
        exercise(EPUB.self, resolver: epubResolver()) { editor in
            FuzzCheck.cleanCSS(editor.settings.readiumCSS(options: Self.cssOptions))
            FuzzCheck.cleanLanguage(editor.settings.pageLayout.language)
            // The fast paths answer as the general ones (RP-0027).
            let css = editor.settings.readiumCSS()
            FuzzCheck.require(
                css
                    == editor.settings.readiumCSS(
                        options: ReadiumCSSOptions(readingSystemProperties: ["--RS__x": "1"])
                    )
                    .filtering { $0 != "--RS__x" },
                "CSS without options is CSS with options, less the options' properties")
            FuzzCheck.require(css == ReadiumCSSProperties(css.properties), "CSS reads back from its style")
            var twoStep = EPUB.Settings()
            editor.resolver.resolve(SettingValueTable(editor.preferences), into: &twoStep)
            FuzzCheck.require(
                editor.resolver.resolve(editor.preferences) == twoStep,
                "resolving stored preferences in one table is resolving their decoded table")
        }
        exercise(PDF.self, resolver: pdfResolver())
        exercise(Audio.self, resolver: Audio.Resolver(defaults: defaults()))
        exercise(TTS.self, resolver: ttsResolver())
        exercise(FuzzLabs.self, resolver: FuzzLabs.resolver(defaults: defaults()))
    }

    /// Runs documents that set every key of every schema to every palette value, with many
    /// derived choices, so that every lazily built global exists before fuzzing.
    static func warmUp() {
        let keys =
            EPUB.catalogue.keys + PDF.catalogue.keys + Audio.catalogue.keys + TTS.catalogue.keys
            + FuzzLabs.catalogue.keys + keysOfNoSchema
        for (index, value) in values.enumerated() {
            var object = JSONObject()
            for key in keys { object[key] = value }
            object["duplicate"] = .null
            let text = JSONValue.object(object).jsonString()
            for variant in 0..<40 {
                var run = FuzzRun(bytes: Array((text + String(repeating: " ", count: variant + index)).utf8))
                run.exerciseAll()
            }
        }
        for text in [#"{"a":1,"a":2}"#, "[1,{\"b\":[true,null]}]", "\u{FEFF}{}", "{\"x\":\"\\ud800\"}"] {
            var run = FuzzRun(bytes: Array(text.utf8))
            run.exerciseAll()
        }
    }

    /// Parses the bytes as any JSON value, with a small depth limit too.
    mutating func parseAnyValue() {
        if let value = try? JSONValue(json: bytes) {
            let text = value.jsonString()
            FuzzCheck.require((try? JSONValue(json: text)) == value, "a parsed value re-parses from its text")
        }
        _ = try? JSONValue(json: bytes, options: JSONParsingOptions(maxDepth: 3, maxSize: 4096))
    }

    /// Decodes the bytes for a schema, applies a short edit sequence, resolves and reads every
    /// handle, the form, and what `extra` reads.
    mutating func exercise<Schema: SettingsSchema>(
        _ schema: Schema.Type, resolver: Schema.Resolver,
        extra: (PreferencesEditor<Schema>) -> Void = { _ in }
    ) {
        guard let decoded = try? Schema.catalogue.decode(json: bytes) else { return }
        let preferences = decoded.preferences
        FuzzCheck.roundTrips(preferences)
        var editor = PreferencesEditor<Schema>(preferences: preferences, resolver: resolver)
        read(editor)
        for edit in edits(for: Schema.catalogue, preferences: preferences) {
            let before = editor.preferences
            do throws(PreferenceError) {
                try editor.apply(edit)
            } catch {
                FuzzCheck.require(
                    FuzzCheck.identical(before, editor.preferences), "a rejected edit changes nothing")
            }
        }
        FuzzCheck.roundTrips(editor.preferences)
        read(editor)
        extra(editor)
    }

    /// Reads everything an app reads from an editor.
    private func read<Schema: SettingsSchema>(_ editor: PreferencesEditor<Schema>) {
        _ = editor.diagnostics
        for handle in editor.handles {
            _ = handle.value
            _ = handle.effectiveValue
            _ = handle.isEffective
            _ = handle.reasons.map(\.defaultText)
            _ = handle.supportedValues
            _ = handle.noneLabel
            _ = handle.formattedValue()
            _ = handle.accessibilityLabel()
        }
        // Numbers are the only labels the engine writes itself; strings are shown as stored.
        for row in editor.form().rows where row.effectiveValue?.numberValue != nil {
            FuzzCheck.cleanNumberLabel(row.formattedValue ?? "")
            FuzzCheck.cleanNumberLabel(row.accessibilityLabel ?? "")
        }
    }

    // MARK: Choices derived from the bytes

    private static let keysOfNoSchema = ["", "$version", "zz", "fontsize", "caf\u{E9}", "cafe\u{301}"]

    private static let values: [JSONValue] = [
        .null, true, false, 0, 1, 2, -1, 0.1, 0.35, 1.25, 4.9999, 300, 1e308, -1e308,
        .number(JSONNumber(text: "1e400") ?? JSONNumber(0)), .number(JSONNumber(text: "-0") ?? JSONNumber(0)),
        .number(JSONNumber(text: "123456789012345678901234567890") ?? JSONNumber(0)),
        "", "dark", "auto", "1", "2", "left", "right", "justify", "rtl", "ar", "zh_Hant", "#FFF", "#ff000080",
        "rebeccapurple", "Literata", "Times \"New\" Roman", 16_711_680, -16_777_216, [], ["a"], ["en": "v"],
    ]

    private static let amounts: [Double] = [
        0, 0.1, -0.1, 0.3, -0.7, 1.25, -3, 1e-300, 1e308, -1e308, .infinity, -.infinity, .nan,
    ]

    /// Up to five edits: keys of the schema, of the document and of nobody; values from a palette
    /// of awkward ones and from the document.
    private mutating func edits(for catalogue: SettingCatalogue, preferences: Preferences) -> [PreferenceEdit]
    {
        let keys = catalogue.keys + preferences.keys + Self.keysOfNoSchema
        let values = Self.values + preferences.members.map(\.value)
        var edits: [PreferenceEdit] = []
        for _ in 0..<random.below(6) {
            let key = random.below(4) == 0 ? random.pick(keys) : random.pick(catalogue.keys + ["zz"])
            switch random.below(9) {
            case 0: edits.append(.set(key: key, value: random.pick(values), activate: !random.oneIn(4)))
            case 1: edits.append(.clear(key: key))
            case 2: edits.append(random.oneIn(3) ? .clearAll : .toggle(key: key))
            case 3: edits.append(.toggleValue(key: key, value: random.pick(values)))
            case 4: edits.append(.increment(key: key))
            case 5: edits.append(.decrement(key: key))
            case 6: edits.append(.adjustBy(key: key, amount: random.pick(Self.amounts)))
            case 7: edits.append(.activate(key: key))
            default: edits.append(.set(key: key, value: nil))
            }
        }
        return edits
    }

    /// App defaults: half the time the document itself, read as defaults.
    mutating func defaults<Schema: SettingsSchema>() -> SettingValueTable<Schema> {
        guard random.oneIn(2), let preferences = try? Preferences(json: bytes) else {
            return SettingValueTable()
        }
        return SettingValueTable(preferences, asDefaults: true)
    }

    private static let languages: [String] = [
        "", "en", "ar", "ar-EG", "fa", "he", "ur", "zh", "zh-Hant", "zh-TW", "zh-Hant-TW", "zh-HK", "zh_Hans",
        "ja", "ja-JP", "ko", "sr-Arab", "en-Hani", "x", "-", "_", "en--US", "\u{301}", "ZH-hant",
    ]

    mutating func epubResolver() -> EPUB.Resolver {
        let languages = (0..<random.below(3)).map { _ in LanguageTag(code: random.pick(Self.languages)) }
        let publication = PublicationContext(
            layout: random.oneIn(4) ? .fixed : .reflowable, languages: languages,
            readingProgression: random.pick(PublicationReadingProgression.allCases))
        let environment = ReadingEnvironment(
            forceScroll: random.oneIn(4), appearance: random.pick(SystemAppearance.allCases),
            readiumCSS: random.pick(ReadiumCSSVersion.allCases))
        let fonts: [EPUB.FontFamily]? = random.oneIn(3) ? ["Literata", "Times \"New\" Roman"] : nil
        return EPUB.Resolver(
            publication: publication, defaults: defaults(), environment: environment,
            availableFontFamilies: fonts)
    }

    mutating func pdfResolver() -> PDF.Resolver {
        PDF.Resolver(
            readingProgression: random.pick(PublicationReadingProgression.allCases), defaults: defaults())
    }

    mutating func ttsResolver() -> TTS.Resolver {
        let language = random.oneIn(2) ? LanguageTag(code: random.pick(Self.languages)) : nil
        return TTS.Resolver(publicationLanguage: language, defaults: defaults())
    }
}

/// The laws a fuzz run checks; a broken one traps, which libFuzzer reports as a crash.
enum FuzzCheck {
    static func require(_ condition: Bool, _ law: StaticString) {
        if !condition { fatalError("law broken: \(law)") }
    }

    /// Same entries and same key order, keys compared by scalars.
    static func identical(_ lhs: Preferences, _ rhs: Preferences) -> Bool {
        lhs == rhs
            && lhs.keys.elementsEqual(rhs.keys) { Array($0.unicodeScalars) == Array($1.unicodeScalars) }
    }

    /// decode(encode(p)) == p, in the same order.
    static func roundTrips(_ preferences: Preferences) {
        let again = try? Preferences(json: preferences.jsonBytes())
        require(again.map { identical($0, preferences) } ?? false, "decode(encode(p)) == p, in order")
    }

    /// No NaN or infinity in a number's label.
    static func cleanNumberLabel(_ text: String) {
        let lower = text.lowercased()
        require(!lower.contains("nan") && !lower.contains("inf"), "labels never show NaN or infinities")
    }

    /// What reaches an HTML `lang` attribute is a well-formed tag (issue 11, finding 2).
    static func cleanLanguage(_ language: LanguageTag?) {
        require(language.map(\.isWellFormed) ?? true, "the page language is a well-formed tag")
        require(
            language?.code.utf8.allSatisfy {
                $0 == 0x2D || ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 >= 0x30 && $0 <= 0x39
            }
                ?? true, "the page language is letters, digits and hyphens")
    }

    /// No NaN or infinity, and balanced double quotes, in CSS.
    static func cleanCSS(_ css: ReadiumCSSProperties) {
        var quotes = 0
        var escaped = false
        for scalar in css.inlineStyle.unicodeScalars {
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                quotes += 1
            }
        }
        require(quotes % 2 == 0, "CSS quotes are balanced")
        // A stored value can never end a string or a declaration early (issue 11, finding 2).
        require(
            !css.inlineStyle.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
            "CSS holds no raw control character")
        // Every value but the font stack (names chosen by the user) is written by the engine.
        for property in css where property.name != "--USER__fontFamily" {
            let value = property.value.lowercased()
            require(!value.contains("nan") && !value.contains("inf"), "CSS never holds NaN or infinities")
        }
    }
}

extension ReadiumCSSProperties {
    /// The properties whose names pass `isIncluded`.
    func filtering(_ isIncluded: (String) -> Bool) -> ReadiumCSSProperties {
        ReadiumCSSProperties(properties.filter { isIncluded($0.name) })
    }
}
