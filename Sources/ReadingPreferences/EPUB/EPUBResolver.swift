extension EPUB {
    /// Resolves EPUB preferences against app defaults, the publication and the environment
    /// (Specs/Resolution.md §4).
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
        public var publication: PublicationContext
        /// The app defaults (keys defaults may not set are ignored).
        public var defaults: Defaults
        /// The device environment.
        public var environment: ReadingEnvironment
        /// The font families available for this publication, or `nil` for any (Specs/Resolution.md §5). A
        /// stored family outside the list is kept, resolves to none, and is not effective.
        public var availableFontFamilies: [FontFamily]?

        /// Creates a resolver.
        ///
        /// - Parameters:
        ///   - publication: The publication context.
        ///   - defaults: The app defaults.
        ///   - environment: The device environment.
        ///   - availableFontFamilies: The families available for the publication, or `nil` for any.
        public init(
            publication: PublicationContext = PublicationContext(), defaults: Defaults = Defaults(),
            environment: ReadingEnvironment = ReadingEnvironment(), availableFontFamilies: [FontFamily]? = nil
        ) {
            self.publication = publication
            self.defaults = defaults
            self.environment = environment
            self.availableFontFamilies = availableFontFamilies
        }

        /// Resolves preference values into settings, in place (Specs/Resolution.md §4, steps 1 to 8).
        ///
        /// - Parameters:
        ///   - preferences: The decoded, validated preferences.
        ///   - settings: The settings to overwrite.
        public func resolve(
            _ preferences: SettingValueTable<EPUB>, into settings: inout ResolvedSettings<EPUB>
        ) {
            // Step 6 for every setting, then the rules of the other steps override.
            EPUB.catalogue.storage.resolveEach(
                preferences.storage, defaults.storage, into: &settings.values.storage)
            applyRules(RulePreferences(preferences.storage), to: &settings)
        }

        /// Decodes and resolves preferences into new settings (Specs/Resolution.md §4).
        ///
        /// The same settings as resolving `SettingValueTable(preferences)`, made in one table:
        /// the preferences are decoded straight over the fallbacks and defaults, then the rules
        /// apply.
        ///
        /// ```swift
        /// let settings = EPUB.Resolver(publication: context).resolve(preferences)
        /// settings[.fontSize]   // 1.2
        /// ```
        ///
        /// - Parameter preferences: The stored preferences.
        /// - Returns: The resolved settings.
        public func resolve(_ preferences: Preferences) -> ResolvedSettings<EPUB> {
            var settings = ResolvedSettings<EPUB>()
            let catalogue = EPUB.catalogue.storage
            // The mask of set slots covers 64 slots; a larger catalogue decodes a table first.
            guard catalogue.descriptors.count <= SlotStorage.maskedSlots else {
                resolve(SettingValueTable(preferences), into: &settings)
                return settings
            }
            catalogue.resolveEach(catalogue.empty, defaults.storage, into: &settings.values.storage)
            let stored = catalogue.overlay(preferences, onto: &settings.values.storage)
            applyRules(RulePreferences(settings.values.storage, storedSlots: stored), to: &settings)
            return settings
        }

        /// The preferences the rules of Specs/Resolution.md §4 read.
        private struct RulePreferences {
            var language: SettingValue?
            var readingProgression: SettingValue?
            var verticalText: SettingValue?
            var theme: SettingValue?

            /// Read from decoded preferences.
            init(_ preferences: SlotStorage) {
                let slots = EPUB.slots
                language = preferences[slots.language]
                readingProgression = preferences[slots.readingProgression]
                verticalText = preferences[slots.verticalText]
                theme = preferences[slots.theme]
            }

            /// Read from values the preferences were decoded over: a slot is a preference when
            /// its bit is in `storedSlots`.
            init(_ values: SlotStorage, storedSlots: UInt64) {
                let slots = EPUB.slots
                func stored(_ slot: Int) -> SettingValue? {
                    slot >= 0 && slot < 64 && storedSlots & (1 << UInt64(slot)) != 0 ? values[slot] : nil
                }
                language = stored(slots.language)
                readingProgression = stored(slots.readingProgression)
                verticalText = stored(slots.verticalText)
                theme = stored(slots.theme)
            }
        }

        /// Specs/Resolution.md §4 steps 1 to 5, 7 and the font rule, over settings that hold step 6's values.
        private func applyRules(_ prefs: RulePreferences, to settings: inout ResolvedSettings<EPUB>) {
            let slots = EPUB.slots
            let defaults = defaults.storage
            settings.layout = publication.layout

            // Step 1: language. A publication's tag was classified when it was made.
            let language: SettingValue?
            let isCJK: Bool
            if let preferred = prefs.language
                ?? (publication.language == nil ? defaults[slots.language] : nil)
            {
                language = preferred
                isCJK = preferred.stringValue.map { LanguageTag(code: $0).isCJK } ?? false
            } else if let tag = publication.language {
                language = .string(tag.code)
                isCJK = tag.isCJK
            } else {
                language = nil
                isCJK = false
            }

            // Step 2: reading progression.
            let isRTL = resolveReadingProgression(prefs, defaults) == .rtl

            // Step 3: vertical text.
            let verticalText = prefs.verticalText?.boolValue ?? (isCJK && isRTL)

            // Step 4: scroll is forced by vertical text or the environment. The derived flag is the
            // environment's alone: scroll's "no forceScroll" condition, while vertical text is a
            // condition of its own with its own reason (RP-0011).
            let isScrollForced = verticalText || environment.forceScroll
            settings.derived.isScrollForced = environment.forceScroll
            settings.derived.readiumCSS = environment.readiumCSS

            // Step 5: stylesheet variant.
            settings.derived.stylesheets =
                verticalText ? .cjkVertical : isCJK ? .cjkHorizontal : isRTL ? .rtl : .default

            settings.values.storage[slots.language] = language
            settings.values.storage[slots.readingProgression] = .string(isRTL ? "rtl" : "ltr")
            settings.values.storage[slots.verticalText] = .bool(verticalText)
            if isScrollForced { settings.values.storage[slots.scroll] = .bool(true) }
            // Step 7: theme follows the system appearance when unset.
            if prefs.theme == nil {
                settings.values.storage[slots.theme] =
                    environment.appearance == .dark
                    ? .string(Theme.dark.rawValue) : (defaults[slots.theme] ?? .string(Theme.light.rawValue))
            }
            // Specs/Resolution.md §5: a family not available for the publication resolves to none.
            if availableFontFamilies != nil, let family = settings.values.storage[slots.fontFamily],
                !isAvailableFamily(family)
            {
                settings.values.storage[slots.fontFamily] = nil
            }
        }

        /// Re-resolves one edited slot. Settings that only fall back (Specs/Resolution.md §4 step 6) depend on
        /// nothing else, so only their own slot changes; the rest resolve in full.
        ///
        /// - Parameters:
        ///   - slot: The slot whose preference changed.
        ///   - preferences: The decoded, validated preferences.
        ///   - settings: The settings resolved before the change, to update.
        public func resolve(
            changedSlot slot: Int, _ preferences: SettingValueTable<EPUB>,
            into settings: inout ResolvedSettings<EPUB>
        ) {
            // Every EPUB slot is below 64, so the mask holds every rule slot.
            let byRule = slot < 0 || slot >= 64 || EPUB.slotsResolvedByRule & (1 << UInt64(slot)) != 0
            guard !byRule, settings.layout == publication.layout else {
                resolve(preferences, into: &settings)
                return
            }
            StandardResolver<EPUB>.resolveSlot(slot, preferences, defaults: defaults, into: &settings.values)
        }

        // Specs/Resolution.md §4 step 2, in order.
        private func resolveReadingProgression(_ prefs: RulePreferences, _ defaults: SlotStorage)
            -> ReadingProgression
        {
            let slots = EPUB.slots
            if let value = prefs.readingProgression?.stringValue.flatMap(ReadingProgression.init(rawValue:)) {
                return value
            }
            if let language = prefs.language?.stringValue {
                return LanguageTag(code: language).isRightToLeft ? .rtl : .ltr
            }
            switch publication.readingProgression {
            case .ltr: return .ltr
            case .rtl: return .rtl
            case .auto: break
            }
            if let language = publication.language {
                return language.isRightToLeft ? .rtl : .ltr
            }
            if let value = defaults[slots.readingProgression]?.stringValue.flatMap(
                ReadingProgression.init(rawValue:))
            {
                return value
            }
            if let language = defaults[slots.language]?.stringValue {
                return LanguageTag(code: language).isRightToLeft ? .rtl : .ltr
            }
            return .ltr
        }

        /// The editor's effective value where a setting resolves to none (Specs/Resolution.md §5): the rules
        /// that depend on other settings here, the constants in the descriptors.
        ///
        /// - Parameters:
        ///   - slot: The slot.
        ///   - settings: The resolved settings.
        /// - Returns: The effective value, or `nil` when there is none.
        public func effectiveValue(ofSlot slot: Int, in settings: ResolvedSettings<EPUB>) -> SettingValue? {
            let values = settings.values.storage
            if let value = values[slot] { return value }
            let slots = EPUB.slots
            switch slot {
            case slots.hyphens:
                return .bool(values[slots.textAlign]?.stringValue == TextAlign.justify.rawValue)
            case slots.backgroundColor: return .color(theme(in: values).backgroundColor)
            case slots.textColor: return .color(theme(in: values).textColor)
            default: return EPUB.catalogue.descriptor(atSlot: slot)?.effectiveValueWhenNone
            }
        }

        private func theme(in values: SlotStorage) -> Theme {
            values[EPUB.slots.theme]?.stringValue.flatMap(Theme.init(rawValue:)) ?? .light
        }

        /// Scroll is forced by vertical text or the environment (Specs/Resolution.md §4 step 4): `forcedScroll`.
        ///
        /// - Parameters:
        ///   - slot: The slot of the setting whose value is required.
        ///   - settings: The resolved settings.
        /// - Returns: ``IneffectiveReason/forcedScroll`` for a forced scroll, else `nil`.
        public func forcedReason(ofSlot slot: Int, in settings: ResolvedSettings<EPUB>) -> IneffectiveReason?
        {
            guard slot == EPUB.slots.scroll else { return nil }
            let verticalText = settings.values.storage[EPUB.slots.verticalText]?.boolValue == true
            return verticalText || settings.isScrollForced ? .forcedScroll : nil
        }

        /// Where the effective value of a slot comes from (Specs/Resolution.md §4, Specs/Store.md §2.2): the rules of steps 1 to 5
        /// and 7, the theme's colors, and preference ?? default ?? fallback for the rest.
        ///
        /// - Parameters:
        ///   - slot: The slot.
        ///   - preferences: The decoded, validated preferences.
        ///   - settings: The resolved settings.
        /// - Returns: The origin.
        public func origin(
            ofSlot slot: Int, preferences: SettingValueTable<EPUB>, settings: ResolvedSettings<EPUB>
        ) -> SettingOrigin {
            let slots = EPUB.slots
            let prefs = preferences.storage
            let defaults = self.defaults.storage
            switch slot {
            case slots.language:
                if prefs[slot] != nil { return .preference }
                if publication.language != nil { return .publicationMetadata }
                return defaults[slot] != nil ? .appDefault : .fallback
            case slots.readingProgression:
                if prefs[slot] != nil { return .preference }
                if prefs[slots.language] != nil { return .derived(from: ["language"]) }
                if publication.readingProgression != .auto { return .publicationMetadata }
                if publication.language != nil { return .derived(from: ["language"]) }
                if defaults[slot] != nil { return .appDefault }
                return defaults[slots.language] != nil ? .derived(from: ["language"]) : .fallback
            case slots.verticalText:
                return prefs[slot] != nil ? .preference : .derived(from: ["language", "readingProgression"])
            case slots.scroll:
                if settings.values.storage[slots.verticalText]?.boolValue == true {
                    return .forced(by: "verticalText")
                }
                if environment.forceScroll { return .forced(by: "forceScroll") }
            case slots.theme:
                if prefs[slot] == nil && environment.appearance == .dark {
                    return .derived(from: ["appearance"])
                }
            case slots.backgroundColor, slots.textColor:
                if settings.values.storage[slot] == nil { return .derived(from: ["theme"]) }
            case slots.hyphens:
                if settings.values.storage[slot] == nil { return .derived(from: ["textAlign"]) }
            default:
                break
            }
            guard settings.values.storage[slot] != nil else { return .fallback }
            return .standard(ofSlot: slot, preferences: preferences, defaults: self.defaults)
        }

        /// The font families offered for the publication, when the app restricts them.
        ///
        /// - Parameters:
        ///   - slot: The slot.
        ///   - settings: The resolved settings.
        /// - Returns: The available families for `fontFamily`, the descriptor's values otherwise.
        public func supportedValues(ofSlot slot: Int, in settings: ResolvedSettings<EPUB>) -> [SettingValue]?
        {
            if slot == EPUB.slots.fontFamily { return availableFontFamilies?.map(\.settingValue) }
            return EPUB.catalogue.descriptor(atSlot: slot)?.supportedValues
        }

        /// Whether a stored font family is available for the publication.
        ///
        /// - Parameters:
        ///   - value: The stored value.
        ///   - slot: The slot.
        ///   - settings: The resolved settings.
        /// - Returns: `false` only for a font family outside ``availableFontFamilies``.
        public func isAvailable(_ value: SettingValue, ofSlot slot: Int, in settings: ResolvedSettings<EPUB>)
            -> Bool
        {
            slot != EPUB.slots.fontFamily || isAvailableFamily(value)
        }

        private func isAvailableFamily(_ value: SettingValue) -> Bool {
            guard let available = availableFontFamilies, let family = value.stringValue else { return true }
            return available.contains { $0.rawValue.isScalarEqual(to: family) }
        }
    }
}
