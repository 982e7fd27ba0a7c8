import Foundation

// `Codable` for JSON values, for apps that keep preferences inside their own `Codable` types.
//
// What `Codable` can carry is less than JSON text can: a `Decoder` hands over numbers as binary64
// (or `Decimal` with `JSONDecoder`), keys without their order, and never the written form of a
// number (`1.50`). So nothing is lost silently (issue 11):
// - a number binary64 holds exactly is encoded as that `Double` (`-0` stays `-0`);
// - a number it does not hold (`123456789012345678901234567890`, `0.1000000000000000000001`) is
//   encoded as an exact `Decimal` when the encoder is a `JSONEncoder` (which writes a `Decimal`'s
//   digits as a JSON number, and whose decoder reads them back exactly);
// - any other number (`1e400`, 40 significant digits, or those above with another encoder) throws
//   `EncodingError.invalidValue` naming the number and pointing at the lossless path,
//   `Preferences.jsonData()`, unless the encoder's `userInfo` asks for such numbers as text
//   (`JSONValue.inexactNumbersAsText`), which the settings form's JSON does: a form is for
//   display, and `"1e400"` shows what is stored.
extension JSONValue: Codable {
    /// Decodes any JSON value from a decoder.
    ///
    /// Object member order is whatever the decoder provides (`JSONDecoder` does not keep it), and
    /// a number keeps its value but not its written form; ``init(json:options:)-(Data,_)`` keeps
    /// both.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the decoder holds no JSON-like value.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var builder = JSONObjectBuilder(capacity: object.allKeys.count)
            for key in object.allKeys {
                _ = builder.insert(
                    key: key.stringValue, value: try object.decode(JSONValue.self, forKey: key))
            }
            self = .object(JSONObject(uniqueMembers: builder.members))
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(Self.number(value, exact: try? single.decode(Decimal.self)))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// The number a decoder handed over: the `Decimal` when it holds digits the `Double` lost,
    /// else the `Double` (as an integer when it is one, keeping `-0`).
    private static func number(_ value: Double, exact: Decimal?) -> JSONNumber {
        if let exact, let number = JSONNumber(text: exact.description), !number.isExactInBinary64 {
            return number
        }
        if value == 0, value.sign == .minus { return JSONNumber(text: "-0") ?? JSONNumber(value) }
        if value.rounded(.towardZero) == value, abs(value) < 9_007_199_254_740_992 {
            return JSONNumber(Int(value))
        }
        return JSONNumber(value)
    }

    /// Encodes the value, keeping object member order where the encoder does.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError.invalidValue` for a number the encoder cannot carry exactly (see
    ///   the note at the top of this file), and whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let number):
            try Self.encode(number, to: encoder)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for member in object.members {
                try container.encode(member.value, forKey: AnyCodingKey(member.key))
            }
        }
    }

    private static func encode(_ number: JSONNumber, to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        if number.isExactInBinary64 {
            let value = number.doubleValue
            if let integer = number.integerValue, !(value == 0 && value.sign == .minus) {
                try single.encode(integer)
            } else {
                try single.encode(value)
            }
            return
        }
        if writesDecimalsAsNumbers(encoder), let decimal = number.exactDecimal {
            try single.encode(decimal)
            return
        }
        if encoder.userInfo[inexactNumbersAsText] as? Bool == true {
            try single.encode(number.text)
            return
        }
        throw EncodingError.invalidValue(
            number,
            .init(
                codingPath: encoder.codingPath,
                debugDescription:
                    "the JSON number \(number.text) has no exact binary64 or Decimal form this encoder can "
                    + "write; encode the preferences with Preferences.jsonData() to keep it"))
    }

    /// Whether the encoder is Foundation's `JSONEncoder`, which writes a `Decimal` as a JSON number
    /// with its exact digits (other encoders write a `Decimal` as a keyed container).
    private static func writesDecimalsAsNumbers(_ encoder: any Encoder) -> Bool {
        String(describing: type(of: encoder)).hasSuffix("JSONEncoder")
    }
}

extension JSONValue {
    /// An encoder `userInfo` key: set it to `true` to encode a number that has no exact form the
    /// encoder can write (`1e400`) as its JSON text in a string, instead of throwing.
    ///
    /// ```swift
    /// let encoder = JSONEncoder()
    /// encoder.userInfo[JSONValue.inexactNumbersAsText] = true
    /// ```
    public static var inexactNumbersAsText: CodingUserInfoKey {
        guard let key = CodingUserInfoKey(rawValue: "org.readingprefs.inexactNumbersAsText") else {
            fatalError("a constant, non-empty raw value")  // cannot be reached
        }
        return key
    }
}

extension JSONNumber {
    /// Whether binary64 holds this number's value exactly, so a `Double` carries it through
    /// `Codable` (`1.50`, `-0`, `1e-5`: yes; `1e400`, 30-digit integers, `1e-400`: no).
    var isExactInBinary64: Bool {
        guard doubleValue.isFinite else { return false }
        let written = JSONDecimalForm(text: text)
        return written.isSameValue(as: JSONDecimalForm(text: doubleValue.description))
    }

    /// The number as an exact `Decimal` (at most 38 significant digits, exponent within
    /// `Decimal`'s range), or `nil`.
    var exactDecimal: Decimal? {
        let form = JSONDecimalForm(text: text)
        if form.isZero { return Decimal(0) }
        guard !form.isTruncated, form.significantCount <= 38, (-128...127).contains(form.trailingExponent),
            let significand = Decimal(string: String(decoding: form.digits, as: UTF8.self))
        else { return nil }
        return Decimal(
            sign: form.isNegative ? .minus : .plus, exponent: form.trailingExponent, significand: significand)
    }
}

/// A coding key for arbitrary strings.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
