import ReadingPreferences

/// Where a key that no layer holds yet goes when it is edited (Specs/Store.md §3.1): the store's
/// *scope policy*. A key already held by the base, the device class, the device or the
/// publication goes back to the highest of them; the policy decides only for the others.
///
/// The library ships two, chosen per device (``PreferencesStore/Device/setScopePolicy(_:)``):
/// ``Name/default`` (publication-specific keys to the publication, the rest to the base) and
/// ``Name/formFactor``, which also sends the keys whose right value depends on the screen
/// (`SettingCatalogue.screenKeys`) to the device class when the device has one. An app may
/// give its own, per key, in ``PreferencesStore/Options/scopePolicy``:
///
/// ```swift
/// var policy = ScopePolicy.formFactor(EPUB.catalogue)
/// policy.placements["theme"] = .device          // a theme per device, whatever the others do
/// let store = PreferencesStore<EPUB>(storage: storage, options: .init(scopePolicy: policy))
/// ```
///
/// A placement the device cannot honour falls back to the default rule: the class on a device
/// with no class, the book in an edit of no publication.
public struct ScopePolicy: Sendable, Hashable {
    /// The shipped policies, by the name a device keeps.
    public enum Name: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Today's rule: publication-specific keys to the publication, the rest to the base.
        case `default`
        /// The screen-dependent keys to the device class, the rest as the default.
        case formFactor

        /// `default` or `formFactor`.
        public var description: String { rawValue }
    }

    /// Where each key goes when no layer holds it, by the setting's key; a key not listed
    /// follows the default rule.
    public var placements: [String: EditTarget]

    /// A policy.
    ///
    /// - Parameter placements: Where each listed key goes.
    public init(placements: [String: EditTarget] = [:]) {
        self.placements = placements
    }

    /// The default policy: every key by the default rule.
    public static let `default` = ScopePolicy()

    /// The form-factor policy of a configurable: its screen-dependent keys to the device class.
    ///
    /// - Parameter catalogue: The configurable's catalogue, which names its screen keys.
    /// - Returns: The policy.
    public static func formFactor(_ catalogue: SettingCatalogue) -> ScopePolicy {
        ScopePolicy(
            placements: Dictionary(catalogue.screenKeys.map { ($0, .deviceClass) }) { first, _ in first })
    }

    /// A shipped policy of a configurable.
    ///
    /// - Parameters:
    ///   - name: Which one.
    ///   - catalogue: The configurable's catalogue.
    /// - Returns: The policy.
    public static func shipped(_ name: Name, catalogue: SettingCatalogue) -> ScopePolicy {
        switch name {
        case .default: return .default
        case .formFactor: return formFactor(catalogue)
        }
    }

    /// Where a key no layer holds goes.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - isPublicationSpecific: Whether the configurable's catalogue says the key is
    ///     publication-specific (Specs/Resolution.md §6).
    /// - Returns: The listed placement, else the default rule's: ``EditTarget/book`` for a
    ///   publication-specific key, ``EditTarget/base`` for the others.
    public func target(forKey key: String, isPublicationSpecific: Bool) -> EditTarget {
        placements[key] ?? (isPublicationSpecific ? .book : .base)
    }
}
