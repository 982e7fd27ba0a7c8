import Foundation

/// A typed setting descriptor: the descriptor of one key of the configurable `Owner`, whose
/// values are `Value`s (Specs/Settings.md §1).
///
/// Catalogues declare their settings as static members, so an editor call reads
/// `editor.increment(.fontSize)`:
///
/// ```swift
/// extension Setting where Owner == MyFeatures {
///     static var compactMode: Setting<MyFeatures, Bool> { MyFeatures.compactMode }
/// }
/// ```
public struct Setting<Owner: SettingsSchema, Value: SettingValueConvertible>: Sendable, Hashable,
    Identifiable,
    CustomStringConvertible
{
    /// The untyped descriptor.
    public let descriptor: SettingDescriptor

    /// Wraps an untyped descriptor.
    public init(_ descriptor: SettingDescriptor) {
        self.descriptor = descriptor
    }

    /// Creates a setting from its key, kind and coder, then lets `configure` set the rest.
    ///
    /// ```swift
    /// let margins = Setting<MyFeatures, Double>(key: "margins", kind: .range, coder: .double) {
    ///     $0.range = 0...4
    ///     $0.suggestedIncrement = 0.5
    /// }
    /// ```
    public init(
        key: String, kind: SettingKind, coder: SettingCoder,
        _ configure: (inout SettingDescriptor.Specification) -> Void = { _ in }
    ) {
        var spec = SettingDescriptor.Specification(key: key, kind: kind, coder: coder)
        configure(&spec)
        self.descriptor = SettingDescriptor(spec)
    }

    /// The JSON key.
    public var key: String { descriptor.key }
    /// The key.
    public var id: String { descriptor.key }
    /// `kind key`, for debugging.
    public var description: String { descriptor.description }

    /// Formats a value for display (Specs/Settings.md §7).
    public func format(_ value: Value, locale: Locale? = nil) -> String {
        descriptor.format(value.settingValue, locale: locale)
    }
}

extension Setting where Value == Bool {
    /// A toggle setting.
    public static func toggle(
        _ key: String, title: String? = nil,
        _ configure: (inout SettingDescriptor.Specification) -> Void = { _ in }
    ) -> Self {
        Self(key: key, kind: .toggle, coder: .bool) {
            $0.title = title
            configure(&$0)
        }
    }
}

extension Setting where Value == Double {
    /// A `Double` range setting; values outside `range` are coerced into it.
    public static func range(
        _ key: String, title: String? = nil, range: ClosedRange<Double>, increment: Double? = nil,
        steps: [Double]? = nil, format: SettingFormat = .decimal,
        _ configure: (inout SettingDescriptor.Specification) -> Void = { _ in }
    ) -> Self {
        Self(key: key, kind: .range, coder: .double) {
            $0.title = title
            $0.range = range
            $0.validator = .range(range)
            $0.suggestedIncrement = increment
            $0.suggestedSteps = steps
            $0.format = format
            configure(&$0)
        }
    }

    /// A percent setting: a range kind with defaults range 0...1, increment 0.1, percent format.
    public static func percent(
        _ key: String, title: String? = nil, range: ClosedRange<Double> = 0...1, increment: Double = 0.1,
        _ configure: (inout SettingDescriptor.Specification) -> Void = { _ in }
    ) -> Self {
        Self(key: key, kind: .percent, coder: .double) {
            $0.title = title
            $0.range = range
            $0.validator = .range(range)
            $0.suggestedIncrement = increment
            $0.format = .percent
            configure(&$0)
        }
    }
}

extension Setting where Value == Int {
    /// An `Int` range setting; values outside `range` are coerced into it.
    public static func range(
        _ key: String, title: String? = nil, range: ClosedRange<Int>, increment: Int = 1,
        _ configure: (inout SettingDescriptor.Specification) -> Void = { _ in }
    ) -> Self {
        let bounds = Double(range.lowerBound)...Double(range.upperBound)
        return Self(key: key, kind: .range, coder: .integer) {
            $0.title = title
            $0.range = bounds
            $0.validator = .range(bounds)
            $0.suggestedIncrement = Double(increment)
            $0.format = .decimal
            configure(&$0)
        }
    }
}

extension Setting where Value: SettingEnumeration {
    /// An enum setting supporting `supported` (all cases unless narrowed).
    public static func enumeration(
        _ key: String, title: String? = nil, supported: [Value] = Array(Value.allCases),
        _ configure: (inout SettingDescriptor.Specification) -> Void = { _ in }
    ) -> Self {
        let values = supported.map(\.settingValue)
        return Self(key: key, kind: .enumeration, coder: .enumeration(Value.allCases.map(\.rawValue))) {
            $0.title = title
            $0.supportedValues = values
            $0.validator = .allowlist(values)
            configure(&$0)
        }
    }
}

extension Setting where Value == RGBColor {
    /// A color setting accepting any color.
    public static func color(
        _ key: String, title: String? = nil,
        _ configure: (inout SettingDescriptor.Specification) -> Void = { _ in }
    ) -> Self {
        Self(key: key, kind: .color, coder: .color) {
            $0.title = title
            configure(&$0)
        }
    }
}

extension Setting {
    /// A value setting (a language, a font family, any codable value) with the given coder.
    public static func value(
        _ key: String, title: String? = nil, coder: SettingCoder,
        _ configure: (inout SettingDescriptor.Specification) -> Void = { _ in }
    ) -> Self {
        Self(key: key, kind: .value, coder: coder) {
            $0.title = title
            configure(&$0)
        }
    }
}
