/// A Swift type that a typed ``Setting`` can hold.
///
/// The library conforms `Bool`, `Double`, `Int`, `String`, ``RGBColor``, ``LanguageTag``,
/// ``EPUB/FontFamily`` and ``JSONValue``. Enumerations conform through ``SettingEnumeration``.
public protocol SettingValueConvertible: Sendable, Hashable {
    /// Creates a value from a setting value, or returns `nil` when the kinds differ.
    init?(settingValue: SettingValue)
    /// The setting value of this value.
    var settingValue: SettingValue { get }
}

/// A number a range setting can hold (`Double` or `Int`).
public protocol SettingNumber: SettingValueConvertible, Comparable {}

/// A string-backed enumeration usable as an enum setting's value.
///
/// ```swift
/// enum Density: String, SettingEnumeration { case compact, regular }
/// ```
public protocol SettingEnumeration: SettingValueConvertible, RawRepresentable, CaseIterable
where RawValue == String {}

extension SettingEnumeration {
    /// Creates the case whose raw value is the given string value.
    public init?(settingValue: SettingValue) {
        guard case .string(let raw) = settingValue else { return nil }
        self.init(rawValue: raw)
    }

    /// The raw value as a string setting value.
    public var settingValue: SettingValue { .string(rawValue) }
}

extension Bool: SettingValueConvertible {
    /// Creates a Boolean from a toggle value.
    public init?(settingValue: SettingValue) {
        guard case .bool(let value) = settingValue else { return nil }
        self = value
    }

    /// The toggle value.
    public var settingValue: SettingValue { .bool(self) }
}

extension Double: SettingNumber {
    /// Creates a `Double` from a number or integer value.
    public init?(settingValue: SettingValue) {
        guard let value = settingValue.doubleValue else { return nil }
        self = value
    }

    /// The number value.
    public var settingValue: SettingValue { .number(self) }
}

extension Int: SettingNumber {
    /// Creates an `Int` from an integer value, or from an integral number value.
    public init?(settingValue: SettingValue) {
        switch settingValue {
        case .integer(let value): self = value
        case .number(let value):
            guard let exact = Int(exactly: value) else { return nil }
            self = exact
        default: return nil
        }
    }

    /// The integer value.
    public var settingValue: SettingValue { .integer(self) }
}

extension String: SettingValueConvertible {
    /// Creates a string from a string value.
    public init?(settingValue: SettingValue) {
        guard case .string(let value) = settingValue else { return nil }
        self = value
    }

    /// The string value.
    public var settingValue: SettingValue { .string(self) }
}

extension RGBColor: SettingValueConvertible {
    /// Creates a color from a color value.
    public init?(settingValue: SettingValue) {
        guard case .color(let value) = settingValue else { return nil }
        self = value
    }

    /// The color value.
    public var settingValue: SettingValue { .color(self) }
}

extension LanguageTag: SettingValueConvertible {
    /// Creates a language from a string value holding a BCP-47 tag.
    public init?(settingValue: SettingValue) {
        guard case .string(let value) = settingValue else { return nil }
        self.init(code: value)
    }

    /// The tag as a string value.
    public var settingValue: SettingValue { .string(code) }
}

extension JSONValue: SettingValueConvertible {
    /// Creates a JSON value from a setting value of the ``SettingValue/json(_:)`` kind.
    public init?(settingValue: SettingValue) {
        guard case .json(let value) = settingValue else { return nil }
        self = value
    }

    /// The value wrapped as ``SettingValue/json(_:)``.
    public var settingValue: SettingValue { .json(self) }
}

extension SettingValue: SettingValueConvertible {
    /// Wraps itself: untyped handles use `SettingValue` as their value type.
    public init?(settingValue: SettingValue) {
        self = settingValue
    }

    /// Itself.
    public var settingValue: SettingValue { self }
}

extension Dictionary: SettingValueConvertible where Key == String, Value == String {
    /// Creates a string map from a JSON object of strings (for example TTS voices by language).
    public init?(settingValue: SettingValue) {
        guard case .json(.object(let object)) = settingValue else { return nil }
        var result: [String: String] = [:]
        for member in object.members {
            guard let value = member.value.stringValue else { return nil }
            result[member.key] = value
        }
        self = result
    }

    /// The map as a JSON object, keys sorted for a stable encoding.
    public var settingValue: SettingValue {
        var object = JSONObject()
        for key in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            object[key] = self[key].map(JSONValue.string)
        }
        return .json(.object(object))
    }
}
