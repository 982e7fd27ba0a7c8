import Foundation

/// Something noticed while decoding preferences for a configurable (SPEC 3.7). The preferences
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
    /// For ``Code/outOfRange``, the stored value.
    public var value: JSONValue?
    /// For ``Code/outOfRange``, the value it resolves to.
    public var coercedTo: JSONValue?
    /// For ``Code/renamedKey``, the new key.
    public var newKey: String?

    /// Creates a diagnostic.
    public init(
        _ code: Code, key: String, value: JSONValue? = nil, coercedTo: JSONValue? = nil, newKey: String? = nil
    ) {
        self.code = code
        self.key = key
        self.value = value
        self.coercedTo = coercedTo
        self.newKey = newKey
    }

    /// Whether this diagnostic is informational only (an unknown key is kept, not an error).
    public var isInformational: Bool { code == .unknownKey }

    /// A one-line English message.
    public var description: String {
        switch code {
        case .typeMismatch: return "\(key): wrong JSON type; the value is kept but ignored"
        case .unsupportedValue: return "\(key): unsupported value; the value is kept but ignored"
        case .outOfRange:
            let stored = value.map { $0.jsonString() } ?? "?"
            let coerced = coercedTo.map { $0.jsonString() } ?? "?"
            return "\(key): \(stored) is out of range; it resolves to \(coerced)"
        case .unknownKey: return "\(key): unknown key, kept as is"
        case .duplicateKey: return "\(key): duplicate key, the last value wins"
        case .renamedKey: return "\(key): renamed to \(newKey ?? "?"); its value is used for the new key"
        }
    }
}
