import Foundation

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
        // Hashed when large, so a document of 100,000 duplicated keys is diagnosed in linear time.
        let duplicated = JSONKeySet(duplicateKeys)
        for member in preferences.members where !Preferences.isReserved(member.key) {
            if !duplicateKeys.isEmpty, duplicated.contains(member.key) {
                result.append(PreferenceDiagnostic(.duplicateKey, key: member.key))
                continue
            }
            if let (slot, isAlias) = storedSlot(forKey: member.key) {
                let descriptor = descriptors[slot]
                if let diagnostic = Self.diagnostic(member, descriptor) {
                    result.append(diagnostic)
                } else if isAlias, preferences.index(forKey: descriptor.key) == nil {
                    result.append(PreferenceDiagnostic(.renamedKey, key: member.key, newKey: descriptor.key))
                }
            } else {
                result.append(PreferenceDiagnostic(.unknownKey, key: member.key))
            }
        }
        // A duplicate whose last value was null left no member behind; it is still reported.
        if !duplicateKeys.isEmpty {
            let stored = JSONObjectLookup(members: preferences.members)
            for key in duplicateKeys where !Preferences.isReserved(key) && stored.position(of: key) == nil {
                result.append(PreferenceDiagnostic(.duplicateKey, key: key))
            }
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
        switch descriptor.decodeAndValidate(member.value) {
        case .failure(let failure):
            return PreferenceDiagnostic(
                failure == .typeMismatch ? .typeMismatch : .unsupportedValue, key: member.key)
        case .success(let value):
            guard !value.valid.matches(value.decoded) else { return nil }
            return PreferenceDiagnostic(
                .outOfRange, key: member.key, value: member.value,
                coercedTo: descriptor.coder.encode(value.valid))
        }
    }
}
