extension EPUB {
    /// Resolves EPUB preferences against app defaults, the publication and the environment
    /// (SPEC 5.3).
    ///
    /// ```swift
    /// var defaults = EPUB.Defaults()
    /// defaults[.pageMargins] = 1.5
    /// let resolver = EPUB.Resolver(publication: context, defaults: defaults)
    /// let settings = resolver.resolve(preferences)
    /// ```
    public struct Resolver: SettingsResolver {
        /// The schema.
        public typealias Schema = EPUB

        /// The publication context.
        public var publication: Publication
        /// The app defaults (keys defaults may not set are ignored).
        public var defaults: Defaults
        /// The device environment.
        public var environment: ReadingEnvironment
        /// The font families available for this publication, or `nil` for any (SPEC 5.4). A
        /// stored family outside the list is kept, resolves to none, and is not effective.
        public var availableFontFamilies: [FontFamily]?

        /// Creates a resolver.
        public init(
            publication: Publication = Publication(), defaults: Defaults = Defaults(),
            environment: ReadingEnvironment = ReadingEnvironment(), availableFontFamilies: [FontFamily]? = nil
        ) {
            self.publication = publication
            self.defaults = defaults
            self.environment = environment
            self.availableFontFamilies = availableFontFamilies
        }

        /// Resolves preference values into settings, in place (SPEC 5.3, steps 1 to 8).
        public func resolve(_ preferences: SettingValues<EPUB>, into settings: inout ResolvedSettings<EPUB>) {
            let prefs = preferences.storage
            let defaults = defaults.storage
            settings.layout = publication.layout
            settings.isScrollForced = environment.forceScroll

            settings.values.storage.withUnsafeMutableBufferPointer { out in
                // Step 6 for every setting, then the special rules override.
                let accepts = EPUB.acceptsDefault
                let fallbacks = EPUB.fallbacks
                for slot in out.indices {
                    out[slot] = prefs[slot] ?? (accepts[slot] ? defaults[slot] : nil) ?? fallbacks[slot]
                }

                // Step 1: language.
                let publicationLanguage = publication.language.map { SettingValue.string($0.code) }
                let language = prefs[Slot.language] ?? publicationLanguage ?? defaults[Slot.language]
                out[Slot.language] = language

                // Step 2: reading progression.
                out[Slot.readingProgression] = .string(resolveReadingProgression(prefs, defaults).rawValue)
                let isRTL = out[Slot.readingProgression]?.stringValue == ReadingProgression.rtl.rawValue

                // Step 3: vertical text.
                let isCJK = language?.stringValue.map { Language(code: $0).isCJK } ?? false
                let verticalText = prefs[Slot.verticalText]?.boolValue ?? (isCJK && isRTL)
                out[Slot.verticalText] = .bool(verticalText)

                // Step 4: scroll, forced by vertical text or the environment.
                if verticalText || environment.forceScroll { out[Slot.scroll] = .bool(true) }

                // Step 5: stylesheet variant.
                if verticalText {
                    settings.stylesheets = .cjkVertical
                } else if isCJK {
                    settings.stylesheets = .cjkHorizontal
                } else {
                    settings.stylesheets = isRTL ? .rtl : .default
                }

                // Step 7: theme follows the system appearance when unset.
                if prefs[Slot.theme] == nil {
                    out[Slot.theme] =
                        environment.appearance == .dark
                        ? .string(Theme.dark.rawValue)
                        : (defaults[Slot.theme] ?? .string(Theme.light.rawValue))
                }

                // SPEC 5.4: a family not available for the publication resolves to none.
                if let available = availableFontFamilies, let family = out[Slot.fontFamily]?.stringValue,
                    !available.contains(where: { $0.rawValue.isScalarEqual(to: family) })
                {
                    out[Slot.fontFamily] = nil
                }
            }
        }

        /// Re-resolves one edited slot. Settings that only fall back (SPEC 5.3 step 6) depend on
        /// nothing else, so only their own slot changes; the rest resolve in full.
        public func resolve(
            changedSlot slot: Int, _ preferences: SettingValues<EPUB>,
            into settings: inout ResolvedSettings<EPUB>
        ) {
            guard EPUB.independentSlots.indices.contains(slot), EPUB.independentSlots[slot],
                settings.layout == publication.layout, settings.isScrollForced == environment.forceScroll
            else {
                resolve(preferences, into: &settings)
                return
            }
            let value =
                preferences.storage[slot] ?? (EPUB.acceptsDefault[slot] ? defaults.storage[slot] : nil)
                ?? EPUB.fallbacks[slot]
            settings.values.storage[slot] = value
        }

        // SPEC 5.3 step 2, in order.
        private func resolveReadingProgression(
            _ prefs: SlotStorage, _ defaults: SlotStorage
        ) -> ReadingProgression {
            if let value = prefs[Slot.readingProgression]?.stringValue.flatMap(
                ReadingProgression.init(rawValue:))
            {
                return value
            }
            if let language = prefs[Slot.language]?.stringValue {
                return Language(code: language).isRightToLeft ? .rtl : .ltr
            }
            switch publication.readingProgression {
            case .ltr: return .ltr
            case .rtl: return .rtl
            case .auto: break
            }
            if let language = publication.language {
                return language.isRightToLeft ? .rtl : .ltr
            }
            if let value = defaults[Slot.readingProgression]?.stringValue.flatMap(
                ReadingProgression.init(rawValue:))
            {
                return value
            }
            if let language = defaults[Slot.language]?.stringValue {
                return Language(code: language).isRightToLeft ? .rtl : .ltr
            }
            return .ltr
        }

        /// The editor's effective value where a setting resolves to none (SPEC 5.4).
        public func effectiveValue(ofSlot slot: Int, in settings: ResolvedSettings<EPUB>) -> SettingValue? {
            let values = settings.values.storage
            guard values.indices.contains(slot) else { return nil }
            if let value = values[slot] { return value }
            switch slot {
            case Slot.fontWeight: return .number(1.0)
            case Slot.hyphens:
                return .bool(values[Slot.textAlign]?.stringValue == TextAlign.justify.rawValue)
            case Slot.letterSpacing, Slot.paragraphIndent, Slot.paragraphSpacing, Slot.wordSpacing:
                return .number(0.0)
            case Slot.ligatures, Slot.offsetFirstPage: return .bool(false)
            case Slot.lineHeight, Slot.typeScale: return .number(1.2)
            case Slot.textAlign: return .string(TextAlign.start.rawValue)
            case Slot.backgroundColor: return .color(theme(in: values).backgroundColor)
            case Slot.textColor: return .color(theme(in: values).textColor)
            default: return nil
            }
        }

        private func theme(in values: SlotStorage) -> Theme {
            values[Slot.theme]?.stringValue.flatMap(Theme.init(rawValue:)) ?? .light
        }

        /// The font families offered for the publication, when the app restricts them.
        public func supportedValues(ofSlot slot: Int, in settings: ResolvedSettings<EPUB>) -> [SettingValue]?
        {
            if slot == Slot.fontFamily { return availableFontFamilies?.map(\.settingValue) }
            return EPUB.catalogue.descriptors[slot].supportedValues
        }

        /// Whether a stored font family is available for the publication.
        public func isAvailable(_ value: SettingValue, ofSlot slot: Int, in settings: ResolvedSettings<EPUB>)
            -> Bool
        {
            guard slot == Slot.fontFamily, let available = availableFontFamilies,
                let family = value.stringValue
            else { return true }
            return available.contains { $0.rawValue.isScalarEqual(to: family) }
        }
    }

    /// The slots whose resolution is preference ?? default ?? fallback and that no other rule reads.
    static let independentSlots: [Bool] = {
        var independent = [Bool](repeating: true, count: catalogue.count)
        for slot in [
            Slot.language, Slot.readingProgression, Slot.verticalText, Slot.scroll, Slot.theme,
            Slot.fontFamily,
        ] {
            independent[slot] = false
        }
        return independent
    }()

    /// Whether app defaults may set each slot (SPEC 5.4).
    static let acceptsDefault: [Bool] = catalogue.descriptors.map(\.acceptsDefault)

    /// The fallback of each slot (SPEC 5.4), from the descriptors; `nil` is "none". Language,
    /// reading progression, vertical text and theme have their own rules.
    static let fallbacks: [SettingValue?] = catalogue.descriptors.map(\.fallback)
}
