import Foundation

/// Something noticed while decoding preferences for a configurable (Specs/Settings.md §8). The preferences
/// are still decoded, and the value concerned is kept as stored.
///
/// At most one diagnostic is reported per key, none for reserved `$` keys.
public struct PreferenceDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The stable diagnostic codes.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// The stored value has a JSON type the setting's coder never accepts.
        case typeMismatch
        /// The stored value has the right type but is not accepted.
        case unsupportedValue
        /// The stored number is outside the range and resolves coerced.
        case outOfRange
        /// The configurable declares no such key; the key is kept (informational).
        case unknownKey
        /// The key appeared more than once; the last value won.
        case duplicateKey
        /// An old key (`renamedFrom`) supplied the value of a new one.
        case renamedKey
    }

    /// The code.
    public var code: Code
    /// The key concerned (for ``Code/renamedKey``, the old key).
    public var key: String
    /// The stored value concerned: the rejected value for ``Code/typeMismatch`` and
    /// ``Code/unsupportedValue``, the stored value for ``Code/outOfRange``.
    public var value: JSONValue?
    /// For ``Code/outOfRange``, the value it resolves to.
    public var coercedTo: JSONValue?
    /// For ``Code/renamedKey``, the new key.
    public var newKey: String?
    /// What became of the value, when it differs from the default text (a legacy migration drops
    /// keys it does not know, where decoding keeps them).
    public var note: String?

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - code: The code.
    ///   - key: The key concerned.
    ///   - value: The stored value concerned.
    ///   - coercedTo: For ``Code/outOfRange``, the value it resolves to.
    ///   - newKey: For ``Code/renamedKey``, the new key.
    ///   - note: What became of the value, when the default text does not say it.
    public init(
        _ code: Code, key: String, value: JSONValue? = nil, coercedTo: JSONValue? = nil,
        newKey: String? = nil,
        note: String? = nil
    ) {
        self.code = code
        self.key = key
        self.value = value
        self.coercedTo = coercedTo
        self.newKey = newKey
        self.note = note
    }

    /// Whether this diagnostic is informational only (an unknown key is kept, not an error).
    public var isInformational: Bool { code == .unknownKey }

    /// A one-line English message, with the value concerned (shortened when long).
    public var description: String {
        let shown = value.map { " " + Self.shortened($0) } ?? ""
        switch code {
        case .typeMismatch:
            return "\(key): wrong JSON type\(shown); " + (note ?? "the value is kept but ignored")
        case .unsupportedValue:
            return "\(key): unsupported value\(shown); " + (note ?? "the value is kept but ignored")
        case .outOfRange:
            let coerced = coercedTo.map(Self.shortened) ?? "?"
            return "\(key):\(shown) is out of range; " + (note ?? "it resolves to \(coerced)")
        case .unknownKey: return "\(key): unknown key, " + (note ?? "kept as is")
        case .duplicateKey: return "\(key): duplicate key, " + (note ?? "the last value wins")
        case .renamedKey:
            return "\(key): renamed to \(newKey ?? "?"); " + (note ?? "its value is used for the new key")
        }
    }

    /// A value's compact JSON, cut to 60 characters.
    static func shortened(_ value: JSONValue) -> String {
        let text = value.jsonString()
        guard text.count > 60 else { return text }
        return String(text.prefix(57)) + "..."
    }
}
