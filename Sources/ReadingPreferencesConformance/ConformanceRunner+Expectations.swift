import ReadingPreferences

/// Compares an editor's state after a case's edits with the case's expectation (Specs/README.md §3).
///
/// Each check returns one message per difference, naming the member and key:
/// `settings.fontSize: expected 1.3, got 1.3000000000000003`. Numbers compare exactly as
/// `Double`s (JSON number equality), strings by Unicode scalars, objects in any order.
struct ExpectationCheck {
    let expectation: ConformanceExpectation
    let editor: AnyPreferencesEditor
    let inputPreferences: Preferences
    let cssOptions: ReadiumCSSOptions

    func failures() -> [String] {
        var failures: [String] = []
        if let expected = expectation.preferences { failures += checkPreferences(expected) }
        if let expected = expectation.keyOrder { failures += checkKeyOrder(expected) }
        if let expected = expectation.settings {
            failures += checkValues(expected, member: "settings") { editor.resolvedSettingsJSON[$0] }
        }
        if let expected = expectation.effective { failures += checkEffective(expected) }
        if let expected = expectation.effectiveValues {
            failures += checkValues(expected, member: "effectiveValues") { key in
                editor.snapshot(forKey: key).map { $0.effectiveJSON ?? .null }
            }
        }
        if let expected = expectation.formatted { failures += checkFormatted(expected) }
        // Specs/README.md §3: layout and css apply to EPUB cases only and are ignored for the others.
        if let settings = editor.resolvedSettings(as: EPUB.self) {
            if let expected = expectation.layout { failures += checkLayout(expected, settings.pageLayout) }
            if let expected = expectation.css {
                failures += checkCSS(expected, settings.readiumCSS(options: cssOptions))
            }
        }
        if let expected = expectation.diagnostics { failures += checkDiagnostics(expected) }
        return failures
    }

    // MARK: - Stored preferences

    private func checkPreferences(_ expected: JSONObject) -> [String] {
        let actual = editor.preferences
        var failures: [String] = []
        for member in expected.members {
            let stored = actual[member.key]
            switch (member.value, stored) {
            case (.null, nil): continue
            case (.null, let stored?):
                failures.append("preferences.\(member.key): expected not stored, got \(Self.show(stored))")
            case (let value, nil):
                failures.append("preferences.\(member.key): expected \(Self.show(value)), got not stored")
            case (let value, let stored?):
                if value != stored {
                    failures.append(
                        "preferences.\(member.key): expected \(Self.show(value)), got \(Self.show(stored))")
                }
            }
        }
        for member in actual.members where expected[member.key] == nil {
            failures.append("preferences.\(member.key): not expected, got \(Self.show(member.value))")
        }
        return failures
    }

    private func checkKeyOrder(_ expected: [String]) -> [String] {
        let actual = editor.preferences.keys
        let same =
            actual.count == expected.count && zip(actual, expected).allSatisfy { $0.isScalarEqual(to: $1) }
        guard !same else { return [] }
        return ["keyOrder: expected \(Self.show(expected)), got \(Self.show(actual))"]
    }

    // MARK: - Settings and handles

    /// Compares JSON values by key; colors of color settings compare in canonical form.
    private func checkValues(
        _ expected: JSONObject, member: String, actual: (String) -> JSONValue?
    ) -> [String] {
        var failures: [String] = []
        for entry in expected.members {
            guard let value = actual(entry.key) else {
                failures.append("\(member).\(entry.key): no such setting")
                continue
            }
            let wanted = canonical(entry.value, key: entry.key)
            if wanted != value {
                failures.append(
                    "\(member).\(entry.key): expected \(Self.show(entry.value)), got \(Self.show(value))")
            }
        }
        return failures
    }

    /// Specs/README.md §3: in `settings` and `effectiveValues`, colors compare as canonical strings, so an
    /// expected `"#ffffff"` or `"white"` matches `"#FFFFFF"`.
    private func canonical(_ value: JSONValue, key: String) -> JSONValue {
        guard value != .null, let descriptor = editor.catalogue.descriptor(forKey: key),
            case .color = descriptor.coder, case .success(let decoded) = descriptor.coder.decode(value)
        else { return value }
        return descriptor.coder.encode(decoded)
    }

    private func checkEffective(_ expected: [ConformanceExpectation.Entry<Bool>]) -> [String] {
        expected.compactMap { entry in
            guard let snapshot = editor.snapshot(forKey: entry.key) else {
                return "effective.\(entry.key): no such setting"
            }
            guard snapshot.isEffective != entry.value else { return nil }
            let why =
                snapshot.reasons.isEmpty
                ? "" : " (\(snapshot.reasons.map(\.description).joined(separator: ", ")))"
            return "effective.\(entry.key): expected \(entry.value), got \(snapshot.isEffective)\(why)"
        }
    }

    private func checkFormatted(_ expected: [ConformanceExpectation.Entry<String>]) -> [String] {
        expected.compactMap { entry in
            guard let snapshot = editor.snapshot(forKey: entry.key) else {
                return "formatted.\(entry.key): no such setting"
            }
            guard !snapshot.formattedValue.isScalarEqual(to: entry.value) else { return nil }
            return
                "formatted.\(entry.key): expected \(Self.quoted(entry.value)), got \(Self.quoted(snapshot.formattedValue))"
        }
    }

    // MARK: - EPUB layout and CSS

    private func checkLayout(_ expected: ConformanceExpectation.Layout, _ actual: EPUB.PageLayout) -> [String]
    {
        var failures: [String] = []
        if let stylesheets = expected.stylesheets, stylesheets != actual.stylesheets {
            failures.append(
                "layout.stylesheets: expected \(Self.quoted(stylesheets.rawValue)), got \(Self.quoted(actual.stylesheets.rawValue))"
            )
        }
        if expected.checksHTMLDirection, expected.htmlDirection != actual.htmlDirection {
            failures.append(
                "layout.htmlDir: expected \(Self.show(expected.htmlDirection?.rawValue)), got \(Self.show(actual.htmlDirection?.rawValue))"
            )
        }
        let language = actual.language?.code
        if expected.checksLanguage, !Self.sameString(expected.language, language) {
            failures.append(
                "layout.language: expected \(Self.show(expected.language)), got \(Self.show(language))")
        }
        return failures
    }

    private func checkCSS(_ expected: [ConformanceExpectation.Entry<String?>], _ actual: ReadiumCSSProperties)
        -> [String]
    {
        expected.compactMap { entry in
            let value = actual[entry.key]
            guard !Self.sameString(entry.value, value) else { return nil }
            return
                "css.\(entry.key): expected \(Self.show(entry.value, absent: "absent")), got \(Self.show(value, absent: "absent"))"
        }
    }

    // MARK: - Diagnostics

    /// Specs/README.md §3: the exact multiset of `{key, code}` from decoding the input preferences.
    private func checkDiagnostics(_ expected: [ConformanceExpectation.Diagnostic]) -> [String] {
        var missing = expected
        var unexpected: [ConformanceExpectation.Diagnostic] = []
        for diagnostic in editor.catalogue.diagnostics(for: inputPreferences) {
            let actual = ConformanceExpectation.Diagnostic(key: diagnostic.key, code: diagnostic.code)
            if let index = missing.firstIndex(where: {
                $0.code == actual.code && $0.key.isScalarEqual(to: actual.key)
            }) {
                missing.remove(at: index)
            } else {
                unexpected.append(actual)
            }
        }
        var parts: [String] = []
        if !missing.isEmpty { parts.append("missing " + missing.map(\.description).joined(separator: ", ")) }
        if !unexpected.isEmpty {
            parts.append("unexpected " + unexpected.map(\.description).joined(separator: ", "))
        }
        return parts.isEmpty ? [] : ["diagnostics: " + parts.joined(separator: "; ")]
    }

    // MARK: - Message formatting

    /// A JSON value as compact JSON text; a number shows its own text (`1.3000000000000003`).
    static func show(_ value: JSONValue) -> String { value.jsonString() }

    /// An array of keys as JSON.
    static func show(_ keys: [String]) -> String { JSONValue.array(keys.map { .string($0) }).jsonString() }

    /// An optional string as JSON (`null` or the quoted string), or `absent` for CSS.
    static func show(_ string: String?, absent: String = "null") -> String {
        string.map(quoted) ?? absent
    }

    static func quoted(_ string: String) -> String { JSONMemberReader.quoted(string) }

    static func sameString(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (let lhs?, let rhs?): return lhs.isScalarEqual(to: rhs)
        default: return false
        }
    }
}
