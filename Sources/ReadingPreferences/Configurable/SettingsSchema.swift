/// A kind of configurable: its catalogue of settings and how they resolve.
///
/// The package's schemas are ``EPUB``, ``PDF``, ``Audio`` and ``TTS``; an app declares its own for
/// its feature settings. A schema is usually a caseless `enum` used as a namespace, and the
/// `Owner` of its ``Setting``s.
///
/// ```swift
/// enum Labs: SettingsSchema {
///     typealias Resolver = FeatureResolver<Labs>
///     static let compact = Setting<Labs, Bool>.toggle("compact", title: "Compact layout")
///     static let catalogue = SettingCatalogue([compact.descriptor])
/// }
/// ```
public protocol SettingsSchema: Sendable {
    /// The resolver type, which holds the defaults, the publication and the environment.
    associatedtype Resolver: SettingsResolver where Resolver.Schema == Self

    /// What resolution derives besides the setting values (EPUB: the stylesheet variant);
    /// ``NoDerivedSettings`` unless the schema says otherwise.
    associatedtype Derived: DerivedSettings = NoDerivedSettings

    /// The settings, in slot order.
    static var catalogue: SettingCatalogue { get }

    /// A short identifier, such as `epub` (by default the type's name in lower case).
    static var identifier: String { get }
}

extension SettingsSchema {
    /// The type's name in lower case.
    public static var identifier: String { String(describing: Self.self).lowercased() }
}
