import Foundation
import ReadingPreferences

/// Why a setting has the value it has (Specs/Store.md §15.5): its effective value and whether it
/// takes effect, every layer that holds its key (highest first) with the value there and where
/// that value came from, which of them wins, and the app default and fallback below them.
///
/// ```swift
/// let why = try await store.explanation(of: "fontSize", for: bookID, context: book)
/// print(why)
/// // fontSize 1.4 (140%) — this book, set on Kobo Clara, 3 days ago (2026-11-25T18:02:11Z, edit)
/// //   all books: 1 (set on iPhone, 2026-10-02T09:00:00Z (sync))
/// ```
public struct SettingExplanation: Sendable, Hashable, CustomStringConvertible {
    /// A layer that holds the key.
    public struct Holder: Sendable, Hashable {
        /// The layer.
        public var layer: StoreLayer
        /// The profile's display name, for a profile.
        public var profileName: String?
        /// The stored value.
        public var value: JSONValue
        /// Where it came from, when known.
        public var provenance: Provenance?
        /// Whether this is the value that resolves.
        public var wins: Bool

        /// Creates a holder.
        public init(
            layer: StoreLayer, profileName: String? = nil, value: JSONValue, provenance: Provenance?,
            wins: Bool
        ) {
            self.layer = layer
            self.profileName = profileName
            self.value = value
            self.provenance = provenance
            self.wins = wins
        }

        /// The layer for people: `overrides`, `this book`, `this device`, `devices like this
        /// (eink)`, `profile Night`, `all books`.
        public var name: String {
            switch layer {
            case .overrides: return "overrides"
            case .publication: return "this book"
            case .device: return "this device"
            case .deviceClass(let id): return "devices like this (\(id))"
            case .profile(let id): return "profile \(profileName ?? id)"
            case .shared: return "all books"
            case .rules: return "rules"
            }
        }
    }

    /// The setting's key.
    public var key: String
    /// The effective value, in JSON; `nil` when none.
    public var value: JSONValue?
    /// The effective value for people (`140%`).
    public var formatted: String
    /// Whether it takes effect.
    public var isEffective: Bool
    /// Why it does not.
    public var reasons: [IneffectiveReason]
    /// Where the effective value came from.
    public var source: SettingSource
    /// Every layer holding the key, highest first.
    public var holders: [Holder]
    /// The app default, when the app gives one.
    public var appDefault: JSONValue?
    /// The configurable's fallback, when it has one.
    public var fallback: JSONValue?
    /// Who chose the profile the value comes from: a rule (its position and conditions) or the
    /// reader by hand (Specs/Store.md §4.5); `nil` when it comes from no profile.
    public var profileChoice: ProfileChoice?
    /// The profile that is the base on this device for this publication, and who chose it, even
    /// when the value comes from elsewhere; `nil` when shared is the base.
    public var baseProfile: BaseProfile?
    /// Rules that held but were skipped because the profile they name is missing (indexes from
    /// 0), each with the profile's id (Specs/Store.md §4.5).
    public var skippedRules: [SkippedRule] = []

    /// A rule that held but names a missing profile, so the next rule was tried.
    public struct SkippedRule: Sendable, Hashable {
        /// The rule's index in the rules document, from 0.
        public var index: Int
        /// The missing profile's id.
        public var profile: String

        /// Creates a skipped rule.
        public init(index: Int, profile: String) {
            self.index = index
            self.profile = profile
        }
    }

    /// The profile a device resolves in place of shared, and who chose it (Specs/Store.md §4.5).
    public struct BaseProfile: Sendable, Hashable, CustomStringConvertible {
        /// The profile's id.
        public var id: String
        /// Its display name, when it has one.
        public var name: String?
        /// The rule that chose it, or the reader by hand.
        public var choice: ProfileChoice?

        /// Creates a base profile.
        public init(id: String, name: String?, choice: ProfileChoice?) {
            self.id = id
            self.name = name
            self.choice = choice
        }

        /// `profile Night, rule 1 (appearance dark)` or `profile Night, chosen by hand`.
        public var description: String {
            "profile \(name ?? id)" + (choice.map { ", \($0)" } ?? "")
        }

        /// `{"layer": "profile", "id", "name"?, "chosenBy"?}`.
        public var jsonValue: JSONValue {
            var members: [JSONObject.Member] = [
                .init(key: "layer", value: "profile"), .init(key: "id", value: .string(id)),
            ]
            if let name { members.append(.init(key: "name", value: .string(name))) }
            if let choice { members.append(.init(key: "chosenBy", value: choice.jsonValue)) }
            return .object(JSONObject(members: members))
        }
    }

    /// Creates an explanation.
    public init(
        key: String, value: JSONValue?, formatted: String, isEffective: Bool, reasons: [IneffectiveReason],
        source: SettingSource, holders: [Holder], appDefault: JSONValue?, fallback: JSONValue?
    ) {
        self.key = key
        self.value = value
        self.formatted = formatted
        self.isEffective = isEffective
        self.reasons = reasons
        self.source = source
        self.holders = holders
        self.appDefault = appDefault
        self.fallback = fallback
    }

    /// The explanation as data: `{"key", "value", "formatted", "effective", "reasons": [{"code",
    /// "text"}], "source", "layers": [{"layer", "id"?, "name", "value", "provenance", "wins"}],
    /// "default", "fallback", "base"?}` (provenance `null` when not known; `base` only when a
    /// profile is the base: ``BaseProfile/jsonValue``).
    public var jsonValue: JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "key", value: .string(key)), .init(key: "value", value: value ?? .null),
            .init(key: "formatted", value: .string(formatted)),
            .init(key: "effective", value: .bool(isEffective)),
            .init(
                key: "reasons",
                value: .array(
                    reasons.map { .object(["code": .string($0.code), "text": .string($0.description)]) })),
        ]
        members += source.jsonMembers
        if let profileChoice { members.append(.init(key: "chosenBy", value: profileChoice.jsonValue)) }
        members.append(
            .init(
                key: "layers",
                value: .array(
                    holders.map { holder in
                        var object: [JSONObject.Member] = [
                            .init(key: "layer", value: .string(holder.layer.code))
                        ]
                        if let id = holder.layer.identifier {
                            object.append(.init(key: "id", value: .string(id)))
                        }
                        object += [
                            .init(key: "name", value: .string(holder.name)),
                            .init(key: "value", value: holder.value),
                            .init(key: "provenance", value: holder.provenance?.jsonValue ?? .null),
                            .init(key: "wins", value: .bool(holder.wins)),
                        ]
                        return .object(JSONObject(members: object))
                    })))
        members.append(.init(key: "default", value: appDefault ?? .null))
        members.append(.init(key: "fallback", value: fallback ?? .null))
        if let baseProfile { members.append(.init(key: "base", value: baseProfile.jsonValue)) }
        if !skippedRules.isEmpty {
            members.append(
                .init(
                    key: "skippedRules",
                    value: .array(
                        skippedRules.map {
                            ["rule": .number(JSONNumber($0.index + 1)), "profile": .string($0.profile)]
                        })))
        }
        return .object(JSONObject(members: members))
    }

    /// Lines for people: the effective value, where it comes from, then every other layer that
    /// holds the key, the app default and the fallback, the profile that is the base (when the
    /// value does not come from it) and who chose it, and why it does not take effect.
    public var description: String {
        description(now: Milliseconds.now())
    }

    /// ``description`` with ages told from `now` (milliseconds since 1970).
    public func description(now: UInt64) -> String {
        var first = "\(key) \(value?.jsonString() ?? "none") (\(formatted))"
        if let winner = holders.first(where: \.wins) {
            first += " — \(winner.name)"
            if winner.layer.profileID != nil, let profileChoice { first += " (\(profileChoice))" }
            first += ", " + Self.told(winner.provenance, now: now)
        } else {
            first += " — \(source)"
        }
        var lines = [first]
        for holder in holders where !holder.wins {
            lines.append(
                "  \(holder.name): \(holder.value.jsonString()) (\(Self.told(holder.provenance, now: now)))")
        }
        if let appDefault { lines.append("  app default: \(appDefault.jsonString())") }
        if let fallback { lines.append("  fallback: \(fallback.jsonString())") }
        if let baseProfile, holders.first(where: \.wins)?.layer.profileID == nil {
            lines.append("  in place of all books here: \(baseProfile)")
        }
        for skipped in skippedRules {
            lines.append("  rule \(skipped.index + 1) skipped: its profile \(skipped.profile) is missing")
        }
        if !isEffective {
            lines.append("  not in effect: " + reasons.map(\.description).joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    /// `set on Kobo Clara, 3 days ago (2026-11-26T18:02:11Z, edit)`, `set on iPhone,
    /// 2026-10-02T09:00:00Z (sync)` past 30 days, or `provenance unknown`.
    static func told(_ provenance: Provenance?, now: UInt64) -> String {
        guard let provenance else { return "provenance unknown" }
        let time = moment(provenance.time)
        let cause = provenance.origin.map { $0.rawValue }
        let seconds = now > provenance.time ? (now - provenance.time) / 1000 : 0
        guard seconds < 30 * 86_400 else {
            return "set on \(provenance.device), \(time)" + (cause.map { " (\($0))" } ?? "")
        }
        return "set on \(provenance.device), \(age(provenance.time, now: now)) ("
            + ([time] + (cause.map { [$0] } ?? [])).joined(separator: ", ") + ")"
    }

    /// A time to the second, in UTC: `2026-11-26T18:02:11Z`.
    static func moment(_ time: UInt64) -> String {
        let text = Provenance.iso8601(time)
        guard let dot = text.firstIndex(of: ".") else { return text }
        return String(text[..<dot]) + "Z"
    }

    /// `just now`, `5 minutes ago`, `3 days ago`, or the date for more than 30 days; a time more
    /// than a minute after `now` (a clock that was ahead, the other device's or this one's
    /// behind: stamps never go back) is said so, `59 minutes ahead of this device's clock`.
    static func age(_ time: UInt64, now: UInt64) -> String {
        guard time <= now else {
            let ahead = (time - now) / 1000
            return ahead < 60 ? "just now" : "\(span(ahead)) ahead of this device's clock"
        }
        let seconds = (now - time) / 1000
        switch seconds {
        case ..<60: return "just now"
        case ..<(30 * 86_400): return "\(span(seconds)) ago"
        default: return "on " + String(Provenance.iso8601(time).prefix(10))
        }
    }

    /// A length of time of at least a minute, in its largest whole unit: `1 minute`, `5 hours`,
    /// `3 days`.
    static func span(_ seconds: UInt64) -> String {
        let (count, unit): (UInt64, String) =
            switch seconds {
            case ..<3600: (seconds / 60, "minute")
            case ..<86_400: (seconds / 3600, "hour")
            default: (seconds / 86_400, "day")
            }
        return "\(count) \(unit)\(count == 1 ? "" : "s")"
    }
}

extension PreferencesStore {
    /// Why a setting of a publication has the value it has (Specs/Store.md §15.5).
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - publication: The publication, or `nil` for shared (or the active profile) alone.
    ///   - context: What the configurable knows of the publication.
    /// - Returns: The explanation, or `nil` when the configurable has no such setting.
    /// - Throws: ``StorageError``.
    public func explanation(
        of key: String, for publication: String? = nil, context: PublicationContext = PublicationContext()
    )
        async throws -> SettingExplanation?
    {
        guard let slot = Schema.catalogue.slot(forKey: key) else { return nil }
        let descriptor = Schema.catalogue.descriptors[slot]
        let inputs = try await inputs(for: publication, context: context)
        guard
            let attributed = try await attributedSettings(of: inputs, context: context).first(where: {
                $0.key == descriptor.key
            })
        else { return nil }
        let editor = PreferencesEditor<Schema>(
            preferences: inputs.merged, resolver: resolver(context), overrides: inputs.overrides)
        let snapshot = editor.handle(forKey: descriptor.key)?.snapshot
        let devices = await devices()
        var holders: [SettingExplanation.Holder] = []
        let winning: StoreLayer?
        switch attributed.source {
        case .override: winning = .overrides
        case .publication: winning = publication.map(StoreLayer.publication)
        case .device: winning = .device
        case .deviceClass(let id): winning = .deviceClass(id)
        case .profile, .shared: winning = inputs.base
        default: winning = nil
        }
        let layers = [(.overrides, inputs.overrides)] + inputs.editableLayers
        for (layer, document) in layers {
            guard let member = document.storedMember(of: descriptor) else { continue }
            let index = try await provenanceIndex(of: layer, devices: devices)
            holders.append(
                SettingExplanation.Holder(
                    layer: layer,
                    profileName: layer.profileID.flatMap { _ in
                        inputs.baseDocument[Profile.nameKey]?.stringValue
                    },
                    value: member.value, provenance: index.provenance(of: member.key, holding: member.value),
                    wins: layer == winning))
        }
        var explanation = SettingExplanation(
            key: descriptor.key, value: attributed.value, formatted: snapshot?.formattedValue ?? "",
            isEffective: attributed.isEffective, reasons: attributed.reasons, source: attributed.source,
            holders: holders, appDefault: defaults[slot: slot].map { descriptor.coder.encode($0) },
            fallback: descriptor.fallback.map { descriptor.coder.encode($0) })
        explanation.profileChoice = attributed.profileChoice
        let rules = (try? await decodedRules().get()) ?? ProfileRules()
        explanation.skippedRules = try await baseChoice(context).skipped.compactMap { index in
            rules.rules.indices.contains(index)
                ? SettingExplanation.SkippedRule(index: index, profile: rules.rules[index].profile) : nil
        }
        if let id = inputs.base.profileID {
            explanation.baseProfile = SettingExplanation.BaseProfile(
                id: id, name: inputs.baseDocument[Profile.nameKey]?.stringValue, choice: inputs.choice)
        }
        return explanation
    }
}
