extension EPUB {
    /// The font families of Readium's pre-2.5 `UserSettings`, by index; 0 is the publisher's.
    static let legacyFontFamilies = [
        "Original", "Helvetica Neue", "Iowan Old Style", "Athelas", "Seravek", "OpenDyslexic",
        "AccessibleDfA",
        "IA Writer Duospace",
    ]

    /// Imports Readium's pre-2.5 `UserSettings`, a dictionary keyed by CSS variable names
    /// (Specs/Resolution.md §7.1), into preferences with their diagnostics.
    ///
    /// Values out of the new ranges are coerced and reported as ``PreferenceDiagnostic/Code/outOfRange``;
    /// legacy letter spacing (em, 0...0.25) is doubled so the page looks the same; unknown keys
    /// are reported as ``PreferenceDiagnostic/Code/unknownKey`` and not carried over.
    ///
    /// ```swift
    /// let legacy: JSONObject = ["--USER__fontSize": 150, "--USER__appearance": 2]
    /// let (preferences, diagnostics) = EPUB.migrateLegacy(legacy)
    /// // {"fontSize":1.5,"theme":"dark"}
    /// ```
    public static func migrateLegacy(_ userSettings: JSONObject) -> (
        preferences: Preferences, diagnostics: [PreferenceDiagnostic]
    ) {
        var migration = LegacyMigration()
        for member in userSettings.members { migration.apply(member) }
        return (migration.preferences, migration.diagnostics)
    }
}

private struct LegacyMigration {
    var preferences = Preferences()
    var diagnostics: [PreferenceDiagnostic] = []

    mutating func apply(_ member: JSONObject.Member) {
        let key = member.key
        let value = member.value
        switch key {
        case "--USER__fontSize": number(value, key, to: EPUB.fontSize.descriptor) { $0 / 100 }
        case "--USER__fontFamily":
            let names = EPUB.legacyFontFamilies.enumerated().map { "\($0.offset) \($0.element)" }
            if let index = index(value, key, choices: names), index > 0 {
                write(.string(EPUB.legacyFontFamilies[index]), to: EPUB.fontFamily.descriptor)
            }
        case "--USER__appearance":
            if let index = index(value, key, choices: ["0 light", "1 sepia", "2 dark"]) {
                write(.string(["light", "sepia", "dark"][index]), to: EPUB.theme.descriptor)
            }
        case "--USER__colCount":
            if let index = index(value, key, choices: ["0 auto", "1 one column", "2 two columns"]) {
                write(.string(["auto", "1", "2"][index]), to: EPUB.columnCount.descriptor)
                write(.string(["auto", "never", "always"][index]), to: EPUB.spread.descriptor)
            }
        case "--USER__textAlign":
            if let index = index(value, key, choices: ["0 justify", "1 start"]) {
                write(.string(["justify", "start"][index]), to: EPUB.textAlign.descriptor)
            }
        case "--USER__wordSpacing": number(value, key, to: EPUB.wordSpacing.descriptor) { $0 }
        case "--USER__letterSpacing": number(value, key, to: EPUB.letterSpacing.descriptor) { $0 * 2 }
        case "--USER__pageMargins": number(value, key, to: EPUB.pageMargins.descriptor) { $0 }
        case "--USER__lineHeight": number(value, key, to: EPUB.lineHeight.descriptor) { $0 }
        case "--USER__paraSpacing": number(value, key, to: EPUB.paragraphSpacing.descriptor) { $0 }
        case "--USER__bodyHyphens": flag(value, key, to: EPUB.hyphens.descriptor, on: "auto", off: "none")
        case "--USER__scroll":
            flag(value, key, to: EPUB.scroll.descriptor, on: "readium-scroll-on", off: "readium-scroll-off")
        case "--USER__advancedSettings":
            flag(
                value, key, to: EPUB.publisherStyles.descriptor, on: "readium-advanced-off",
                off: "readium-advanced-on")
        case "--USER__textColor": color(value, key, to: EPUB.textColor.descriptor)
        case "--USER__backgroundColor": color(value, key, to: EPUB.backgroundColor.descriptor)
        default:
            diagnostics.append(
                PreferenceDiagnostic(
                    .unknownKey, key: key, value: value, note: "not a legacy setting; not migrated"))
        }
    }

    /// A legacy number, or a numeric string such as `"150%"` or `"0.5rem"`.
    private func numeric(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number): return number.isFinite ? number.doubleValue : nil
        case .string(let text):
            let trimmed = text.trimmingSuffix { !($0.isNumber || $0 == ".") }
            return Double(trimmed).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    private mutating func number(
        _ value: JSONValue, _ key: String, to descriptor: SettingDescriptor, _ convert: (Double) -> Double
    ) {
        guard let number = numeric(value) else {
            diagnostics.append(
                PreferenceDiagnostic(
                    mismatch(value), key: key, value: value,
                    note: "not migrated (expected a number, or a numeric string such as \"150%\")"))
            return
        }
        let converted = convert(number)
        guard case .success(let valid) = descriptor.validator.validate(.number(converted)) else { return }
        if !valid.matches(.number(converted)) {
            diagnostics.append(
                PreferenceDiagnostic(
                    .outOfRange, key: key, value: .number(JSONNumber(converted)),
                    coercedTo: descriptor.coder.encode(valid)))
        }
        write(valid, to: descriptor)
    }

    /// A legacy index into a list of choices (each described as `index meaning`), or `nil`
    /// (reported, saying what was expected) when it is not one.
    private mutating func index(_ value: JSONValue, _ key: String, choices: [String]) -> Int? {
        let expected = "not migrated (expected an index: \(choices.joined(separator: ", ")))"
        guard let number = numeric(value) else {
            diagnostics.append(PreferenceDiagnostic(mismatch(value), key: key, value: value, note: expected))
            return nil
        }
        guard let index = Int(exactly: number), choices.indices.contains(index) else {
            diagnostics.append(
                PreferenceDiagnostic(.unsupportedValue, key: key, value: value, note: expected))
            return nil
        }
        return index
    }

    private mutating func flag(
        _ value: JSONValue, _ key: String, to descriptor: SettingDescriptor, on: String, off: String
    ) {
        let expected = "true, false, \"\(on)\" or \"\(off)\""
        switch value {
        case .bool(let flag): write(.bool(flag), to: descriptor)
        case .string(let text) where text == on || text == "true": write(.bool(true), to: descriptor)
        case .string(let text) where text == off || text == "false": write(.bool(false), to: descriptor)
        case .string:
            diagnostics.append(
                PreferenceDiagnostic(
                    .unsupportedValue, key: key, value: value, note: "not migrated (expected \(expected))"))
        default:
            diagnostics.append(
                PreferenceDiagnostic(
                    .typeMismatch, key: key, value: value, note: "not migrated (expected \(expected))"))
        }
    }

    private mutating func color(_ value: JSONValue, _ key: String, to descriptor: SettingDescriptor) {
        switch descriptor.coder.decode(value) {
        case .success(let color): write(color, to: descriptor)
        case .failure(let failure):
            diagnostics.append(
                PreferenceDiagnostic(
                    failure == .typeMismatch ? .typeMismatch : .unsupportedValue, key: key, value: value,
                    note: "not migrated (expected a color: \"#RRGGBB\", \"#RGB\" or a CSS color name)"))
        }
    }

    private func mismatch(_ value: JSONValue) -> PreferenceDiagnostic.Code {
        switch value {
        case .number, .string: return .unsupportedValue
        default: return .typeMismatch
        }
    }

    private mutating func write(_ value: SettingValue, to descriptor: SettingDescriptor) {
        preferences[descriptor.key] = descriptor.coder.encode(value)
    }
}

extension StringProtocol {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> SubSequence {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
