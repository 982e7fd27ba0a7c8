/// Something with settings that accepts submitted preferences (Specs/Resolution.md §1): an EPUB, PDF, audio or
/// TTS navigator, or an app's own feature set.
///
/// Reader back ends conform their navigators; ``HeadlessConfigurable`` is a ready-made value
/// type for servers and tests.
///
/// ```swift
/// extension MyEPUBNavigator: Configurable {
///     var resolver: EPUB.Resolver { EPUB.Resolver(publication: publicationContext) }
///     func submit(_ preferences: Preferences) { apply(resolver.resolve(preferences)) }
/// }
/// ```
public protocol Configurable {
    /// The schema of the settings.
    associatedtype Schema: SettingsSchema

    /// The resolver: app defaults, publication context and environment.
    var resolver: Schema.Resolver { get }

    /// The current settings.
    var settings: ResolvedSettings<Schema> { get }

    /// Submits preferences; the configurable recomputes its settings.
    mutating func submit(_ preferences: Preferences)
}

extension Configurable {
    /// An editor for preferences, resolving with this configurable's current state.
    public func editor(of preferences: Preferences) -> PreferencesEditor<Schema> {
        PreferencesEditor(preferences: preferences, resolver: resolver)
    }
}

/// A configurable with no user interface: the publication context, defaults and environment
/// (in its resolver), the submitted preferences and the settings they resolve to.
///
/// ```swift
/// var navigator = EPUB.Navigator(resolver: EPUB.Resolver(publication: context))
/// var editor = navigator.editor(of: navigator.preferences)
/// try editor.increment(.fontSize)
/// navigator.submit(editor.preferences)
/// navigator.settings[.fontSize]   // 1.1
/// ```
public struct HeadlessConfigurable<Schema: SettingsSchema>: Configurable, Sendable {
    /// The resolver; changing it recomputes the settings.
    public var resolver: Schema.Resolver {
        didSet { settings = resolver.resolve(preferences) }
    }
    /// The submitted preferences.
    public private(set) var preferences: Preferences
    /// The current settings.
    public private(set) var settings: ResolvedSettings<Schema>

    /// Creates a configurable with submitted preferences.
    public init(resolver: Schema.Resolver, preferences: Preferences = Preferences()) {
        self.resolver = resolver
        self.preferences = preferences
        self.settings = resolver.resolve(preferences)
    }

    /// Submits preferences and recomputes the settings.
    public mutating func submit(_ preferences: Preferences) {
        self.preferences = preferences
        settings = resolver.resolve(preferences)
    }
}
