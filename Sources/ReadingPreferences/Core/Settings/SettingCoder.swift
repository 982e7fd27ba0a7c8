/// How a setting's value is written to and read from JSON (Specs/Settings.md §2).
///
/// Coders are data, not closures, so descriptors stay `Sendable`, comparable and encodable.
public enum SettingCoder: Sendable, Hashable {
    /// `true` / `false`; nothing else decodes (`"true"` is a type mismatch).
    case bool
    /// A JSON number; integers decode too (`2` → 2.0).
    case double
    /// A JSON number without fraction; a number with a zero fraction decodes too (`3.0` → 3).
    case integer
    /// The raw string of one of the given enumeration cases; other strings are unsupported.
    case enumeration([String])
    /// `"#RRGGBB"` on output; every form of Specs/Settings.md §2 on input.
    case color
    /// A well-formed BCP-47 language tag string, with `_` replaced by `-`; anything else is
    /// unsupported.
    case language
    /// A non-empty string, such as a font family name.
    case string
    /// A JSON object whose values are all strings (a map of language tags to voices).
    case stringMap
    /// Any JSON value, kept as is.
    case json

    /// Decodes a stored JSON value; `null` is never passed here (it means unset).
    package func decode(_ json: JSONValue) -> Result<SettingValue, ValueFailure> {
        switch self {
        case .bool:
            guard case .bool(let value) = json else { return .failure(.typeMismatch) }
            return .success(.bool(value))
        case .double:
            guard case .number(let number) = json else { return .failure(.typeMismatch) }
            // Specs/Settings.md §8: an infinity (1e400) is `notANumber` for a number setting; a stored one is
            // diagnosed as `unsupportedValue` (Specs/Preferences.md §2), the only codes diagnostics have.
            guard number.isFinite else { return .failure(.notANumber) }
            return .success(.number(number.doubleValue))
        case .integer:
            guard case .number(let number) = json else { return .failure(.typeMismatch) }
            if let value = number.integerValue { return .success(.integer(value)) }
            // An integral number beyond Int saturates, so the range validator coerces it (Specs/Settings.md §3:
            // a range never rejects a finite number); a fraction or 1e400 is unsupported.
            let value = number.doubleValue
            guard value.isFinite else { return .failure(.notANumber) }
            guard value.rounded(.towardZero) == value else { return .failure(.unsupportedValue) }
            return .success(.integer(value > 0 ? Int.max : Int.min))
        case .enumeration(let cases):
            guard case .string(let raw) = json else { return .failure(.typeMismatch) }
            guard cases.contains(where: { $0.isScalarEqual(to: raw) }) else {
                return .failure(.unsupportedValue)
            }
            return .success(.string(raw))
        case .color:
            return Self.decodeColor(json)
        case .language:
            guard case .string(let raw) = json else { return .failure(.typeMismatch) }
            // Specs/Settings.md §2: only a well-formed tag, so what reaches a `lang` attribute is a tag.
            let tag = LanguageTag(code: raw)
            guard tag.isWellFormed else { return .failure(.unsupportedValue) }
            return .success(.string(tag.code))
        case .string:
            guard case .string(let raw) = json else { return .failure(.typeMismatch) }
            guard !raw.isEmpty else { return .failure(.unsupportedValue) }
            return .success(.string(raw))
        case .stringMap:
            guard case .object(let object) = json else { return .failure(.typeMismatch) }
            guard object.members.allSatisfy({ $0.value.stringValue != nil }) else {
                return .failure(.unsupportedValue)
            }
            return .success(.json(json))
        case .json:
            return .success(.json(json))
        }
    }

    /// Checks that a value supplied by code has the kind this coder writes, converting numbers
    /// between `Double` and `Int` where that is exact.
    func accept(_ value: SettingValue) -> Result<SettingValue, ValueFailure> {
        switch (self, value) {
        case (.bool, .bool), (.color, .color), (.json, .json): return .success(value)
        case (.double, .number(let number)):
            return number.isFinite ? .success(value) : .failure(.notANumber)
        case (.double, .integer(let number)): return .success(.number(Double(number)))
        case (.integer, .integer): return .success(value)
        case (.integer, .number(let number)):
            guard number.isFinite else { return .failure(.notANumber) }
            if let exact = Int(exactly: number) { return .success(.integer(exact)) }
            guard number.rounded(.towardZero) == number else { return .failure(.unsupportedValue) }
            return .success(.integer(number > 0 ? Int.max : Int.min))
        case (.enumeration, .string), (.language, .string), (.string, .string):
            return decode(encode(value))
        case (.json, _): return .success(.json(encode(value)))
        case (.stringMap, .json(let json)): return decode(json)
        default: return .failure(.typeMismatch)
        }
    }

    /// Encodes a value in its canonical JSON form.
    package func encode(_ value: SettingValue, colors: ColorEncoding = .hex) -> JSONValue {
        switch value {
        case .bool(let value): return .bool(value)
        case .number(let value):
            if case .integer = self, let exact = Int(exactly: value) { return .number(JSONNumber(exact)) }
            return .number(JSONNumber(value))
        case .integer(let value): return .number(JSONNumber(value))
        case .string(let value): return .string(value)
        case .color(let color):
            switch colors {
            case .hex: return .string(color.hexString)
            case .readiumSwift: return .number(JSONNumber(color.rgb))
            case .readiumKotlin: return .number(JSONNumber(color.readiumKotlinARGB))
            }
        case .json(let value): return value
        }
    }

    // Specs/Settings.md §2, colors exactly.
    private static func decodeColor(_ json: JSONValue) -> Result<SettingValue, ValueFailure> {
        switch json {
        case .string(let text):
            guard let color = RGBColor(parsing: text) else { return .failure(.unsupportedValue) }
            return .success(.color(color))
        case .number(let number):
            guard let integer = number.integerValue else {
                // A fractional number is a type mismatch; an integral one too large for Int is unsupported.
                let value = number.doubleValue
                let integral = !value.isFinite || value.rounded(.towardZero) == value
                return .failure(integral ? .unsupportedValue : .typeMismatch)
            }
            if let color = RGBColor(rgb: integer) ?? RGBColor(readiumKotlinARGB: integer) {
                return .success(.color(color))
            }
            return .failure(.unsupportedValue)
        default:
            return .failure(.typeMismatch)
        }
    }
}

/// How colors are written to JSON.
public enum ColorEncoding: Sendable, Hashable {
    /// `"#RRGGBB"`, the canonical form.
    case hex
    /// A non-negative integer `0xRRGGBB`, as Readium's Swift toolkit stores colors.
    case readiumSwift
    /// A negative 32-bit ARGB integer with alpha `FF`, as Readium's Kotlin toolkit stores colors.
    case readiumKotlin
}

/// Why a value could not be decoded or accepted (the value part of the codes of Specs/Settings.md §8).
package enum ValueFailure: Error, Sendable, Hashable {
    case typeMismatch
    case unsupportedValue
    case notANumber

    package var code: PreferenceError.Code {
        switch self {
        case .typeMismatch: return .typeMismatch
        case .unsupportedValue: return .unsupportedValue
        case .notANumber: return .notANumber
        }
    }
}

extension SettingCoder {
    /// The coder's name in catalogue documents (`bool`, `double`, `enumeration`...).
    package var catalogueName: String {
        switch self {
        case .bool: return "bool"
        case .double: return "double"
        case .integer: return "integer"
        case .enumeration: return "enumeration"
        case .color: return "color"
        case .language: return "language"
        case .string: return "string"
        case .stringMap: return "stringMap"
        case .json: return "json"
        }
    }
}
