/// Our EPUB keys and the key set of Readium's toolkits on Readium CSS 2, both ways: the step
/// `migrate` takes for the coming key changes, as a dialect first (Specs/CSS.md §5).
///
/// The key set is the Swift toolkit's EPUB preferences version 4 (its pull request moving to
/// Readium CSS 2), which Kotlin's new navigator shares where they overlap (`columnCount` an
/// integer, themes written as colors by its own navigator): `columnCount` is an integer (none for
/// automatic), `imageFilter` becomes `darkenImages` / `invertImages` strengths (with `blendImages`
/// and `invertGaiji` beside them), `publisherStyles` and `typeScale` are gone (every setting
/// applies as soon as it is set), `noRuby` and `lineLength` are new.
enum ReadiumCSS2KeySet {
    typealias Member = JSONObject.Member

    /// The version the Swift toolkit writes in its EPUB preferences since Readium CSS 2.
    static let formatVersion = 4
    /// Readium CSS 1's `darken` filter was `brightness(80%)`: a darkening of 0.2.
    static let darkenStrength = 0.2
    /// Readium CSS 1's `invert` filter was `invert(100%)`.
    static let invertStrength = 1.0
    /// The keys our model applies only with publisher styles off.
    static let publisherStyleKeys = ReadiumTypeScript.publisherStyleKeys
    /// Keys of the key set we have no setting for yet, carried verbatim both ways.
    static let newKeys: Set<String> = [
        "blendImages", "darkenImages", "invertGaiji", "invertImages", "lineLength", "noRuby",
    ]

    /// Ours → the key set.
    static func export(_ preferences: Preferences) -> DialectExport {
        var output: [Member] = [Member(key: "version", value: .number(JSONNumber(Double(formatVersion))))]
        var dropped: [DialectExport.DroppedKey] = []
        var changed: [PreferenceDiagnostic] = []
        let stylesOn = preferences["publisherStyles"] == .bool(true)
        let dark = preferences["theme"] == .string("dark")
        for member in preferences.members {
            let key = member.key
            guard let descriptor = EPUB.catalogue.descriptor(forKey: key) else {
                if newKeys.contains(key) {
                    output.append(member)
                } else {
                    dropped.append(
                        .init(key: key, reason: Preferences.undeclared(key, in: "Readium CSS 2's key set")))
                }
                continue
            }
            guard case .success(let value) = descriptor.coder.decode(member.value) else {
                dropped.append(.init(key: key, reason: "the stored value does not decode"))
                continue
            }
            switch key {
            case "publisherStyles":
                dropped.append(
                    .init(
                        key: key, reason: "not in Readium CSS 2: every setting applies as soon as it is set"))
            case "typeScale":
                dropped.append(.init(key: key, reason: "not in Readium CSS 2"))
            case _ where stylesOn && publisherStyleKeys.contains(key):
                dropped.append(
                    .init(key: key, reason: "ignored while publisher styles are on, applied in Readium CSS 2")
                )
            case "columnCount":
                if let count = Int(value.stringValue ?? "") {
                    output.append(Member(key: key, value: .number(JSONNumber(Double(count)))))
                    changed.append(
                        .init(.renamedKey, key: key, value: member.value, newKey: key, note: "an integer"))
                } else {
                    // Automatic: no member.
                    changed.append(
                        .init(
                            .renamedKey, key: key, value: member.value, newKey: key,
                            note: "automatic is no member"))
                }
            case "imageFilter":
                guard dark else {
                    dropped.append(
                        .init(key: key, reason: "applied with the dark theme only, which is not stored"))
                    continue
                }
                let (name, strength) =
                    value.stringValue == "darken"
                    ? ("darkenImages", darkenStrength) : ("invertImages", invertStrength)
                output.append(Member(key: name, value: .number(JSONNumber(strength))))
                changed.append(
                    .init(.renamedKey, key: key, value: member.value, newKey: name, note: "a strength"))
            default:
                output.append(Member(key: key, value: descriptor.coder.encode(value, colors: .readiumSwift)))
            }
        }
        return DialectExport(object: JSONObject(members: output), dropped: dropped, changed: changed)
    }

    /// The key set → ours: what has a key of ours is translated, the new keys kept verbatim.
    static func `import`(_ object: JSONObject) -> DialectImport {
        var members: [Member] = []
        var patch: [Member] = []
        var diagnostics: [PreferenceDiagnostic] = []
        var kept: [DialectImport.KeptMember] = []
        var dropped: [DialectExport.DroppedKey] = []
        func set(_ key: String, _ value: JSONValue) {
            members.append(Member(key: key, value: value))
            patch.append(Member(key: key, value: value))
        }
        func keep(_ member: Member, _ reason: String) {
            members.append(member)
            patch.append(member)
            kept.append(.init(key: member.key, keptAs: member.key, reason: reason))
            diagnostics.append(
                .init(.unknownKey, key: member.key, value: member.value, note: "kept: \(reason)"))
        }
        let darkens = object["darkenImages"]?.numberValue?.doubleValue == darkenStrength
        let inverts = object["invertImages"]?.numberValue?.doubleValue == invertStrength
        for member in object.members {
            switch member.key {
            case "version":
                dropped.append(.init(key: member.key, reason: "the format's version, not a preference"))
            case _ where member.value.isNull:
                patch.append(member)
            case "columnCount":
                if let count = member.value.numberValue?.doubleValue, count == 1 || count == 2 {
                    set("columnCount", .string(count == 1 ? "1" : "2"))
                } else {
                    keep(member, "ours counts auto, 1 or 2 columns")
                }
            case "darkenImages" where darkens && !inverts:
                set("imageFilter", "darken")
            case "invertImages" where inverts && !darkens:
                set("imageFilter", "invert")
            default:
                if newKeys.contains(member.key) || EPUB.catalogue.descriptor(forKey: member.key) == nil {
                    keep(member, "no setting of ours yet; written back on export")
                } else {
                    set(member.key, member.value)
                }
            }
        }
        return DialectImport(
            preferences: Preferences(JSONObject(members: members)), mergePatch: JSONObject(members: patch),
            diagnostics: diagnostics, keptAside: kept, dropped: dropped)
    }
}

extension EPUB {
    /// Migrates stored EPUB preferences to the key set of Readium's toolkits on Readium CSS 2
    /// (Specs/CSS.md §5): `columnCount` an integer, `imageFilter` the strength of `darkenImages` or
    /// `invertImages` (with the dark theme only, where it applied), the keys publisher styles kept
    /// from applying dropped where they were on, `publisherStyles` and `typeScale` dropped.
    ///
    /// ```swift
    /// let migrated = EPUB.migrate(stored)
    /// // {"theme":"dark","imageFilter":"darken","columnCount":"2"}
    /// //   → {"version":4,"theme":"dark","darkenImages":0.2,"columnCount":2}
    /// migrated.dropped   // what the key set has no place for, with why
    /// ```
    ///
    /// - Parameters:
    ///   - preferences: Stored preferences, in our keys.
    ///   - dialect: The key set to migrate to (``ReadiumDialect/readiumCSS2``, the default).
    /// - Returns: The migrated object, what was dropped and what was renamed or changed.
    public static func migrate(_ preferences: Preferences, to dialect: ReadiumDialect = .readiumCSS2)
        -> DialectExport
    {
        preferences.exported(dialect: dialect, for: EPUB.self)
    }
}
