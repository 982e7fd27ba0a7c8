import Foundation
import Testing

@testable import ReadingPreferences

/// Checks a Swift catalogue against its `Specs/Settings/<configurable>.json` file (Specs/README.md §2).
///
/// The JSON files are written from the tables of the Specs pages, independently of the Swift code, so every
/// mismatch names the configurable, the key and the property that disagree; decide from the
/// Specs pages which side is wrong. One value per configurable, used by the `*CatalogueSpecTests`
/// suites:
///
/// ```swift
/// try CatalogueSpec.pdf.verify(ruleKeys: ["readingProgression"])
/// ```
struct CatalogueSpec: Sendable {
    /// The configurable's name, which is also the file's name and its `configurable` member.
    let configurable: String
    /// The Swift catalogue.
    let catalogue: SettingCatalogue
    /// What empty preferences resolve to, by key, with no defaults and an empty publication.
    let emptyResolution: [String: SpecNode]

    init<Schema: SettingsSchema>(_ schema: Schema.Type, resolver: Schema.Resolver) {
        configurable = Schema.identifier
        catalogue = Schema.catalogue
        let settings = resolver.resolve(Preferences())
        var resolution: [String: SpecNode] = [:]
        for key in catalogue.keys {
            resolution[key] = settings.values[key: key].map(SpecNode.init(_:)) ?? .null
        }
        emptyResolution = resolution
    }

    /// Reflowable, no languages, light appearance, no defaults (Specs/Resolution.md §4 step 6).
    static let epub = CatalogueSpec(EPUB.self, resolver: EPUB.Resolver())
    /// No declared reading progression, no defaults.
    static let pdf = CatalogueSpec(PDF.self, resolver: PDF.Resolver())
    /// No defaults.
    static let audio = CatalogueSpec(Audio.self, resolver: Audio.Resolver())
    /// No publication language, no defaults.
    static let tts = CatalogueSpec(TTS.self, resolver: TTS.Resolver())

    /// Records an issue for every difference between the catalogue and the file: the keys and
    /// their order, the publication-specific keys, every compared property of every entry, the
    /// fallbacks (declared and resolved from empty preferences), and which keys resolve by a
    /// rule of their own (`"fallback": "rule"`).
    ///
    /// - Parameters:
    ///   - ruleKeys: The keys the Specs pages resolve by a rule, in catalogue order.
    ///   - sourceLocation: Where to report mismatches.
    /// - Throws: When the catalogue file cannot be read.
    func verify(ruleKeys: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = try CatalogueFile(configurable: configurable)
        for failure in mismatches(file) + ruleMismatch(file, expected: ruleKeys) {
            Issue.record(
                Comment(rawValue: "\(configurable).json: \(failure)"), sourceLocation: sourceLocation)
        }
    }

    private func mismatches(_ file: CatalogueFile) -> [String] {
        var failures: [String] = []
        if file.keys != catalogue.keys {
            failures.append("keys: file \(file.keys), catalogue \(catalogue.keys)")
        }
        if file.publicationKeys != catalogue.publicationKeys {
            failures.append(
                "publicationKeys: file \(file.publicationKeys), catalogue \(catalogue.publicationKeys)")
        }
        if file.screenKeys != catalogue.screenKeys {
            failures.append("screenKeys: file \(file.screenKeys), catalogue \(catalogue.screenKeys)")
        }
        let groups = catalogue.groups.map { "\($0.id) (\($0.title)): \($0.keys.joined(separator: ", "))" }
        if file.groups != groups {
            failures.append("groups: file \(file.groups), catalogue \(groups)")
        }
        for descriptor in catalogue.descriptors {
            guard let entry = file.entries[descriptor.key] else {
                failures.append("\(descriptor.key): missing from the file")
                continue
            }
            let actual = SpecNode.describing(descriptor)
            for property in SpecNode.comparedProperties where actual[property] != entry[property] ?? .null {
                failures.append(
                    "\(descriptor.key).\(property): catalogue has \(actual[property] ?? .null), file has \(entry[property] ?? .null)"
                )
            }
            failures += fallbackMismatches(descriptor, entry["fallback"] ?? .null)
        }
        return failures
    }

    /// A fallback that is not a rule is both the descriptor's and what empty preferences resolve to.
    private func fallbackMismatches(_ descriptor: SettingDescriptor, _ fallback: SpecNode) -> [String] {
        guard fallback != .string("rule") else { return [] }
        var failures: [String] = []
        let resolved = emptyResolution[descriptor.key] ?? .null
        if resolved != fallback {
            failures.append("\(descriptor.key).fallback: resolves to \(resolved), file has \(fallback)")
        }
        let declared = descriptor.fallback.map(SpecNode.init(_:)) ?? .null
        if declared != fallback {
            failures.append(
                "\(descriptor.key).fallback: the descriptor declares \(declared), file has \(fallback)")
        }
        return failures
    }

    private func ruleMismatch(_ file: CatalogueFile, expected: [String]) -> [String] {
        let ruled = file.keys.filter { file.entries[$0]?["fallback"] == .string("rule") }
        return ruled == expected ? [] : ["rule-based fallbacks: file has \(ruled), expected \(expected)"]
    }
}

// MARK: - The file

/// `Specs/Settings/<configurable>.json`, parsed with the package's own JSON parser.
private struct CatalogueFile {
    var keys: [String] = []
    var publicationKeys: [String] = []
    /// The keys the form-factor scope policy keeps per device class (optional member).
    var screenKeys: [String] = []
    /// Each group as `id (title): key, key`.
    var groups: [String] = []
    var entries: [String: [String: SpecNode]] = [:]

    init(configurable: String) throws {
        // Tests/ReadingPreferencesTests/Support/<this file> → the package root.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appendingPathComponent("Specs/Settings/\(configurable).json")
        let document = SpecNode(try JSONValue(json: try Data(contentsOf: url)))
        guard case .object(let top) = document, top["configurable"] == .string(configurable),
            case .array(let publicationKeys)? = top["publicationKeys"],
            case .array(let settings)? = top["settings"]
        else { throw CatalogueFileError.malformed("top level of \(url.path)") }
        for node in publicationKeys {
            guard case .string(let key) = node else { throw CatalogueFileError.malformed("publicationKeys") }
            self.publicationKeys.append(key)
        }
        if case .array(let screenKeys)? = top["screenKeys"] {
            for node in screenKeys {
                guard case .string(let key) = node else { throw CatalogueFileError.malformed("screenKeys") }
                self.screenKeys.append(key)
            }
        }
        if case .array(let groups)? = top["groups"] {
            for node in groups {
                guard case .object(let group) = node, case .string(let id)? = group["id"],
                    case .string(let title)? = group["title"], case .array(let keys)? = group["keys"]
                else { throw CatalogueFileError.malformed("a group") }
                let names = keys.compactMap { node -> String? in
                    if case .string(let key) = node { return key }
                    return nil
                }
                self.groups.append("\(id) (\(title)): \(names.joined(separator: ", "))")
            }
        }
        for node in settings {
            guard case .object(let entry) = node, case .string(let key)? = entry["key"] else {
                throw CatalogueFileError.malformed("a settings entry without a key")
            }
            keys.append(key)
            entries[key] = entry
        }
    }
}

private enum CatalogueFileError: Error {
    case malformed(String)
}

// MARK: - A comparable JSON model

/// A plain JSON tree: numbers compare as doubles, objects ignore member order.
indirect enum SpecNode: Sendable, Equatable, CustomStringConvertible {
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

    /// The descriptor's properties in the form of a catalogue file entry.
    static func describing(_ descriptor: SettingDescriptor) -> [String: SpecNode] {
        [
            "kind": .string(descriptor.kind.rawValue),
            "coder": .string(descriptor.coder.catalogueName),
            "range": SpecNode(descriptor.range.map { [$0.lowerBound, $0.upperBound] }),
            "steps": SpecNode(descriptor.suggestedSteps),
            "increment": descriptor.suggestedIncrement.map(SpecNode.number) ?? .null,
            "supportedValues": descriptor.supportedValues.map { .array($0.map(SpecNode.init(_:))) } ?? .null,
            "scope": .string(descriptor.scope.rawValue),
            "format": .string(descriptor.format.catalogueName),
            "acceptsDefault": .bool(descriptor.acceptsDefault),
            "effectiveWhen": .array(descriptor.activator.parts.map(condition(of:))),
        ]
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
        case .derived(let derived) where derived.name == "stylesheets":
            return .object(["stylesheets": .array(derived.values.map { .string($0) })])
        case .derived(let derived) where derived.name == "scrollForced" && derived.values == ["false"]:
            return .object(["scrollNotForced": .bool(true)])
        case .derived(let derived):
            return .object([derived.name: .array(derived.values.map { .string($0) })])
        case .settingEquals(let key, let value):
            return .object(["settingEquals": .object(["key": .string(key), "value": SpecNode(value)])])
        case .settingDiffers(let key, let value):
            return .object(["settingDiffers": .object(["key": .string(key), "value": SpecNode(value)])])
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
