/// An app-defined feature: a toggle whose options only take effect while it is on (Specs/Resolution.md §9.1), as
/// Delta's experimental features.
///
/// Declare a feature and its options as static members of your schema; keys are the strings you
/// write (never derived from property names), and an option's key is `<feature>.<option>`:
///
/// ```swift
/// enum Labs: SettingsSchema {
///     typealias Resolver = FeatureResolver<Labs>
///
///     static let sidebar = Feature<Labs>("sidebar", title: "Sidebar")
///     static let width = sidebar.range("width", title: "Width", range: 200...400, increment: 20, fallback: 280)
///     static let edge = sidebar.picker(
///         "edge", title: "Edge", values: ["leading", "trailing"], fallback: nil, noneLabel: "Automatic")
///     static let pinned = sidebar.toggle("pinned")  // no title: hidden from settings forms
///
///     static let catalogue = SettingCatalogue(features: [sidebar], options: [width, edge, pinned])
/// }
/// ```
///
/// While `sidebar` is off, its options are not effective and report
/// `requiresPreference(sidebar, true)`; `editor.activate(Labs.width)` turns the feature on, and
/// `editor[Labs.sidebar]`, `editor.toggle(Labs.sidebar)` and `settings[Labs.sidebar]` read and
/// edit the feature itself. See <doc:AppFeatures>.
public struct Feature<Owner: SettingsSchema>: Sendable, Hashable {
    /// The feature's own toggle.
    public let setting: Setting<Owner, Bool>

    /// Declares a feature.
    ///
    /// - Parameters:
    ///   - key: The JSON key of the feature toggle.
    ///   - title: The title shown to people; a feature without one is hidden.
    ///   - summary: An optional description.
    ///   - isEnabledByDefault: The toggle's fallback.
    ///   - renamedFrom: Older keys whose stored value the toggle takes over.
    public init(
        _ key: String, title: String? = nil, summary: String? = nil, isEnabledByDefault: Bool = false,
        renamedFrom: [String] = []
    ) {
        setting = .toggle(key, title: title) {
            $0.summary = summary
            $0.fallback = .bool(isEnabledByDefault)
            $0.group = key
            $0.renamedFrom = renamedFrom
        }
    }

    /// The feature toggle's key.
    public var key: String { setting.key }

    /// The activator every option gets: the feature must be on (a manual requirement, so
    /// setting an option never turns the feature on by itself).
    public var requirement: SettingActivator {
        .requiresPreference(key: setting.key, value: .bool(true), automatic: false)
    }

    /// Declares an option of any kind: its key is `<feature>.<name>` unless `key` is given, its
    /// activator requires the feature, and `configure` sets the rest.
    public func option<Value>(
        _ name: String, key: String? = nil, kind: SettingKind, coder: SettingCoder,
        _ configure: (inout SettingDescriptor.Specification) -> Void = { _ in }
    ) -> Setting<Owner, Value> {
        Setting(key: optionKey(name, key), kind: kind, coder: coder) {
            makeOption(&$0)
            configure(&$0)
        }
    }

    private func optionKey(_ name: String, _ key: String?) -> String {
        key ?? "\(setting.key).\(name)"
    }

    /// What makes a descriptor an option of this feature: it requires the feature and sits in
    /// its section.
    private func makeOption(_ spec: inout SettingDescriptor.Specification) {
        spec.activator = .allOf([requirement])
        spec.group = setting.key
    }

    /// A toggle option.
    public func toggle(
        _ name: String, key: String? = nil, title: String? = nil, fallback: Bool = false,
        renamedFrom: [String] = []
    ) -> Setting<Owner, Bool> {
        .toggle(optionKey(name, key), title: title) {
            makeOption(&$0)
            $0.fallback = .bool(fallback)
            $0.renamedFrom = renamedFrom
        }
    }

    /// A number option in a range, with an increment or steps.
    public func range(
        _ name: String, key: String? = nil, title: String? = nil, range: ClosedRange<Double>,
        increment: Double? = nil, steps: [Double]? = nil, format: SettingFormat = .decimal, fallback: Double,
        renamedFrom: [String] = []
    ) -> Setting<Owner, Double> {
        .range(
            optionKey(name, key), title: title, range: range, increment: increment, steps: steps,
            format: format
        ) {
            makeOption(&$0)
            $0.fallback = .number(fallback)
            $0.renamedFrom = renamedFrom
        }
    }

    /// A picker of strings. With `noneLabel`, the picker is optional: it offers a "none" entry
    /// with that label, which clears the preference, and `fallback` may be `nil`.
    ///
    /// Give `values: nil` for a picker whose values the resolver computes from other
    /// preferences (``FeatureResolver/dynamicValues``); any non-empty string is then accepted.
    public func picker(
        _ name: String, key: String? = nil, title: String? = nil, values: [String]?, fallback: String?,
        noneLabel: String? = nil, labels: [String: String] = [:], presentation: SettingPresentation = .inline,
        renamedFrom: [String] = []
    ) -> Setting<Owner, String> {
        let choices = values?.map(SettingValue.string)
        return option(
            name, key: key, kind: .enumeration, coder: values.map(SettingCoder.enumeration) ?? .string
        ) {
            $0.title = title
            $0.supportedValues = choices
            if let choices { $0.validator = .allowlist(choices) }
            $0.fallback = fallback.map(SettingValue.string)
            $0.noneLabel = noneLabel
            $0.labels = labels
            $0.presentation = presentation
            $0.renamedFrom = renamedFrom
        }
    }

    /// A picker of an enumeration's cases (all of them unless narrowed).
    public func picker<Value: SettingEnumeration>(
        _ name: String, key: String? = nil, title: String? = nil, values: [Value] = Array(Value.allCases),
        fallback: Value?, noneLabel: String? = nil, presentation: SettingPresentation = .inline,
        renamedFrom: [String] = []
    ) -> Setting<Owner, Value> {
        .enumeration(optionKey(name, key), title: title, supported: values) {
            makeOption(&$0)
            $0.fallback = fallback?.settingValue
            $0.noneLabel = noneLabel
            $0.presentation = presentation
            $0.renamedFrom = renamedFrom
        }
    }

    /// A free-text option.
    public func text(
        _ name: String, key: String? = nil, title: String? = nil, fallback: String? = nil,
        renamedFrom: [String] = []
    ) -> Setting<Owner, String> {
        option(name, key: key, kind: .value, coder: .string) {
            $0.title = title
            $0.fallback = fallback.map(SettingValue.string)
            $0.renamedFrom = renamedFrom
        }
    }
}

extension SettingCatalogue {
    /// A catalogue of features and their options: each feature's toggle followed by its options,
    /// in the order given (options are matched to features by their `group`).
    public init<Owner>(features: [Feature<Owner>], options: [any SettingDescribing]) {
        var descriptors: [SettingDescriptor] = []
        let optionDescriptors = options.map(\.descriptor)
        for feature in features {
            descriptors.append(feature.setting.descriptor)
            descriptors.append(contentsOf: optionDescriptors.filter { $0.group == feature.key })
        }
        descriptors.append(
            contentsOf: optionDescriptors.filter { option in
                !features.contains { $0.key == option.group }
            })
        self.init(descriptors)
    }
}

/// Anything that describes a setting: a typed ``Setting`` or a ``SettingDescriptor``.
public protocol SettingDescribing: Sendable {
    /// The untyped descriptor.
    var descriptor: SettingDescriptor { get }
}

extension Setting: SettingDescribing {}

extension SettingDescriptor: SettingDescribing {
    /// Itself.
    public var descriptor: SettingDescriptor { self }
}
