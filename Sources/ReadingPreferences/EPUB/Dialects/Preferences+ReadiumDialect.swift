import Foundation

/// A Readium toolkit whose stored JSON an export must be readable by, and an import reads
/// (Specs/CSS.md §2). The raw value is the dialect's name everywhere: the back end's `dialect`
/// parameter, the conformance vectors, the command-line tool.
///
/// ```swift
/// ReadiumDialect(rawValue: "readium-ts@2.2")   // .readiumTypeScript22
/// ReadiumDialect.allCases.map(\.rawValue)      // every name, for a usage line
/// ```
public enum ReadiumDialect: String, Sendable, Hashable, Codable, CaseIterable {
    /// Readium's Swift toolkit 3.x: colors as non-negative `0xRRGGBB` integers.
    case readiumSwift = "readium-swift"
    /// Readium's Kotlin toolkit 3.x: colors as negative ARGB integers, and no `spread: auto`.
    case readiumKotlin = "readium-kotlin"
    /// Readium's TypeScript navigator (web readers), the newest version checked
    /// (`@readium/navigator` 2.12.x): other names and units for some EPUB settings, no themes,
    /// and members we do not have (Specs/CSS.md §2.3). The name follows the navigator: when a
    /// newer version is checked, `readium-ts` means it.
    case readiumTypeScript = "readium-ts"
    /// Readium's TypeScript navigator 2.2.5, for web readers still on it (Specs/CSS.md §2.3).
    case readiumTypeScript22 = "readium-ts@2.2"
    /// The key set of Readium's toolkits on Readium CSS 2 (the Swift toolkit's EPUB preferences
    /// version 4): `columnCount` an integer, the image filter as strengths, no publisher styles
    /// nor type scale (Specs/CSS.md §5). The step `migrate` takes.
    case readiumCSS2 = "readium-css2"

    /// The navigator version a TypeScript dialect was checked against, or `nil`.
    var typeScriptVersion: ReadiumTypeScriptVersion? {
        switch self {
        case .readiumTypeScript: return .navigator212
        case .readiumTypeScript22: return .navigator22
        default: return nil
        }
    }
}

/// Preferences written in a Readium dialect, and what the writing left out or changed.
public struct DialectExport: Sendable, Hashable {
    /// A key that was not written, and why.
    public struct DroppedKey: Sendable, Hashable {
        /// The key.
        public var key: String
        /// Why, in English: `"no such setting in readium-ts"`, `"a reserved key"`...
        public var reason: String

        /// Creates a dropped key.
        ///
        /// - Parameters:
        ///   - key: The key.
        ///   - reason: Why it was not written.
        public init(key: String, reason: String) {
            self.key = key
            self.reason = reason
        }
    }

    /// The JSON object, in the dialect.
    public var object: JSONObject
    /// The keys of the preferences that were not written (the dialect has nothing for them,
    /// or their stored value does not decode), in stored order, each with its reason.
    public var dropped: [DroppedKey]
    /// The values that were written changed: clamped into the dialect's range
    /// (``PreferenceDiagnostic/Code/outOfRange``), or written under other names
    /// (``PreferenceDiagnostic/Code/renamedKey``: a theme as its colors).
    public var changed: [PreferenceDiagnostic]

    /// Creates an export.
    ///
    /// - Parameters:
    ///   - object: The JSON object, in the dialect.
    ///   - dropped: The keys not written.
    ///   - changed: The values written changed.
    public init(object: JSONObject, dropped: [DroppedKey] = [], changed: [PreferenceDiagnostic] = []) {
        self.object = object
        self.dropped = dropped
        self.changed = changed
    }
}

/// Preferences read from a Readium dialect, and what the reading could not translate.
public struct DialectImport: Sendable, Hashable {
    /// A member of the dialect's object that was not translated into a key of ours as it came,
    /// and where it is kept.
    public struct KeptMember: Sendable, Hashable {
        /// The member's name in the dialect.
        public var key: String
        /// The key that keeps it: its own name (a member we have no setting for), a
        /// `readium-ts:` key (a value with no value of ours, or one beyond our range), or a
        /// `readium-ts:null:` key (a `null` member).
        public var keptAs: String
        /// Why, in English.
        public var reason: String

        /// Creates a kept member.
        ///
        /// - Parameters:
        ///   - key: The member's name.
        ///   - keptAs: The key that keeps it.
        ///   - reason: Why.
        public init(key: String, keptAs: String, reason: String) {
            self.key = key
            self.keptAs = keptAs
            self.reason = reason
        }
    }

    /// The preferences, in our JSON: `null` members left out.
    public var preferences: Preferences
    /// The same as a JSON merge patch over stored preferences: also `null` for each key the
    /// import clears (the dialect's `null` members, and the counterparts of what it set), so
    /// that what an earlier import kept aside does not outlive a newer value.
    public var mergePatch: JSONObject
    /// What was not translated: members kept verbatim with no setting of ours
    /// (``PreferenceDiagnostic/Code/unknownKey``), values with no value of ours kept aside
    /// (``PreferenceDiagnostic/Code/unsupportedValue``, ``PreferenceDiagnostic/Code/typeMismatch``),
    /// values coerced into our ranges (``PreferenceDiagnostic/Code/outOfRange``).
    public var diagnostics: [PreferenceDiagnostic]
    /// The members kept rather than translated as they came, and where.
    public var keptAside: [KeptMember]
    /// The members left out altogether, with why.
    public var dropped: [DialectExport.DroppedKey]

    /// The values coerced into our ranges (``PreferenceDiagnostic/Code/outOfRange``): what a key
    /// of ours now says instead of the dialect's value.
    public var coerced: [PreferenceDiagnostic] { diagnostics.filter { $0.code == .outOfRange } }

    /// Creates an import.
    ///
    /// - Parameters:
    ///   - preferences: The preferences.
    ///   - mergePatch: The same as a merge patch.
    ///   - diagnostics: What was not translated.
    ///   - keptAside: The members kept rather than translated.
    ///   - dropped: The members left out.
    public init(
        preferences: Preferences, mergePatch: JSONObject, diagnostics: [PreferenceDiagnostic] = [],
        keptAside: [KeptMember] = [], dropped: [DialectExport.DroppedKey] = []
    ) {
        self.preferences = preferences
        self.mergePatch = mergePatch
        self.diagnostics = diagnostics
        self.keptAside = keptAside
        self.dropped = dropped
    }
}

extension Preferences {
    /// Encodes these preferences so that a Readium toolkit can decode them, and lists what it
    /// dropped (Specs/CSS.md §2.2, §2.3). For Swift and Kotlin: only the keys the schema
    /// declares, with values it can decode, no `$` keys, colors as integers, and for Kotlin no
    /// `spread: auto`. For TypeScript: the navigator's names and units (``exported(dialect:for:)``).
    ///
    /// ```swift
    /// let (data, dropped) = preferences.encoded(dialect: .readiumKotlin, for: EPUB.self)
    /// ```
    public func encoded<Schema: SettingsSchema>(
        dialect: ReadiumDialect, for schema: Schema.Type, options: JSONEncodingOptions = .init()
    ) -> (data: Data, dropped: [String]) {
        let export = exported(dialect: dialect, for: schema)
        return (JSONValue.object(export.object).jsonData(options: options), export.dropped.map(\.key))
    }

    /// These preferences in a Readium dialect, with what was dropped and what was changed on
    /// the way (Specs/CSS.md §2.2, §2.3).
    ///
    /// ```swift
    /// let export = preferences.exported(dialect: .readiumTypeScript, for: EPUB.self)
    /// // {"fontWeight": 1.75} → {"fontWeight": 700}; {"theme": "dark"} → the theme's colors
    /// ```
    ///
    /// - Parameters:
    ///   - dialect: The toolkit.
    ///   - schema: The configurable the preferences belong to.
    /// - Returns: The object, the keys dropped and the values changed.
    public func exported<Schema: SettingsSchema>(dialect: ReadiumDialect, for schema: Schema.Type)
        -> DialectExport
    {
        switch dialect {
        case .readiumSwift: return exportedForReadium(Schema.catalogue, colors: .readiumSwift, kotlin: false)
        case .readiumKotlin: return exportedForReadium(Schema.catalogue, colors: .readiumKotlin, kotlin: true)
        case .readiumTypeScript, .readiumTypeScript22:
            if Schema.identifier == EPUB.identifier, let version = dialect.typeScriptVersion {
                var export = ReadiumTypeScriptExport(self, version: version)
                return export.run()
            }
            return exportedVerbatim(Schema.catalogue)
        case .readiumCSS2:
            if Schema.identifier == EPUB.identifier { return ReadiumCSS2KeySet.export(self) }
            return exportedForReadium(Schema.catalogue, colors: .readiumSwift, kotlin: false)
        }
    }

    /// Reads a Readium toolkit's preferences object into ours (Specs/CSS.md §2.1, §2.3). Swift
    /// and Kotlin JSON needs nothing special (our decoding reads their integer colors); the
    /// TypeScript navigator's EPUB preferences are translated, and what has no translation is
    /// kept and reported.
    ///
    /// ```swift
    /// let read = Preferences.imported(["fontWeight": 700, "darkenFilter": true],
    ///                                 dialect: .readiumTypeScript, for: EPUB.self)
    /// // {"fontWeight": 1.75, "imageFilter": "darken"}
    /// ```
    ///
    /// - Parameters:
    ///   - object: The toolkit's preferences object.
    ///   - dialect: The toolkit.
    ///   - schema: The configurable the preferences belong to.
    /// - Returns: The preferences, the same as a merge patch, and what was not translated.
    public static func imported<Schema: SettingsSchema>(
        _ object: JSONObject, dialect: ReadiumDialect, for schema: Schema.Type
    ) -> DialectImport {
        if Schema.identifier == EPUB.identifier {
            if let version = dialect.typeScriptVersion {
                var reading = ReadiumTypeScriptImport(object, version: version)
                return reading.run()
            }
            if dialect == .readiumCSS2 { return ReadiumCSS2KeySet.import(object) }
        }
        let members = object.members.filter { !$0.value.isNull }
        return DialectImport(preferences: Preferences(members: members), mergePatch: object)
    }

    /// Swift and Kotlin: the declared keys with values that decode, colors as integers.
    func exportedForReadium(_ catalogue: SettingCatalogue, colors: ColorEncoding, kotlin: Bool)
        -> DialectExport
    {
        var exported: [JSONObject.Member] = []
        var dropped: [DialectExport.DroppedKey] = []
        let toolkit = kotlin ? "Readium Kotlin" : "Readium Swift"
        for member in members {
            guard let descriptor = catalogue.descriptor(forKey: member.key) else {
                dropped.append(.init(key: member.key, reason: Self.undeclared(member.key, in: toolkit)))
                continue
            }
            guard case .success(let value) = descriptor.coder.decode(member.value) else {
                dropped.append(.init(key: member.key, reason: "the stored value does not decode"))
                continue
            }
            // Kotlin's EPUB preferences have no `fit` nor `offsetFirstPage`, and refuse `spread: auto`.
            if kotlin,
                ["fit", "offsetFirstPage"].contains(member.key)
                    || (member.key == "spread" && value == .string("auto"))
            {
                dropped.append(.init(key: member.key, reason: "\(toolkit) cannot read it"))
                continue
            }
            exported.append(.init(key: member.key, value: descriptor.coder.encode(value, colors: colors)))
        }
        return DialectExport(object: JSONObject(members: exported), dropped: dropped)
    }

    /// Why a key a toolkit does not declare is dropped.
    static func undeclared(_ key: String, in toolkit: String) -> String {
        key.hasPrefix("$") ? "a reserved key" : "\(toolkit) has no such setting"
    }

    /// A configurable the TypeScript dialect does not translate: every key as stored but the
    /// reserved `$` keys and values that do not decode.
    private func exportedVerbatim(_ catalogue: SettingCatalogue) -> DialectExport {
        var exported: [JSONObject.Member] = []
        var dropped: [DialectExport.DroppedKey] = []
        for member in members {
            if member.key.hasPrefix("$") {
                dropped.append(.init(key: member.key, reason: "a reserved key"))
            } else if let descriptor = catalogue.descriptor(forKey: member.key),
                case .failure = descriptor.coder.decode(member.value)
            {
                dropped.append(.init(key: member.key, reason: "the stored value does not decode"))
            } else {
                exported.append(member)
            }
        }
        return DialectExport(object: JSONObject(members: exported), dropped: dropped)
    }
}
