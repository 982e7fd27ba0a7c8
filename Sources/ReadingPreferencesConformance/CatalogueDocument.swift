import ReadingPreferences

/// A setting catalogue as the JSON document `Specs/Settings/<configurable>.json` describes
/// (format in `Specs/README.md`): written from a Swift catalogue, or read into one so a tool can
/// check a catalogue an app declares as data.
///
/// ```swift
/// let json = CatalogueDocument.json(of: EPUB.catalogue, configurable: "epub")
/// let catalogue = try CatalogueDocument.catalogue(from: json)
/// catalogue.problems   // []
/// ```
public enum CatalogueDocument {
    /// The document of a catalogue. Fallbacks are written as resolved by the descriptors; a
    /// setting that follows a rule of its own has no descriptor fallback and is written `null`.
    ///
    /// - Parameters:
    ///   - catalogue: The catalogue.
    ///   - configurable: The configurable's identifier, such as `epub`.
    /// - Returns: The JSON document.
    public static func json(of catalogue: SettingCatalogue, configurable: String) -> JSONValue {
        .object([
            "configurable": .string(configurable),
            "publicationKeys": .array(catalogue.publicationKeys.map(JSONValue.string)),
            "screenKeys": .array(catalogue.screenKeys.map(JSONValue.string)),
            "groups": .array(
                catalogue.groups.map { group in
                    .object([
                        "id": .string(group.id), "title": .string(group.title),
                        "keys": .array(group.keys.map(JSONValue.string)),
                    ])
                }),
            "settings": .array(catalogue.descriptors.map(entry)),
        ])
    }

    /// One `settings` entry.
    ///
    /// - Parameter descriptor: The descriptor.
    /// - Returns: The entry, with every member of the format.
    public static func entry(_ descriptor: SettingDescriptor) -> JSONValue {
        .object(
            JSONObject(members: [
                .init(key: "key", value: .string(descriptor.key)),
                .init(key: "kind", value: .string(descriptor.kind.rawValue)),
                .init(key: "coder", value: .string(descriptor.coder.catalogueName)),
                .init(key: "range", value: numbers(descriptor.range.map { [$0.lowerBound, $0.upperBound] })),
                .init(key: "steps", value: numbers(descriptor.suggestedSteps)),
                .init(key: "increment", value: descriptor.suggestedIncrement.map(number) ?? .null),
                .init(
                    key: "supportedValues",
                    value: descriptor.supportedValues.map { .array($0.map { json($0, descriptor) }) } ?? .null
                ),
                .init(key: "fallback", value: descriptor.fallback.map { json($0, descriptor) } ?? .null),
                .init(key: "scope", value: .string(descriptor.scope.rawValue)),
                .init(key: "format", value: .string(descriptor.format.catalogueName)),
                .init(key: "acceptsDefault", value: .bool(descriptor.acceptsDefault)),
                .init(key: "effectiveWhen", value: .array(descriptor.activator.parts.map(condition))),
            ]))
    }

    /// Reads a catalogue document into a catalogue, whose `SettingCatalogue/problems` then list
    /// its declaration mistakes.
    ///
    /// - Parameter json: The document.
    /// - Returns: The catalogue.
    /// - Throws: `JSONMemberError` naming the member that does not follow the format.
    public static func catalogue(from json: JSONValue) throws(JSONMemberError) -> SettingCatalogue {
        let reader = try JSONMemberReader(json, path: "")
        let entries = try reader.array("settings") ?? []
        var descriptors: [SettingDescriptor] = []
        for (index, entry) in entries.enumerated() {
            descriptors.append(try descriptor(entry, path: JSONMemberReader.join("settings", index: index)))
        }
        var groups: [SettingCatalogue.Group] = []
        for (index, json) in (try reader.array("groups") ?? []).enumerated() {
            let group = try JSONMemberReader(json, path: JSONMemberReader.join("groups", index: index))
            guard let id = try group.string("id"), !id.isEmpty else {
                throw JSONMemberError(path: group.path("id"), message: "missing (the group's id)")
            }
            groups.append(
                SettingCatalogue.Group(
                    id: id, title: try group.string("title") ?? id, keys: try group.strings("keys") ?? []))
        }
        return SettingCatalogue(
            descriptors, groups: groups, screenKeys: try reader.strings("screenKeys") ?? [])
    }

    static func descriptor(_ json: JSONValue, path: String) throws(JSONMemberError) -> SettingDescriptor {
        let reader = try JSONMemberReader(json, path: path)
        let key = try reader.string("key") ?? ""
        guard !key.isEmpty else {
            throw JSONMemberError(path: reader.path("key"), message: "missing (the key)")
        }
        let kind = try reader.choice("kind", SettingKind.self) ?? .value
        let coder = try self.coder(reader, kind: kind)
        var spec = SettingDescriptor.Specification(key: key, kind: kind, coder: coder)
        spec.title = key
        if let bounds = try reader.array("range") {
            let values = try doubles(bounds, path: reader.path("range"))
            guard values.count == 2, values[0] <= values[1] else {
                throw JSONMemberError(path: reader.path("range"), message: "expected [lower, upper]")
            }
            spec.range = values[0]...values[1]
            spec.validator = .range(values[0]...values[1])
        }
        spec.suggestedSteps = try reader.array("steps").map { steps throws(JSONMemberError) in
            try doubles(steps, path: reader.path("steps"))
        }
        spec.suggestedIncrement = try reader.number("increment")
        if let values = try reader.array("supportedValues") {
            var supported: [SettingValue] = []
            for value in values {
                supported.append(try settingValue(value, coder: coder, path: reader.path("supportedValues")))
            }
            spec.supportedValues = supported
            spec.validator = .allowlist(supported)
        }
        if let fallback = reader.value("fallback"), fallback != .string("rule") {
            spec.fallback = try settingValue(fallback, coder: coder, path: reader.path("fallback"))
        }
        spec.scope = try reader.choice("scope", SettingScope.self) ?? .shared
        spec.format = try format(reader)
        spec.acceptsDefault = try reader.bool("acceptsDefault") ?? true
        var parts: [SettingActivator] = []
        for (index, condition) in (try reader.array("effectiveWhen") ?? []).enumerated() {
            parts.append(
                try activator(
                    condition, path: JSONMemberReader.join(reader.path("effectiveWhen"), index: index)))
        }
        spec.activator = parts.isEmpty ? .none : .allOf(parts)
        return SettingDescriptor(spec)
    }

    // MARK: Names

    private static func coder(_ reader: JSONMemberReader, kind: SettingKind) throws(JSONMemberError)
        -> SettingCoder
    {
        let name = try reader.string("coder") ?? "json"
        switch name {
        case "bool": return .bool
        case "double": return .double
        case "integer": return .integer
        case "enumeration":
            let values = try reader.array("supportedValues") ?? []
            return .enumeration(values.compactMap(\.stringValue))
        case "color": return .color
        case "language": return .language
        case "string": return .string
        case "stringMap": return .stringMap
        case "json": return .json
        default:
            throw JSONMemberError(
                path: reader.path("coder"), message: "unknown coder \(JSONValue.string(name))")
        }
    }

    private static func format(_ reader: JSONMemberReader) throws(JSONMemberError) -> SettingFormat {
        switch try reader.string("format") ?? "plain" {
        case "plain": return .plain
        case "percent": return .percent
        case "decimal": return .decimal
        case "multiplier": return .multiplier
        case "unit": return .unit(symbol: "", spokenName: "")
        case let other:
            throw JSONMemberError(
                path: reader.path("format"), message: "unknown format \(JSONValue.string(other))")
        }
    }

    // MARK: Activators

    static func condition(_ part: SettingActivator) -> JSONValue {
        switch part {
        case .none: return ["none": true]
        case .allOf(let parts): return ["allOf": .array(parts.map(condition))]
        case .requiresPreference(let key, let value, let automatic):
            return [
                "requiresPreference": [
                    "key": .string(key), "value": SettingCoder.json.encode(value),
                    "automatic": .bool(automatic),
                ]
            ]
        case .condition(let condition): return self.condition(condition)
        }
    }

    static func condition(_ condition: SettingCondition) -> JSONValue {
        switch condition {
        case .isSet: return ["isSet": true]
        case .valueResolved: return ["valueResolved": true]
        case .layout(let layout): return ["layout": .string(layout.rawValue)]
        case .derived(let derived) where derived.name == "stylesheets":
            return ["stylesheets": .array(derived.values.map(JSONValue.string))]
        case .derived(let derived) where derived.name == "scrollForced" && derived.values == ["false"]:
            return ["scrollNotForced": true]
        case .derived(let derived): return [derived.name: .array(derived.values.map(JSONValue.string))]
        case .settingEquals(let key, let value):
            return ["settingEquals": ["key": .string(key), "value": SettingCoder.json.encode(value)]]
        case .settingDiffers(let key, let value):
            return ["settingDiffers": ["key": .string(key), "value": SettingCoder.json.encode(value)]]
        case .availableForPublication: return ["availableForPublication": true]
        case .anyOf(let conditions): return ["anyOf": .array(conditions.map(self.condition))]
        }
    }

    private static func activator(_ json: JSONValue, path: String) throws(JSONMemberError) -> SettingActivator
    {
        let reader = try JSONMemberReader(json, path: path)
        guard reader.object.count == 1, let member = reader.object.members.first else {
            throw JSONMemberError(path: path, message: "expected one condition")
        }
        if member.key == "requiresPreference" {
            let inner = try JSONMemberReader(member.value, path: reader.path(member.key))
            return .requiresPreference(
                key: try inner.string("key") ?? "", value: plain(try inner.required("value", "the value")),
                automatic: try inner.bool("automatic") ?? false)
        }
        if member.key == "allOf" {
            var parts: [SettingActivator] = []
            for (index, part) in (try reader.array("allOf") ?? []).enumerated() {
                parts.append(
                    try activator(part, path: JSONMemberReader.join(reader.path("allOf"), index: index)))
            }
            return .allOf(parts)
        }
        return .condition(try settingCondition(json, path: path))
    }

    private static func settingCondition(_ json: JSONValue, path: String) throws(JSONMemberError)
        -> SettingCondition
    {
        let reader = try JSONMemberReader(json, path: path)
        guard reader.object.count == 1, let member = reader.object.members.first else {
            throw JSONMemberError(path: path, message: "expected one condition")
        }
        switch member.key {
        case "isSet": return .isSet
        case "valueResolved": return .valueResolved
        case "availableForPublication": return .availableForPublication
        case "scrollNotForced": return .scrollNotForced
        case "layout": return .layout(try reader.choice("layout", PublicationLayout.self) ?? .reflowable)
        case "stylesheets":
            return .derived(DerivedCondition("stylesheets", values: try reader.strings("stylesheets") ?? []))
        case "settingEquals", "settingDiffers":
            let inner = try JSONMemberReader(member.value, path: reader.path(member.key))
            let key = try inner.string("key") ?? ""
            let value = plain(try inner.required("value", "the value"))
            return member.key == "settingEquals"
                ? .settingEquals(key: key, value: value) : .settingDiffers(key: key, value: value)
        case "anyOf":
            var conditions: [SettingCondition] = []
            for (index, condition) in (try reader.array("anyOf") ?? []).enumerated() {
                conditions.append(
                    try settingCondition(
                        condition, path: JSONMemberReader.join(reader.path("anyOf"), index: index)))
            }
            return .anyOf(conditions)
        default:
            return .derived(DerivedCondition(member.key, values: try reader.strings(member.key) ?? []))
        }
    }

    // MARK: Values

    private static func numbers(_ values: [Double]?) -> JSONValue {
        values.map { .array($0.map(number)) } ?? .null
    }

    private static func number(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    private static func doubles(_ values: [JSONValue], path: String) throws(JSONMemberError) -> [Double] {
        var result: [Double] = []
        for value in values {
            guard let number = value.numberValue?.doubleValue else {
                throw JSONMemberError(path: path, message: "expected numbers")
            }
            result.append(number)
        }
        return result
    }

    private static func json(_ value: SettingValue, _ descriptor: SettingDescriptor) -> JSONValue {
        descriptor.coder.encode(value)
    }

    /// A plain JSON value as a setting value (a requirement's or a condition's value).
    private static func plain(_ json: JSONValue) -> SettingValue {
        switch json {
        case .bool(let value): return .bool(value)
        case .number(let number): return .number(number.doubleValue)
        case .string(let value): return .string(value)
        default: return .json(json)
        }
    }

    private static func settingValue(_ json: JSONValue, coder: SettingCoder, path: String)
        throws(JSONMemberError)
        -> SettingValue
    {
        switch coder.decode(json) {
        case .success(let value): return value
        case .failure: return plain(json)
        }
    }
}
