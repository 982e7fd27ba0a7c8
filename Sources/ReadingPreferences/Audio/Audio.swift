/// The audiobook navigator's settings: volume and speed, both always effective (Specs/Resolution.md §8).
///
/// ```swift
/// var editor = Audio.Editor(resolver: Audio.Resolver())
/// try editor.increment(.speed)      // 1.0 → 1.1
/// editor[.speed].formattedValue()   // "110%"
/// ```
public enum Audio: SettingsSchema {
    /// `audio`: the configurable's name in files and tools (written out, not read from the type's
    /// name at run time).
    public static let identifier = "audio"

    /// Audio resolves every setting to its preference, default or fallback.
    public typealias Resolver = StandardResolver<Audio>
    /// The editor of audio preferences.
    public typealias Editor = PreferencesEditor<Audio>
    /// Resolved audio settings.
    public typealias Settings = ResolvedSettings<Audio>
    /// App defaults for audio.
    public typealias Defaults = SettingValueTable<Audio>
    /// A headless audio navigator.
    public typealias Navigator = HeadlessConfigurable<Audio>

    /// The playback volume, from silent (0) to full (1).
    public static let volume = Setting<Audio, Double>.percent("volume", title: "Volume") {
        $0.fallback = .number(1.0)
    }

    /// The playback speed, as a multiple of normal speed.
    public static let speed = Setting<Audio, Double>.range(
        "speed", title: "Speed", range: 0.1...6.0, increment: 0.1, format: .percent
    ) {
        $0.fallback = .number(1.0)
    }

    /// The audio settings, in slot order.
    public static let catalogue = SettingCatalogue(
        [volume.descriptor, speed.descriptor],
        groups: [.init(id: "playback", title: "Playback", keys: ["volume", "speed"])])
}

// Leading-dot access for editor calls: `editor.increment(.speed)`.
extension Setting where Owner == Audio {
    /// ``Audio/volume``.
    public static var volume: Setting<Audio, Double> { Audio.volume }
    /// ``Audio/speed``.
    public static var speed: Setting<Audio, Double> { Audio.speed }
}
