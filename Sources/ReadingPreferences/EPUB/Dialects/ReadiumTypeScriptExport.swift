import Foundation

/// EPUB preferences written for Readium's TypeScript navigator (Specs/CSS.md §2.3): each key of
/// ours in the navigator's name and unit, at its stored position; what an import kept (the
/// navigator's own members, `readium-ts:` keys, `null` members) written back as it came; then the
/// navigator's own checks run on every member, and what it would ignore (a wrong type, a value
/// out of its range, a member it does not have) is left out and listed, never written silently.
struct ReadiumTypeScriptExport {
    typealias Member = JSONObject.Member

    let preferences: Preferences
    let version: ReadiumTypeScriptVersion
    /// Whether the document turns publisher styles off (the navigator applies the keys that
    /// our model applies only then).
    let publisherStylesOff: Bool
    var dropped: [DialectExport.DroppedKey] = []
    var changed: [PreferenceDiagnostic] = []
    /// The `readium-ts:` keys written in place of ours (a value beyond our range, as it came).
    private var usedKept: Set<String> = []

    init(_ preferences: Preferences, version: ReadiumTypeScriptVersion) {
        self.preferences = preferences
        self.version = version
        publisherStylesOff = preferences["publisherStyles"] == .bool(false)
    }

    mutating func run() -> DialectExport {
        // First what our own keys become, then everything in stored order; a member written
        // from a key of ours is not written again from what an import kept.
        var translations: [Int: [Member]] = [:]
        // The navigator members a key of ours speaks for: its own name (an `auto` column count
        // says "none" as surely as a number says one) and what it is written as.
        var ours: Set<String> = []
        for (index, member) in preferences.members.enumerated() {
            guard let descriptor = EPUB.catalogue.descriptor(forKey: member.key) else { continue }
            guard let written = translate(member, descriptor) else {
                translations[index] = []
                continue
            }
            translations[index] = written
            ours.insert(member.key)
            for item in written { ours.insert(item.key) }
        }
        var output: [Member] = []
        var written: Set<String> = []
        func write(_ member: Member) {
            if written.insert(member.key).inserted { output.append(member) }
        }
        for (index, member) in preferences.members.enumerated() {
            if let translated = translations[index] {
                translated.forEach(write)
            } else if let name = ReadiumTypeScript.member(nullIn: member.key) {
                if ours.contains(name) || written.contains(name) {
                    drop(member.key, "a value of ours says \(name) now, not null")
                } else {
                    write(Member(key: name, value: .null))
                }
            } else if let name = ReadiumTypeScript.member(keptIn: member.key) {
                if usedKept.contains(member.key) {
                    continue  // written in place of ours, as it came
                } else if ours.contains(name) || written.contains(name) {
                    drop(member.key, "a value of ours says \(name) now")
                } else {
                    write(Member(key: name, value: member.value))
                }
            } else if member.key.hasPrefix("$") {
                drop(member.key, "a reserved key")
            } else if ours.contains(member.key) {
                // An import kept this member; a key of ours now says it.
                drop(member.key, "a value of ours says \(member.key) now")
            } else {
                write(member)
            }
        }
        let object = checked(output)
        // Listed in stored order, whichever step left a key out.
        var position: [String: Int] = [:]
        for (index, member) in preferences.members.enumerated() where position[member.key] == nil {
            position[member.key] = index
        }
        let listed = dropped.enumerated().sorted {
            (position[$0.element.key] ?? Int.max, $0.offset) < (
                position[$1.element.key] ?? Int.max, $1.offset
            )
        }
        return DialectExport(object: object, dropped: listed.map(\.element), changed: changed)
    }

    /// The navigator's own checks on every member (Specs/CSS.md §2.3.2): what it would ignore is
    /// left out and listed, with the reason.
    private mutating func checked(_ output: [Member]) -> JSONObject {
        let object = JSONObject(members: output)
        var kept: [Member] = []
        for member in output {
            if let reason = version.rejection(of: member.value, as: member.key, in: object) {
                drop(member.key, "the navigator would ignore it: \(reason)")
            } else {
                kept.append(member)
            }
        }
        return JSONObject(members: kept)
    }

    /// The navigator members a key of ours becomes; `nil` when it is dropped (and listed).
    private mutating func translate(_ member: Member, _ descriptor: SettingDescriptor) -> [Member]? {
        let key = member.key
        guard case .success(let decoded) = descriptor.coder.decode(member.value),
            case .success(let value) = descriptor.validator.validate(decoded)
        else {
            drop(key, "the stored value does not decode")
            return nil
        }
        if ReadiumTypeScript.oursOnly.contains(key) || key == "publisherStyles" {
            drop(key, "the navigator has no such setting")
            return nil
        }
        if ReadiumTypeScript.publisherStyleKeys.contains(key), !publisherStylesOff {
            // The navigator would apply it; our model does not while publisher styles are on.
            drop(key, "not applied while publisher styles are on")
            return nil
        }
        switch key {
        case "backgroundColor", "textColor":
            // A color string of ours is CSS already, in the case it came; a toolkit's integer is
            // written as `#RRGGBB`.
            if case .string = member.value { return [member] }
            return [Member(key: key, value: .string(value.colorValue?.hexString ?? ""))]
        case "columnCount":
            switch value.stringValue {
            case "1": return [Member(key: key, value: 1)]
            case "2": return [Member(key: key, value: 2)]
            // Auto: `null`, "no value, not the app's default", which is the navigator's auto.
            default: return [Member(key: key, value: .null)]
            }
        case "fontFamily":
            guard let name = value.stringValue else { return [] }
            return [Member(key: key, value: .string(FontFamilyRegistry.cssName(name)))]
        case "fontSize":
            return [number(member, value, into: ReadiumTypeScript.fontSizes)]
        case "fontWeight":
            return [number(member, value, into: ReadiumTypeScript.fontWeights)]
        case "letterSpacing", "lineHeight", "paragraphIndent", "paragraphSpacing", "wordSpacing":
            return [number(member, value)]
        case "textAlign", "hyphens", "ligatures", "scroll", "textNormalization":
            return [Member(key: key, value: descriptor.coder.encode(value))]
        case "imageFilter":
            switch value.stringValue {
            case "darken": return [Member(key: "darkenFilter", value: true)]
            case "invert": return [Member(key: "invertFilter", value: true)]
            default: return []
            }
        case "theme":
            return theme(value)
        default:
            drop(key, "the navigator has no such setting")
            return nil
        }
    }

    private mutating func drop(_ key: String, _ reason: String) {
        dropped.append(DialectExport.DroppedKey(key: key, reason: reason))
    }

    /// A number of ours in the navigator's unit (`ours × scale`), exact but for binary noise
    /// (a weight of 150.5 stays 150.5), clamped into the range the navigator accepts. A value an
    /// import kept beside ours (in the navigator's range, beyond ours) is written as it came while
    /// ours is still the one it was coerced to.
    private mutating func number(
        _ member: Member, _ value: SettingValue, into range: ClosedRange<Double>? = nil
    )
        -> Member
    {
        let scale = ReadiumTypeScript.scale(of: member.key) ?? 1
        let ours = value.doubleValue ?? 0
        if let kept = preferences[ReadiumTypeScript.kept(member.key)],
            let theirs = kept.numberValue?.doubleValue,
            theirs.isFinite, Self.coerced(theirs / scale, member.key) == ours,
            version.rejection(of: kept, as: member.key, in: JSONObject()) == nil
        {
            usedKept.insert(ReadiumTypeScript.kept(member.key))
            return Member(key: member.key, value: kept)
        }
        var theirs = ReadiumTypeScript.clean(ours * scale)
        if let range {
            let clamped = min(max(theirs, range.lowerBound), range.upperBound)
            if clamped != theirs {
                changed.append(
                    PreferenceDiagnostic(
                        .outOfRange, key: member.key, value: member.value,
                        coercedTo: .number(JSONNumber(clamped)),
                        note: "outside what the navigator accepts"))
                theirs = clamped
            }
        }
        if theirs == ours, scale == 1, case .number(let stored) = member.value, stored.doubleValue == ours {
            return member
        }
        return Member(key: member.key, value: .number(JSONNumber(theirs)))
    }

    /// A value of the navigator's, in our unit, coerced into our range as an import coerces it.
    private static func coerced(_ ours: Double, _ key: String) -> Double? {
        guard let descriptor = EPUB.catalogue.descriptor(forKey: key),
            case .success(let valid) = descriptor.validator.validate(.number(ReadiumTypeScript.clean(ours)))
        else { return nil }
        return valid.doubleValue
    }

    /// The navigator has no themes: a theme is written as its colors, where the document stores
    /// none of its own.
    private mutating func theme(_ value: SettingValue) -> [Member] {
        guard let name = value.stringValue, let theme = EPUB.Theme(rawValue: name) else { return [] }
        var members: [Member] = []
        for (key, color) in [("backgroundColor", theme.backgroundColor), ("textColor", theme.textColor)]
        where !storesColor(key) {
            members.append(Member(key: key, value: .string(color.hexString)))
        }
        changed.append(
            PreferenceDiagnostic(
                .renamedKey, key: "theme", value: .string(name),
                newKey: members.map(\.key).joined(separator: ", "),
                note: "the navigator has no themes: written as the theme's colors"))
        return members
    }

    /// Whether the document stores a color of ours under `key` that decodes.
    private func storesColor(_ key: String) -> Bool {
        guard let stored = preferences[key], let descriptor = EPUB.catalogue.descriptor(forKey: key) else {
            return false
        }
        if case .success = descriptor.coder.decode(stored) { return true }
        return false
    }
}
