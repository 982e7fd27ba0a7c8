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

extension SettingCatalogue {
    /// The diagnostics of preferences for this catalogue (SPEC 3.7): at most one per key, none
    /// for `$` keys.
    ///
    /// ```swift
    /// let diagnostics = EPUB.catalogue.diagnostics(for: preferences)
    /// ```
    public func diagnostics(for preferences: Preferences, duplicateKeys: [String] = [])
        -> [PreferenceDiagnostic]
    {
        var result: [PreferenceDiagnostic] = []
        for member in preferences.members where !Preferences.isReserved(member.key) {
            if duplicateKeys.contains(where: { $0.isScalarEqual(to: member.key) }) {
                result.append(PreferenceDiagnostic(.duplicateKey, key: member.key))
                continue
            }
            if let slot = slot(forKey: member.key) {
                if let diagnostic = Self.diagnostic(member, descriptors[slot]) { result.append(diagnostic) }
            } else if let slot = slot(forAlias: member.key) {
                let descriptor = descriptors[slot]
                if let diagnostic = Self.diagnostic(member, descriptor) {
                    result.append(diagnostic)
                } else if preferences.index(forKey: descriptor.key) == nil {
                    result.append(PreferenceDiagnostic(.renamedKey, key: member.key, newKey: descriptor.key))
                }
            } else {
                result.append(PreferenceDiagnostic(.unknownKey, key: member.key))
            }
        }
        // A duplicate whose last value was null left no member behind; it is still reported.
        for key in duplicateKeys where !Preferences.isReserved(key) && preferences.index(forKey: key) == nil {
            result.append(PreferenceDiagnostic(.duplicateKey, key: key))
        }
        return result
    }

    /// Decodes a JSON document and diagnoses it for this catalogue, duplicate keys included.
    public func decode(
        json bytes: some ContiguousBytes, options: JSONParsingOptions = .init()
    ) throws(JSONDecodingError) -> (preferences: Preferences, diagnostics: [PreferenceDiagnostic]) {
        let parsed = try Preferences.parse(bytes, options: options)
        return (parsed.preferences, diagnostics(for: parsed.preferences, duplicateKeys: parsed.duplicateKeys))
    }

    private static func diagnostic(
        _ member: JSONObject.Member, _ descriptor: SettingDescriptor
    ) -> PreferenceDiagnostic? {
        switch descriptor.coder.decode(member.value) {
        case .failure(let failure):
            return PreferenceDiagnostic(
                failure == .typeMismatch ? .typeMismatch : .unsupportedValue, key: member.key)
        case .success(let decoded):
            switch descriptor.validator.validate(decoded) {
            case .failure(let failure):
                return PreferenceDiagnostic(
                    failure == .typeMismatch ? .typeMismatch : .unsupportedValue, key: member.key)
            case .success(let valid):
                guard !valid.matches(decoded) else { return nil }
                return PreferenceDiagnostic(
                    .outOfRange, key: member.key, value: member.value,
                    coercedTo: descriptor.coder.encode(valid))
            }
        }
    }
}
