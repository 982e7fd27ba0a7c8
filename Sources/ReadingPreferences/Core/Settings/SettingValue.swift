import Foundation

/// A typed setting value, independent of any configurable.
///
/// Preferences are stored as JSON (``JSONValue``); a setting's coder turns the JSON into a
/// `SettingValue` and back (Specs/Settings.md §2). Resolution, validation and activation all work on these
/// values, so they never re-parse JSON.
///
/// ```swift
/// let size: SettingValue = .number(1.2)
/// size.doubleValue  // 1.2
/// ```
public enum SettingValue: Sendable, Hashable, CustomStringConvertible {
    /// A toggle's value.
    case bool(Bool)
    /// A floating-point number (range and percent settings).
    case number(Double)
    /// An integer number (integer range settings).
    case integer(Int)
    /// A string: an enumeration's raw value, a language tag or a font family name.
    case string(String)
    /// An RGB color.
    case color(RGBColor)
    /// Any other JSON value (for example a dictionary of voices).
    indirect case json(JSONValue)

    /// The Boolean, if this is a toggle value.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, for ``number(_:)`` and ``integer(_:)`` values.
    public var doubleValue: Double? {
        switch self {
        case .number(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// The string, for ``string(_:)`` values.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The color, for ``color(_:)`` values.
    public var colorValue: RGBColor? {
        if case .color(let value) = self { return value }
        return nil
    }

    /// A short, stable text form: `true`, `1.2`, `dark`, `#FF0000`, or JSON for other values.
    public var description: String {
        switch self {
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return NumberFormatting.decimal(value)
        case .integer(let value): return String(value)
        case .string(let value): return value
        case .color(let value): return value.hexString
        case .json(let value): return value.jsonString()
        }
    }

    /// Whether two values are the same setting value, comparing numbers by numeric value
    /// (so `.integer(2)` matches `.number(2.0)`) and strings by Unicode scalars.
    func matches(_ other: SettingValue) -> Bool {
        switch (self, other) {
        case (.string(let lhs), .string(let rhs)): return lhs.isScalarEqual(to: rhs)
        case (.number, _), (.integer, _):
            guard let lhs = doubleValue, let rhs = other.doubleValue else { return false }
            return lhs == rhs
        default: return self == other
        }
    }
}
