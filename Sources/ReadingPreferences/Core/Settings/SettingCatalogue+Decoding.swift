import Foundation

extension SettingCatalogue {
    /// The diagnostics of preferences for this catalogue (Specs/Settings.md §8): at most one per key, none
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

    /// The diagnostics of app defaults (Specs/Resolution.md §5): what ``SettingValueTable/init(_:asDefaults:)``
    /// ignores, so a tool can say why a default has no effect. Unknown keys and keys the defaults
    /// may not set are reported as ignored, with the rejected values.
    ///
    /// ```swift
    /// EPUB.catalogue.diagnostics(forDefaults: ["textColor": "#FF0000", "theme": "purple"])
    /// // textColor: ... defaults may not set this key; ignored
    /// // theme: unsupported value "purple"; ignored
    /// ```
    ///
    /// - Parameters:
    ///   - defaults: The app defaults, as preferences.
    ///   - duplicateKeys: The keys the defaults document repeated.
    /// - Returns: At most one diagnostic per key.
    public func diagnostics(forDefaults defaults: Preferences, duplicateKeys: [String] = [])
        -> [PreferenceDiagnostic]
    {
        diagnostics(for: defaults, duplicateKeys: duplicateKeys).map { diagnostic in
            var diagnostic = diagnostic
            switch diagnostic.code {
            case .typeMismatch, .unsupportedValue, .unknownKey: diagnostic.note = "ignored"
            default: break
            }
            return diagnostic
        }
            + defaults.members.compactMap { member in
                guard let descriptor = descriptor(forKey: member.key), !descriptor.acceptsDefault else {
                    return nil
                }
                return PreferenceDiagnostic(
                    .unsupportedValue, key: member.key, value: member.value,
                    note: "defaults may not set this key; ignored")
            }
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
                failure == .typeMismatch ? .typeMismatch : .unsupportedValue, key: member.key,
                value: member.value)
        case .success(let value):
            guard !value.valid.matches(value.decoded) else { return nil }
            return PreferenceDiagnostic(
                .outOfRange, key: member.key, value: member.value,
                coercedTo: descriptor.coder.encode(value.valid))
        }
    }
}
