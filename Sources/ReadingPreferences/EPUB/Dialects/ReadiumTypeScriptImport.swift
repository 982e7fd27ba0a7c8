import Foundation

/// A preferences object of Readium's TypeScript navigator read into our EPUB preferences
/// (Specs/CSS.md §2.3): each member it shares with us translated at its position; the
/// navigator's own members kept verbatim; a value of a shared member that has no value of ours
/// kept aside under a `readium-ts:` key; a value in the navigator's range beyond ours kept beside
/// the coerced value of ours; `null` members with the meaning the navigator gives them. Every
/// member that is not translated as it came is reported, and an export writes it back.
struct ReadiumTypeScriptImport {
    typealias Member = JSONObject.Member

    let object: JSONObject
    let version: ReadiumTypeScriptVersion
    private var members: [Member] = []
    private var patch: [Member] = []
    private var diagnostics: [PreferenceDiagnostic] = []
    private var kept: [DialectImport.KeptMember] = []
    /// Whether a key our model applies only without publisher styles was set.
    private var setsPublisherStyleKey = false
    /// Whether the object says `publisherStyles` itself (an early 2.0 navigator).
    private var setsPublisherStyles = false

    init(_ object: JSONObject, version: ReadiumTypeScriptVersion) {
        self.object = object
        self.version = version
    }

    mutating func run() -> DialectImport {
        let filter = translatedFilter()
        for member in object.members {
            read(member, filter: filter)
        }
        if setsPublisherStyleKey, !setsPublisherStyles {
            // As an edit of one of those keys would: the value is applied, as the navigator did.
            set("publisherStyles", false)
        }
        return DialectImport(
            preferences: Preferences(JSONObject(members: members)), mergePatch: JSONObject(members: patch),
            diagnostics: diagnostics, keptAside: kept)
    }

    /// The filter member that becomes our `imageFilter`: the one of `darkenFilter` and
    /// `invertFilter` that is `true` when the other is not.
    private func translatedFilter() -> String? {
        let darken = object["darkenFilter"] == .bool(true)
        let invert = object["invertFilter"] == .bool(true)
        if darken == invert { return nil }
        return darken ? "darkenFilter" : "invertFilter"
    }

    private mutating func read(_ member: Member, filter: String?) {
        let key = member.key
        let value = member.value
        if value.isNull {
            readNull(key)
            return
        }
        if !key.hasPrefix("$"), !key.hasPrefix(ReadiumTypeScript.keptPrefix) {
            // A member with a value says what it says now: a `null` an earlier import kept goes.
            patch.append(Member(key: ReadiumTypeScript.null(key), value: .null))
        }
        switch key {
        case "backgroundColor", "textColor":
            // Stored as it came (`#faf4e8` stays lower-case), when it is a color we read.
            if case .string = value, case .success = descriptor(key).coder.decode(value) {
                set(key, value)
            } else {
                keepAside(member, "a color of ours is a hex, rgb() or named color")
            }
        case "columnCount":
            switch value.numberValue?.doubleValue {
            case 1: set(key, "1")
            case 2: set(key, "2")
            default: keepAside(member, "ours counts auto, 1 or 2 columns")
            }
        case "fontFamily":
            if let css = value.stringValue, let name = ReadiumTypeScript.singleFamily(css), !name.isEmpty {
                set(key, .string(name))
            } else {
                keepAside(member, "ours names one family, not a list of them")
            }
        case "fontSize", "fontWeight", "letterSpacing", "lineHeight", "paragraphIndent", "paragraphSpacing",
            "wordSpacing":
            number(member, scale: ReadiumTypeScript.scale(of: key) ?? 1)
        case "textAlign":
            if case .string = value, case .success = descriptor(key).coder.decode(value) {
                set(key, value)
            } else {
                keepAside(member, "ours aligns start, left, right or justify")
            }
        case "hyphens", "ligatures", "scroll", "textNormalization":
            if case .bool = value { set(key, value) } else { keepAside(member, "ours is true or false") }
        case "darkenFilter", "invertFilter":
            if key == filter {
                set("imageFilter", key == "darkenFilter" ? "darken" : "invert")
                // What an earlier import kept of the member goes: ours says it now.
                patch.append(Member(key: key, value: .null))
            } else {
                keep(member, "only a filter that is true alone is our image filter")
                // The navigator's filters say what they say now (off, a strength, both): our
                // image filter must not outlive them.
                if filter == nil { patch.append(Member(key: "imageFilter", value: .null)) }
            }
        case "theme":
            // An early 2.0 navigator's themes; later ones have none.
            switch value.stringValue {
            case "day": set(key, "light")
            case "night": set(key, "dark")
            case "sepia": set(key, "sepia")
            default: keepAside(member, "ours are light, dark and sepia")
            }
        case "publisherStyles":
            if case .bool = value {
                set(key, value)
                setsPublisherStyles = true
            } else {
                keepAside(member, "ours is true or false")
            }
        default:
            if EPUB.catalogue.descriptor(forKey: key) != nil {
                // One of our keys the navigator has no member of that name for (`imageFilter`,
                // `pageMargins`...): never read as ours.
                keepAside(member, "the navigator has no such member; not read as ours")
            } else if key.hasPrefix("$") || key.hasPrefix(ReadiumTypeScript.keptPrefix) {
                // A name an export would not write back as it is (a reserved key; one that
                // looks kept aside already): kept aside, so the export gives it back unchanged.
                keepAside(member, "a name of this form is kept aside", clearingOurs: false)
            } else {
                keep(member, "no setting of ours; written back on export")
            }
        }
    }

    private func descriptor(_ key: String) -> SettingDescriptor {
        EPUB.catalogue.descriptor(forKey: key) ?? EPUB.fontSize.descriptor
    }

    /// A number in the navigator's unit, as ours (`theirs / scale`), coerced into our range. A
    /// value the navigator would ignore is kept aside; one its editor offers that ours cannot hold
    /// is kept verbatim beside the coerced value of ours, so an export gives it back as it came.
    private mutating func number(_ member: Member, scale: Double) {
        guard let theirs = member.value.numberValue, theirs.isFinite else {
            keepAside(member, "ours is a number")
            return
        }
        if let reason = version.rejection(of: member.value, as: member.key, in: object) {
            keepAside(member, "the navigator ignores it too: \(reason)")
            return
        }
        let ours = ReadiumTypeScript.clean(theirs.doubleValue / scale)
        guard case .success(let valid) = descriptor(member.key).validator.validate(.number(ours)),
            let coerced = valid.doubleValue
        else {
            keepAside(member, "ours is a number in range")
            return
        }
        if coerced == ours {
            set(member.key, scale == 1 ? member.value : .number(JSONNumber(ours)))
            return
        }
        let besides = version.editorOffers(theirs.doubleValue, for: member.key)
        let keptAs = ReadiumTypeScript.kept(member.key)
        diagnostics.append(
            PreferenceDiagnostic(
                .outOfRange, key: member.key, value: member.value, coercedTo: .number(JSONNumber(coerced)),
                note: besides
                    ? "ours takes \(NumberFormatting.decimal(coerced)); the navigator's value is kept as \(keptAs)"
                    : "outside what the navigator's editor offers too; ours takes \(NumberFormatting.decimal(coerced))"
            ))
        set(member.key, .number(JSONNumber(coerced)))
        if besides {
            // After `set`, which clears the key kept aside: this value is the newer one.
            members.append(Member(key: keptAs, value: member.value))
            patch.removeAll { $0.key == keptAs }
            patch.append(Member(key: keptAs, value: member.value))
            kept.append(
                .init(key: member.key, keptAs: keptAs, reason: "beyond our range, in the navigator's"))
        }
    }

    /// Stores a key of ours, and clears what an earlier import kept aside for it.
    private mutating func set(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
        patch.append(Member(key: key, value: value))
        patch.append(Member(key: ReadiumTypeScript.kept(key), value: .null))
        if ReadiumTypeScript.publisherStyleKeys.contains(key) { setsPublisherStyleKey = true }
    }

    /// A member of a name of ours whose value has no value of ours: kept under `readium-ts:` (and the
    /// key of ours cleared, since the navigator's value is the newer one).
    private mutating func keepAside(_ member: Member, _ reason: String, clearingOurs: Bool = true) {
        let keptAs = ReadiumTypeScript.kept(member.key)
        members.append(Member(key: keptAs, value: member.value))
        patch.append(Member(key: keptAs, value: member.value))
        if clearingOurs { patch.append(Member(key: member.key, value: .null)) }
        let code: PreferenceDiagnostic.Code
        switch (Self.navigatorType(of: member.key), member.value) {
        case (nil, _): code = .unknownKey
        case ("string", .string), ("number", .number), ("boolean", .bool): code = .unsupportedValue
        default: code = .typeMismatch
        }
        diagnostics.append(
            PreferenceDiagnostic(
                code, key: member.key, value: member.value, note: "kept as \(keptAs): \(reason)"))
        kept.append(.init(key: member.key, keptAs: keptAs, reason: reason))
    }

    /// The JSON type the navigator declares for a member it shares with us, or `nil` for a key
    /// of ours it does not have.
    static func navigatorType(of key: String) -> String? {
        switch key {
        case "backgroundColor", "textColor", "fontFamily", "textAlign", "theme": return "string"
        case "hyphens", "ligatures", "scroll", "textNormalization", "publisherStyles": return "boolean"
        case "columnCount", "fontSize", "fontWeight", "letterSpacing", "lineHeight", "paragraphIndent",
            "paragraphSpacing", "wordSpacing":
            return "number"
        default: return nil
        }
    }

    /// A member of the navigator's own, kept as it came.
    private mutating func keep(_ member: Member, _ reason: String) {
        members.append(member)
        patch.append(member)
        diagnostics.append(
            PreferenceDiagnostic(.unknownKey, key: member.key, value: member.value, note: "kept: \(reason)"))
        kept.append(.init(key: member.key, keptAs: member.key, reason: reason))
    }

    /// A `null` member, with the meaning the navigator gives it: a column count of `null` is our
    /// `auto`; any other `null` clears the key of ours and what was kept for it, and is kept under
    /// `readium-ts:null:<name>` so an export writes it back. Where the navigator reads it as "no value,
    /// ignore the app's default" and ours cannot say that, the difference is reported.
    private mutating func readNull(_ key: String) {
        if key == "columnCount" {
            set(key, "auto")
            patch.append(Member(key: ReadiumTypeScript.null(key), value: .null))
            return
        }
        switch key {
        case "darkenFilter", "invertFilter":
            patch.append(Member(key: key, value: .null))
            if translatedFilter() == nil { patch.append(Member(key: "imageFilter", value: .null)) }
        default:
            patch.append(Member(key: key, value: .null))
            if !key.hasPrefix("$") { patch.append(Member(key: ReadiumTypeScript.kept(key), value: .null)) }
        }
        guard !key.hasPrefix("$"), !key.hasPrefix(ReadiumTypeScript.keptPrefix) else { return }
        let keptAs = ReadiumTypeScript.null(key)
        members.append(Member(key: keptAs, value: true))
        patch.append(Member(key: keptAs, value: true))
        kept.append(.init(key: key, keptAs: keptAs, reason: "null, written back as null"))
        if EPUB.catalogue.descriptor(forKey: key) != nil, version.nullMeaning(of: key) == .noValue {
            diagnostics.append(
                PreferenceDiagnostic(
                    .unsupportedValue, key: key, value: .null,
                    note:
                        "null is \"no value, not the app's default\" to the navigator; ours has no such value, "
                        + "so ours is unset (the app's default applies); kept in \(keptAs)"))
        }
    }
}
