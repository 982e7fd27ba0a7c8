import Foundation
import Testing

@testable import ReadingPreferences

/// The Swift EPUB catalogue must say exactly what `Specs/Settings/epub.json` says (SPEC 5.4, 11).
///
/// The JSON file is written from the SPEC table, independently of the Swift code, so a mismatch
/// names the key and the property that disagree; decide from the SPEC which side is wrong.
@Suite("The EPUB catalogue matches Specs/Settings/epub.json")
struct EPUBCatalogueSpecTests {
    @Test("the file and the catalogue list the same keys in the same order")
    func sameKeys() throws {
        let file = try CatalogueFile.epub()
        #expect(
            file.keys == EPUB.catalogue.keys,
            "keys differ: file \(file.keys), catalogue \(EPUB.catalogue.keys)")
    }

    @Test("the file and the catalogue declare the same publication-specific keys")
    func samePublicationKeys() throws {
        let file = try CatalogueFile.epub()
        #expect(
            file.publicationKeys == EPUB.publicationKeys,
            "publicationKeys differ: file \(file.publicationKeys), catalogue \(EPUB.publicationKeys)")
    }

    @Test(
        "every descriptor has the kind, coder, range, steps, increment, values, scope, format, defaults and activator of its entry",
        arguments: EPUB.catalogue.descriptors.map(\.key))
    func descriptorMatchesEntry(key: String) throws {
        let file = try CatalogueFile.epub()
        let entry = try #require(file.entry(key), "\(key): missing from epub.json")
        let descriptor = try #require(
            EPUB.catalogue.descriptor(forKey: key), "\(key): missing from EPUB.catalogue")
        let actual = SpecNode.describing(descriptor)
        for property in SpecNode.comparedProperties {
            let expected = entry[property] ?? .null
            let found = actual[property] ?? .null
            #expect(
                found == expected, "\(key).\(property): catalogue has \(found), epub.json has \(expected)")
        }
    }

    @Test("every fallback that is not a rule is what empty preferences resolve to")
    func fallbacksMatchResolution() throws {
        let file = try CatalogueFile.epub()
        // Reflowable, no languages, light appearance, no defaults (SPEC 5.3 step 6).
        let settings = EPUB.Resolver().resolve(Preferences())
        for key in file.keys {
            let entry = try #require(file.entry(key))
            let fallback = entry["fallback"] ?? .null
            if fallback == .string("rule") { continue }
            let resolved = settings.values[key: key].map(SpecNode.init(_:)) ?? .null
            #expect(
                resolved == fallback, "\(key).fallback: resolves to \(resolved), epub.json has \(fallback)")
            let declared = EPUB.catalogue.descriptor(forKey: key)?.fallback.map(SpecNode.init(_:)) ?? .null
            #expect(
                declared == fallback,
                "\(key).fallback: the descriptor declares \(declared), epub.json has \(fallback)")
        }
    }

    @Test("the rule-based fallbacks are language, readingProgression, theme and verticalText")
    func ruleFallbacks() throws {
        let file = try CatalogueFile.epub()
        let ruled = file.keys.filter { file.entry($0)?["fallback"] == .string("rule") }
        #expect(ruled == ["language", "readingProgression", "theme", "verticalText"])
    }
}

// MARK: - The file

/// `Specs/Settings/epub.json`, parsed with the package's own JSON parser.
private struct CatalogueFile {
    var keys: [String]
    var publicationKeys: [String]
    var entries: [String: [String: SpecNode]]

    func entry(_ key: String) -> [String: SpecNode]? { entries[key] }

    static func epub() throws -> CatalogueFile {
        // Tests/ReadingPreferencesTests/EPUB/<this file> → the package root.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appendingPathComponent("Specs/Settings/epub.json")
        let document = SpecNode(try JSONValue(json: try Data(contentsOf: url)))
        guard case .object(let top) = document, top["configurable"] == .string("epub"),
            case .array(let publicationKeys)? = top["publicationKeys"],
            case .array(let settings)? = top["settings"]
        else { throw CatalogueError.malformed("top level of \(url.path)") }

        var file = CatalogueFile(keys: [], publicationKeys: [], entries: [:])
        for node in publicationKeys {
            guard case .string(let key) = node else { throw CatalogueError.malformed("publicationKeys") }
            file.publicationKeys.append(key)
        }
        for node in settings {
            guard case .object(let entry) = node, case .string(let key)? = entry["key"] else {
                throw CatalogueError.malformed("a settings entry without a key")
            }
            file.keys.append(key)
            file.entries[key] = entry
        }
        return file
    }
}

private enum CatalogueError: Error {
    case malformed(String)
}

// MARK: - A comparable JSON model

/// A plain JSON tree: numbers compare as doubles, objects ignore member order.
private indirect enum SpecNode: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SpecNode])
    case object([String: SpecNode])

    static let comparedProperties = [
        "kind", "coder", "range", "steps", "increment", "supportedValues", "scope", "format",
        "acceptsDefault", "effectiveWhen",
    ]

    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let number): self = .number(number.doubleValue)
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(SpecNode.init(_:)))
        case .object(let object):
            var members: [String: SpecNode] = [:]
            for member in object.members { members[member.key] = SpecNode(member.value) }
            self = .object(members)
        }
    }

    init(_ value: SettingValue) {
        switch value {
        case .bool(let value): self = .bool(value)
        case .number(let value): self = .number(value)
        case .integer(let value): self = .number(Double(value))
        case .string(let value): self = .string(value)
        case .color(let color): self = .string(color.hexString)
        case .json(let json): self = SpecNode(json)
        }
    }

    init(_ numbers: [Double]?) {
        self = numbers.map { .array($0.map(SpecNode.number)) } ?? .null
    }

    /// The descriptor's properties in the form of an `epub.json` entry.
    static func describing(_ descriptor: SettingDescriptor) -> [String: SpecNode] {
        [
            "kind": .string(descriptor.kind.rawValue),
            "coder": .string(name(of: descriptor.coder)),
            "range": SpecNode(descriptor.range.map { [$0.lowerBound, $0.upperBound] }),
            "steps": SpecNode(descriptor.suggestedSteps),
            "increment": descriptor.suggestedIncrement.map(SpecNode.number) ?? .null,
            "supportedValues": descriptor.supportedValues.map { .array($0.map(SpecNode.init(_:))) } ?? .null,
            "scope": .string(descriptor.scope.rawValue),
            "format": .string(name(of: descriptor.format)),
            "acceptsDefault": .bool(descriptor.acceptsDefault),
            "effectiveWhen": .array(descriptor.activator.parts.map(condition(of:))),
        ]
    }

    static func name(of coder: SettingCoder) -> String {
        switch coder {
        case .bool: return "bool"
        case .double: return "double"
        case .integer: return "integer"
        case .enumeration: return "enumeration"
        case .color: return "color"
        case .language: return "language"
        case .string: return "string"
        case .stringMap: return "stringMap"
        case .json: return "json"
        }
    }

    static func name(of format: SettingFormat) -> String {
        switch format {
        case .plain: return "plain"
        case .percent: return "percent"
        case .decimal: return "decimal"
        case .multiplier: return "multiplier"
        case .unit: return "unit"
        }
    }

    /// One activator part as an `effectiveWhen` condition object.
    static func condition(of part: SettingActivator) -> SpecNode {
        switch part {
        case .none: return .object(["none": .bool(true)])
        case .allOf(let parts): return .object(["allOf": .array(parts.map(condition(of:)))])
        case .requiresPreference(let key, let value, let automatic):
            return .object([
                "requiresPreference": .object([
                    "key": .string(key), "value": SpecNode(value), "automatic": .bool(automatic),
                ])
            ])
        case .condition(let condition): return self.condition(of: condition)
        }
    }

    static func condition(of condition: SettingCondition) -> SpecNode {
        switch condition {
        case .isSet: return .object(["isSet": .bool(true)])
        case .valueResolved: return .object(["valueResolved": .bool(true)])
        case .layout(let layout): return .object(["layout": .string(layout.rawValue)])
        case .stylesheets(let variants):
            return .object(["stylesheets": .array(variants.map { .string($0.rawValue) })])
        case .settingEquals(let key, let value):
            return .object(["settingEquals": .object(["key": .string(key), "value": SpecNode(value)])])
        case .settingDiffers(let key, let value):
            return .object(["settingDiffers": .object(["key": .string(key), "value": SpecNode(value)])])
        case .scrollNotForced: return .object(["scrollNotForced": .bool(true)])
        case .availableForPublication: return .object(["availableForPublication": .bool(true)])
        case .anyOf(let conditions): return .object(["anyOf": .array(conditions.map(self.condition(of:)))])
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return "\(value)"
        case .string(let value): return "\"\(value)\""
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            let sorted = members.sorted { $0.key < $1.key }
            return "{" + sorted.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}
