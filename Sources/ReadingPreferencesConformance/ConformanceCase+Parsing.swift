import Foundation
import ReadingPreferences

// Reading cases from vector JSON (Specs/README.md §3). Every problem is a `JSONMemberError` naming the
// member, so a malformed vector fails with a message a vector author can act on.
extension ConformanceCase {
    /// Reads a case from its JSON object.
    ///
    /// `configurable` is required; every other member is optional, a `null` member counts as
    /// missing, and unknown members (such as `source` or notes) are ignored.
    ///
    /// - Parameters:
    ///   - json: The case object.
    ///   - label: The name used when the case has no `name`, such as `activation.json[3]`.
    /// - Throws: `JSONMemberError` naming the first member with the wrong type or value, such
    ///   as `edits[1].op: unknown op "sett"`.
    public init(json: JSONValue, label: String = "") throws(JSONMemberError) {
        try self.init(json: json, label: label, replicaSources: nil)
    }

    /// Reads a case; a sync case's replica states from `replicaSources`, their bytes in the
    /// vector document, when given (a repeated key or scope in one state then merges).
    init(json: JSONValue, label: String, replicaSources: [Data]?) throws(JSONMemberError) {
        let reader = try JSONMemberReader(json, path: "")
        if reader.value("replicas") != nil {
            self.init(name: try reader.string("name") ?? label, configurable: "sync")
            syncMerge = try SyncMergeCase(reader, replicaSources: replicaSources)
            return
        }
        if reader.value("dialect") != nil {
            self.init(
                name: try reader.string("name") ?? label,
                configurable: try reader.string("configurable") ?? "epub")
            dialect = try DialectCase(reader)
            return
        }
        guard let configurable = try reader.string("configurable") else {
            throw JSONMemberError(
                path: "configurable",
                message: "missing (one of \(JSONMemberReader.alternatives(ConfigurableKind.allNames)))")
        }
        var inputs = ConfigurableInputs()
        if let publication = reader.value("publication") {
            inputs.publication = try PublicationContext(json: publication, path: "publication")
        }
        if let defaults = try reader.object("defaults") { inputs.defaults = Preferences(defaults) }
        if let environment = reader.value("environment") {
            inputs.environment = try ReadingEnvironment(json: environment, path: "environment")
        }
        self.init(
            name: try reader.string("name") ?? label,
            configurable: configurable,
            inputs: inputs,
            preferences: Preferences(try reader.object("preferences") ?? JSONObject()),
            cssOptions: try Self.cssOptions(reader),
            edits: try Self.edits(reader),
            expectation: try reader.value("expect").map { value throws(JSONMemberError) in
                try ConformanceExpectation(json: value, path: "expect")
            } ?? ConformanceExpectation())
    }

    private static func cssOptions(_ reader: JSONMemberReader) throws(JSONMemberError) -> ReadiumCSSOptions {
        var options = ReadiumCSSOptions()
        if let fonts = try reader.array("fonts") {
            var entries: [FontFamilyRegistry.Entry] = []
            for (index, font) in fonts.enumerated() {
                let entry = try JSONMemberReader(
                    font, path: JSONMemberReader.join(reader.path("fonts"), index: index))
                guard let name = try entry.string("name") else {
                    throw JSONMemberError(path: entry.path("name"), message: "missing (the family name)")
                }
                entries.append(.init(name: name, alternates: try entry.strings("alternates") ?? []))
            }
            options.fonts = FontFamilyRegistry(entries)
        }
        if let properties = try reader.object("rsProperties") {
            for member in properties.members {
                let path = reader.path("rsProperties") + "." + member.key
                guard case .string(let value) = member.value else {
                    throw JSONMemberError(
                        path: path,
                        message: "expected a string, got \(JSONMemberReader.describe(member.value))")
                }
                options.readingSystemProperties[member.key] = value
            }
        }
        if let overrides = try reader.object("overrides") {
            for member in overrides.members {
                switch member.value {
                case .string(let value): options.overrides[member.key] = .some(value)
                case .null: options.overrides[member.key] = .some(nil)
                default:
                    throw JSONMemberError(
                        path: reader.path("overrides") + "." + member.key,
                        message: "expected a string or null, got \(JSONMemberReader.describe(member.value))")
                }
            }
        }
        return options
    }

    private static func edits(_ reader: JSONMemberReader) throws(JSONMemberError) -> [Edit] {
        guard let elements = try reader.array("edits") else { return [] }
        var edits: [Edit] = []
        for (index, element) in elements.enumerated() {
            edits.append(try edit(element, path: JSONMemberReader.join("edits", index: index)))
        }
        return edits
    }

    // Specs/README.md §3: the edit ops and the members each one needs.
    private static func edit(_ json: JSONValue, path: String) throws(JSONMemberError) -> Edit {
        let reader = try JSONMemberReader(json, path: path)
        guard let name = try reader.string("op") else {
            throw JSONMemberError(
                path: reader.path("op"),
                message:
                    "missing (one of \(JSONMemberReader.alternatives(PreferenceEdit.Operation.allNames)))")
        }
        guard let operation = PreferenceEdit.Operation(rawValue: name) else {
            throw JSONMemberError(
                path: reader.path("op"),
                message: "unknown op \(JSONMemberReader.quoted(name)) (expected one of "
                    + PreferenceEdit.Operation.allNames.joined(separator: ", ") + ")")
        }
        let key = try reader.string("key")
        if operation.needsKey && key == nil {
            throw JSONMemberError(path: reader.path("key"), message: "missing (\(name) needs a key)")
        }
        let edit: PreferenceEdit
        switch (operation, key) {
        case (.clearAll, _): edit = .clearAll
        case (.set, let key?):
            // For `set`, an explicit null clears: only an absent value is malformed.
            guard let value = reader.rawValue("value") else {
                throw JSONMemberError(
                    path: reader.path("value"), message: "missing (set needs a value; null clears)")
            }
            edit = .set(key: key, value: value, activate: try reader.bool("activate") ?? true)
        case (.toggleValue, let key?):
            edit = .toggleValue(key: key, value: try reader.required("value", "toggleValue needs a value"))
        case (.adjustBy, let key?):
            guard let amount = try reader.number("amount") else {
                throw JSONMemberError(
                    path: reader.path("amount"), message: "missing (adjustBy needs an amount)")
            }
            edit = .adjustBy(key: key, amount: amount)
        case (.clear, let key?): edit = .clear(key: key)
        case (.toggle, let key?): edit = .toggle(key: key)
        case (.increment, let key?): edit = .increment(key: key)
        case (.decrement, let key?): edit = .decrement(key: key)
        case (.activate, let key?): edit = .activate(key: key)
        case (_, nil):
            throw JSONMemberError(path: reader.path("key"), message: "missing (\(name) needs a key)")
        }
        var expectedError: PreferenceError.Code?
        if let code = try reader.string("expectError") {
            guard let known = PreferenceError.Code(rawValue: code) else {
                throw JSONMemberError(
                    path: reader.path("expectError"),
                    message: "unknown error code \(JSONMemberReader.quoted(code)) (expected one of "
                        + PreferenceError.Code.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            expectedError = known
        }
        return Edit(edit, expectedError: expectedError)
    }
}
