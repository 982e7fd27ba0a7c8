import Foundation

/// The immutable, untyped description of one setting key (Specs/Settings.md §1).
///
/// A descriptor's behaviour (coder, validator, activator, format) is data, so catalogues can be
/// compared with the `Specs/` files, inspected and encoded. Typed code uses ``Setting``, which
/// wraps a descriptor. Copying a descriptor is one reference-count operation.
public struct SettingDescriptor: Sendable, Hashable, Identifiable, CustomStringConvertible {
    final class Storage: Sendable {
        let key: String
        let kind: SettingKind
        let coder: SettingCoder
        let validator: SettingValidator
        let activator: SettingActivator
        let title: String?
        let summary: String?
        let isUserFacing: Bool
        let range: ClosedRange<Double>?
        let suggestedSteps: [Double]?
        let suggestedIncrement: Double?
        let supportedValues: [SettingValue]?
        let labels: [String: String]
        let format: SettingFormat
        let scope: SettingScope
        let renamedFrom: [String]
        let acceptsDefault: Bool
        let fallback: SettingValue?
        let effectiveValueWhenNone: SettingValue?
        let noneLabel: String?
        let group: String?
        let presentation: SettingPresentation
        let customControl: String?
        /// Whether the activator has an automatic requires-preference part, the only kind `set`
        /// activates (Specs/Settings.md §4); without one an edit never needs to check activation.
        let hasAutomaticRequirement: Bool

        init(_ spec: Specification) {
            key = spec.key
            kind = spec.kind
            coder = spec.coder
            validator = spec.validator
            activator = spec.activator
            title = spec.title
            summary = spec.summary
            isUserFacing = spec.isUserFacing ?? (spec.title != nil)
            range = spec.range
            suggestedSteps = spec.suggestedSteps
            suggestedIncrement = spec.suggestedIncrement
            supportedValues = spec.supportedValues
            labels = spec.labels
            format = spec.format
            scope = spec.scope
            renamedFrom = spec.renamedFrom
            acceptsDefault = spec.acceptsDefault
            fallback = spec.fallback
            effectiveValueWhenNone = spec.effectiveValueWhenNone
            noneLabel = spec.noneLabel
            group = spec.group
            presentation = spec.presentation
            customControl = spec.customControl
            hasAutomaticRequirement = spec.activator.parts.contains {
                if case .requiresPreference(_, _, automatic: true) = $0 { return true }
                return false
            }
        }
    }

    /// Everything a descriptor holds, as a mutable value to build one from.
    public struct Specification: Sendable, Hashable {
        /// The JSON key.
        public var key: String
        /// The kind (toggle, range, percent, enum, color, value).
        public var kind: SettingKind
        /// The JSON coder.
        public var coder: SettingCoder
        /// The validator.
        public var validator: SettingValidator = .identity
        /// The activator ("effective when").
        public var activator: SettingActivator = .none
        /// The title shown to people; settings without a title are hidden unless
        /// ``isUserFacing`` says otherwise.
        public var title: String?
        /// An optional longer description.
        public var summary: String?
        /// Whether the setting is shown to people; `nil` means "when it has a title".
        public var isUserFacing: Bool?
        /// The range of a range or percent setting.
        public var range: ClosedRange<Double>?
        /// Ascending suggested steps of a range setting.
        public var suggestedSteps: [Double]?
        /// The increment of a range setting without steps.
        public var suggestedIncrement: Double?
        /// The supported values of an enum or color setting; `nil` means open.
        public var supportedValues: [SettingValue]?
        /// Labels of enum values by raw value; missing ones are derived from the raw value.
        public var labels: [String: String] = [:]
        /// How values are formatted.
        public var format: SettingFormat = .plain
        /// Shared or publication-specific.
        public var scope: SettingScope = .shared
        /// Older keys whose stored values this setting takes over.
        public var renamedFrom: [String] = []
        /// Whether app defaults may set this key.
        public var acceptsDefault: Bool = true
        /// The value used when neither the preference nor a default supplies one; `nil` means
        /// none (the navigator applies nothing). Configurables may add rules of their own.
        public var fallback: SettingValue?
        /// What the navigator uses when the setting resolves to none, which an editor handle
        /// shows as its effective value (Specs/Resolution.md §5: line height 1.2, font weight 1.0...); `nil`
        /// when the handle shows none.
        public var effectiveValueWhenNone: SettingValue?
        /// For an optional picker, the label of its "none" entry, which clears the preference;
        /// `nil` when the picker has no such entry.
        public var noneLabel: String?
        /// The section of a settings form this setting belongs to.
        public var group: String?
        /// Whether a settings form shows the control inline or on a detail screen.
        public var presentation: SettingPresentation = .inline
        /// The identifier of a control the app renders itself, overriding the kind's control.
        public var customControl: String?

        /// Creates a specification with the required members; set the others as needed.
        public init(key: String, kind: SettingKind, coder: SettingCoder) {
            self.key = key
            self.kind = kind
            self.coder = coder
        }
    }

    let storage: Storage

    /// Creates a descriptor from a specification.
    public init(_ specification: Specification) {
        storage = Storage(specification)
    }

    /// The JSON key, which is also the identity of the descriptor.
    public var key: String { storage.key }
    /// The key.
    public var id: String { storage.key }
    /// The kind.
    public var kind: SettingKind { storage.kind }
    /// The JSON coder (Specs/Settings.md §2).
    public var coder: SettingCoder { storage.coder }
    /// The validator (Specs/Settings.md §3).
    public var validator: SettingValidator { storage.validator }
    /// The activator (Specs/Settings.md §4).
    public var activator: SettingActivator { storage.activator }
    /// The title, or `nil` for a hidden setting.
    public var title: String? { storage.title }
    /// The optional description.
    public var summary: String? { storage.summary }
    /// Whether the setting is shown to people.
    public var isUserFacing: Bool { storage.isUserFacing }
    /// The range of a range or percent setting.
    public var range: ClosedRange<Double>? { storage.range }
    /// Ascending suggested steps.
    public var suggestedSteps: [Double]? { storage.suggestedSteps }
    /// The increment used without steps; defaults to 1 for integers and 0.1 for doubles.
    public var suggestedIncrement: Double? { storage.suggestedIncrement }
    /// The supported values, or `nil` when open.
    public var supportedValues: [SettingValue]? { storage.supportedValues }
    /// The format of values.
    public var format: SettingFormat { storage.format }
    /// Shared or publication-specific.
    public var scope: SettingScope { storage.scope }
    /// Older keys whose stored values this setting takes over.
    public var renamedFrom: [String] { storage.renamedFrom }
    /// Whether app defaults may set this key.
    public var acceptsDefault: Bool { storage.acceptsDefault }
    /// The fallback value, or `nil` for none.
    public var fallback: SettingValue? { storage.fallback }
    /// What the navigator uses when the setting resolves to none (Specs/Resolution.md §5), or `nil`.
    public var effectiveValueWhenNone: SettingValue? { storage.effectiveValueWhenNone }
    /// The label of an optional picker's "none" entry, or `nil` when it has none.
    public var noneLabel: String? { storage.noneLabel }
    /// The settings-form section.
    public var group: String? { storage.group }
    /// Inline or detail presentation in a settings form.
    public var presentation: SettingPresentation { storage.presentation }
    /// The identifier of an app-rendered control.
    public var customControl: String? { storage.customControl }

    /// Every key a value of this setting may be stored under: its key, then its `renamedFrom`
    /// aliases in order (Specs/Resolution.md §9.2).
    public var storedKeys: [String] { [storage.key] + storage.renamedFrom }

    /// Decodes stored JSON with the coder, then validates it (Specs/Settings.md §2, §3): the one
    /// decode-then-validate of the package. Returns the decoded value and the valid (possibly
    /// coerced) one.
    func decodeAndValidate(_ json: JSONValue) -> Result<
        (decoded: SettingValue, valid: SettingValue), ValueFailure
    > {
        switch storage.coder.decode(json) {
        case .failure(let failure): return .failure(failure)
        case .success(let decoded):
            switch storage.validator.validate(decoded) {
            case .failure(let failure): return .failure(failure)
            case .success(let valid): return .success((decoded, valid))
            }
        }
    }

    /// Accepts a value supplied by code with the coder, then validates it (Specs/Settings.md §5 `set`).
    func acceptAndValidate(_ value: SettingValue) -> Result<SettingValue, ValueFailure> {
        storage.coder.accept(value).flatMap(storage.validator.validate)
    }

    /// The valid value of stored JSON, or `nil` when it does not decode or is rejected.
    func validValue(of json: JSONValue) -> SettingValue? {
        guard case .success(let value) = decodeAndValidate(json) else { return nil }
        return value.valid
    }

    /// The increment actually used by `increment` and `decrement` when there are no steps.
    var effectiveIncrement: Double {
        if let increment = storage.suggestedIncrement { return increment }
        if case .integer = storage.coder { return 1 }
        return 0.1
    }

    /// Formats a value for display (Specs/Settings.md §7).
    public func format(_ value: SettingValue, locale: Locale? = nil) -> String {
        if storage.kind == .enumeration, case .string(let raw) = value { return label(raw) }
        return storage.format.format(value, locale: locale)
    }

    /// A label for assistive technologies ("120 percent", "1.5 times").
    public func accessibilityLabel(_ value: SettingValue, locale: Locale? = nil) -> String {
        if storage.kind == .enumeration, case .string(let raw) = value { return label(raw) }
        return storage.format.accessibilityLabel(value, locale: locale)
    }

    /// The label of an enumeration value: the declared label, or the raw value with its first
    /// letter capitalized ("justify" → "Justify").
    public func label(_ rawValue: String) -> String {
        if let label = storage.labels[rawValue] { return label }
        guard let first = rawValue.first else { return rawValue }
        return first.uppercased() + rawValue.dropFirst()
    }

    /// A descriptor equals another when every property is equal.
    public static func == (lhs: SettingDescriptor, rhs: SettingDescriptor) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.specification == rhs.specification
    }

    /// Hashes the key; equal descriptors have equal keys.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.key)
    }

    /// The specification this descriptor was built from.
    public var specification: Specification {
        var spec = Specification(key: key, kind: kind, coder: coder)
        spec.validator = validator
        spec.activator = activator
        spec.title = title
        spec.summary = summary
        spec.isUserFacing = isUserFacing
        spec.range = range
        spec.suggestedSteps = suggestedSteps
        spec.suggestedIncrement = suggestedIncrement
        spec.supportedValues = supportedValues
        spec.labels = storage.labels
        spec.format = format
        spec.scope = scope
        spec.renamedFrom = renamedFrom
        spec.acceptsDefault = acceptsDefault
        spec.fallback = fallback
        spec.effectiveValueWhenNone = effectiveValueWhenNone
        spec.noneLabel = noneLabel
        spec.group = group
        spec.presentation = presentation
        spec.customControl = customControl
        return spec
    }

    /// `kind key`, for debugging.
    public var description: String { "\(kind.rawValue) \(key)" }
}
