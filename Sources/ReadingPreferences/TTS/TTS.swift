/// The text-to-speech engine's settings: language, pitch, speed and voices, all always
/// effective (Specs/Resolution.md §8). The language is specific to the publication.
///
/// ```swift
/// var editor = TTS.Editor(resolver: TTS.Resolver(publicationLanguage: "fr"))
/// try editor.set(.voices, ["fr": "com.apple.voice.Thomas"])
/// editor[.pitch].formattedValue()   // "1×"
/// ```
public enum TTS: SettingsSchema {
    /// `tts`: the configurable's name in files and tools (written out, not read from the type's
    /// name at run time).
    public static let identifier = "tts"

    /// The editor of TTS preferences.
    public typealias Editor = PreferencesEditor<TTS>
    /// Resolved TTS settings.
    public typealias Settings = ResolvedSettings<TTS>
    /// App defaults for TTS.
    public typealias Defaults = SettingValueTable<TTS>
    /// A headless TTS engine.
    public typealias Navigator = HeadlessConfigurable<TTS>

    /// The language to speak: preference ?? publication language ?? default.
    public static let language = Setting<TTS, LanguageTag>.value(
        "language", title: "Language", coder: .language
    ) {
        $0.scope = .publication
    }

    /// The voice pitch, as a multiple of normal.
    public static let pitch = Setting<TTS, Double>.range(
        "pitch", title: "Pitch", range: 0.1...4.0, increment: 0.1, format: .multiplier
    ) {
        $0.fallback = .number(1.0)
    }

    /// The speech rate, as a multiple of normal.
    public static let speed = Setting<TTS, Double>.range(
        "speed", title: "Speed", range: 0.1...6.0, increment: 0.1, format: .multiplier
    ) {
        $0.fallback = .number(1.0)
    }

    /// The voice identifier to use for each language tag. In a settings form it is a
    /// `custom("voices")` control: the app lists the voices its engine offers per language.
    public static let voices = Setting<TTS, [String: String]>.value(
        "voices", title: "Voices", coder: .stringMap
    ) {
        $0.fallback = .json(.object(JSONObject()))
        $0.customControl = "voices"
    }

    /// The TTS settings, in slot order.
    public static let catalogue = SettingCatalogue(
        [
            language.descriptor, pitch.descriptor, speed.descriptor, voices.descriptor,
        ], groups: [.init(id: "speech", title: "Speech", keys: ["speed", "pitch", "language", "voices"])])

    /// The slot of the one setting TTS resolves by a rule of its own, looked up by key.
    static let languageSlot = catalogue.slot(of: language) ?? -1

    /// Resolves TTS preferences (Specs/Resolution.md §8).
    public struct Resolver: SettingsResolver, Hashable {
        /// The schema.
        public typealias Schema = TTS

        /// The publication language, if known.
        public var publicationLanguage: LanguageTag?
        /// The app defaults.
        public var defaults: Defaults

        /// Creates a resolver.
        public init(publicationLanguage: LanguageTag? = nil, defaults: Defaults = Defaults()) {
            self.publicationLanguage = publicationLanguage
            self.defaults = defaults
        }

        /// Where the effective value of a slot comes from: the publication's language when no
        /// preference sets one; the rest is preference ?? default ?? fallback.
        ///
        /// - Parameters:
        ///   - slot: The slot.
        ///   - preferences: The decoded, validated preferences.
        ///   - settings: The resolved settings.
        /// - Returns: The origin.
        public func origin(
            ofSlot slot: Int, preferences: SettingValueTable<TTS>, settings: ResolvedSettings<TTS>
        ) -> SettingOrigin {
            if slot == TTS.languageSlot, preferences[slot: slot] == nil, publicationLanguage != nil {
                return .publicationMetadata
            }
            guard settings.values[slot: slot] != nil else { return .fallback }
            return .standard(ofSlot: slot, preferences: preferences, defaults: defaults)
        }

        /// Preference ?? default ?? fallback, and the language from the publication first.
        public func resolve(_ preferences: SettingValueTable<TTS>, into settings: inout ResolvedSettings<TTS>)
        {
            StandardResolver<TTS>.resolveEach(preferences, defaults: defaults, into: &settings.values)
            let slot = TTS.languageSlot
            settings.values.storage[slot] =
                preferences[slot: slot] ?? publicationLanguage.map { .string($0.code) }
                ?? defaults[slot: slot]
        }
    }
}

// Leading-dot access for editor calls: `editor.increment(.pitch)`.
extension Setting where Owner == TTS {
    /// ``TTS/language``.
    public static var language: Setting<TTS, LanguageTag> { TTS.language }
    /// ``TTS/pitch``.
    public static var pitch: Setting<TTS, Double> { TTS.pitch }
    /// ``TTS/speed``.
    public static var speed: Setting<TTS, Double> { TTS.speed }
    /// ``TTS/voices``.
    public static var voices: Setting<TTS, [String: String]> { TTS.voices }
}
