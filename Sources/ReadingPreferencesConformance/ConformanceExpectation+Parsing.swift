import ReadingPreferences

// Reading `expect` from vector JSON (Specs/README.md §3). Inside the maps, `null` is a value ("resolved to
// none", "absent", "no dir attribute"); only a whole `expect` member that is `null` is missing.
extension ConformanceExpectation {
    /// Reads an expectation from the `expect` object of a case.
    ///
    /// - Parameters:
    ///   - json: The `expect` object.
    ///   - path: Its path, for error messages (`expect` in a case).
    /// - Throws: `JSONMemberError` naming the first member with the wrong type or value.
    public init(json: JSONValue, path: String = "expect") throws(JSONMemberError) {
        let reader = try JSONMemberReader(json, path: path)
        self.init()
        preferences = try reader.object("preferences")
        keyOrder = try reader.strings("keyOrder")
        settings = try reader.object("settings")
        effectiveValues = try reader.object("effectiveValues")
        if let object = try reader.object("effective") {
            effective = try Self.entries(object, path: reader.path("effective"), "true or false") {
                $0.boolValue
            }
        }
        if let object = try reader.object("formatted") {
            formatted = try Self.entries(object, path: reader.path("formatted"), "a string") {
                $0.stringValue
            }
        }
        if let object = try reader.object("css") {
            css = try Self.entries(object, path: reader.path("css"), "a string or null") {
                value -> String?? in
                if case .null = value { return .some(nil) }
                return value.stringValue.map { .some($0) }
            }
        }
        if let object = try reader.object("layout") {
            layout = try Self.layout(JSONMemberReader(object: object, path: reader.path("layout")))
        }
        if let elements = try reader.array("diagnostics") {
            var diagnostics: [Diagnostic] = []
            for (index, element) in elements.enumerated() {
                let item = try JSONMemberReader(
                    element, path: JSONMemberReader.join(reader.path("diagnostics"), index: index))
                guard let key = try item.string("key") else {
                    throw JSONMemberError(path: item.path("key"), message: "missing (the key concerned)")
                }
                guard let code = try item.string("code") else {
                    throw JSONMemberError(path: item.path("code"), message: "missing (the diagnostic code)")
                }
                guard let known = PreferenceDiagnostic.Code(rawValue: code) else {
                    throw JSONMemberError(
                        path: item.path("code"),
                        message: "unknown diagnostic code \(JSONMemberReader.quoted(code)) (expected one of "
                            + PreferenceDiagnostic.Code.allCases.map(\.rawValue).joined(separator: ", ") + ")"
                    )
                }
                diagnostics.append(Diagnostic(key: key, code: known))
            }
            self.diagnostics = diagnostics
        }
    }

    private static func entries<Value>(
        _ object: JSONObject, path: String, _ expected: String, _ convert: (JSONValue) -> Value?
    ) throws(JSONMemberError) -> [Entry<Value>] {
        var entries: [Entry<Value>] = []
        for member in object.members {
            guard let value = convert(member.value) else {
                throw JSONMemberError(
                    path: JSONMemberReader.join(path, member.key),
                    message: "expected \(expected), got \(JSONMemberReader.describe(member.value))")
            }
            entries.append(Entry(key: member.key, value: value))
        }
        return entries
    }

    private static func layout(_ reader: JSONMemberReader) throws(JSONMemberError) -> Layout {
        var layout = Layout()
        layout.stylesheets = try reader.choice("stylesheets", EPUB.StylesheetVariant.self)
        if let value = reader.rawValue("htmlDir") {
            layout.checksHTMLDirection = true
            switch value {
            case .null: break
            case .string(let raw) where EPUB.HTMLDirection(rawValue: raw) != nil:
                layout.htmlDirection = EPUB.HTMLDirection(rawValue: raw)
            default:
                throw JSONMemberError(
                    path: reader.path("htmlDir"),
                    message: "expected \"ltr\", \"rtl\" or null, got \(JSONMemberReader.describe(value))")
            }
        }
        if let value = reader.rawValue("language") {
            layout.checksLanguage = true
            if value != .null { layout.language = try reader.string("language") }
        }
        return layout
    }
}
