import Foundation

/// How a setting's value becomes a label (Specs/Settings.md §7).
///
/// Formatting never depends on the process locale unless a `Locale` is passed. Rounding is half
/// away from zero on binary64 values.
public enum SettingFormat: Sendable, Hashable {
    /// The value's plain text: `On` or `Off` for a toggle, `dark`, `#FF0000`, or a decimal number.
    case plain
    /// A percentage: `(value × 100)` rounded, then `%` ("125%").
    case percent
    /// A decimal number with at most five fraction digits ("1.06667").
    case decimal
    /// A multiplier: a decimal number followed by `×` ("1.5×").
    case multiplier
    /// A decimal number followed by a space and a unit ("16 pt"), and the unit spelled out for
    /// accessibility ("16 points").
    case unit(symbol: String, spokenName: String)

    /// Formats a value for display.
    ///
    /// ```swift
    /// SettingFormat.percent.format(.number(1.25))  // "125%"
    /// SettingFormat.multiplier.format(.number(1.5)) // "1.5×"
    /// ```
    public func format(_ value: SettingValue, locale: Locale? = nil) -> String {
        if case .bool(let isOn) = value { return isOn ? "On" : "Off" }
        guard let number = value.doubleValue else { return value.description }
        switch self {
        case .plain, .decimal: return decimal(number, locale)
        case .percent:
            if let locale { return NumberFormatting.percent(number, locale: locale) }
            return NumberFormatting.percent(number)
        case .multiplier: return decimal(number, locale) + "×"
        case .unit(let symbol, _): return decimal(number, locale) + " " + symbol
        }
    }

    /// A label for assistive technologies, with the unit spelled out ("120 percent", "1.5 times").
    public func accessibilityLabel(_ value: SettingValue, locale: Locale? = nil) -> String {
        if case .bool(let isOn) = value { return isOn ? "on" : "off" }
        guard let number = value.doubleValue else { return value.description }
        switch self {
        case .plain, .decimal: return decimal(number, locale)
        case .percent:
            return decimal((number * 100).rounded(.toNearestOrAwayFromZero), locale) + " percent"
        case .multiplier: return decimal(number, locale) + " times"
        case .unit(_, let spokenName): return decimal(number, locale) + " " + spokenName
        }
    }

    private func decimal(_ number: Double, _ locale: Locale?) -> String {
        if let locale { return NumberFormatting.decimal(number, locale: locale) }
        return NumberFormatting.decimal(number)
    }
}

extension SettingFormat {
    /// The format's name in catalogue documents (`plain`, `percent`, `decimal`, `multiplier`,
    /// `unit`).
    package var catalogueName: String {
        switch self {
        case .plain: return "plain"
        case .percent: return "percent"
        case .decimal: return "decimal"
        case .multiplier: return "multiplier"
        case .unit: return "unit"
        }
    }
}
