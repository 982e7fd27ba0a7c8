// The rules document's JSON (Specs/Store.md §4.5): `[{"profile": ID, "when": {...}}]`, read with
// every malformed rule listed, and written back as it was read.

extension ProfileRules {
    /// Reads a rules document: an array of `{"profile": ID, "when": {...}}`.
    ///
    /// Every rule is checked and every problem is listed: a member other than `profile` and
    /// `when`, a profile id that is not a replica-style id, a condition other than
    /// `appearance`, `deviceClass`, `language`, `collection` and `time` (an unknown condition
    /// ignored would make a rule hold where it should not), or a condition of the wrong form.
    /// The cost is linear in the document's size.
    ///
    /// ```swift
    /// let rules = try ProfileRules(json: [["profile": "night", "when": ["appearance": "dark"]]])
    /// ```
    ///
    /// - Parameter json: The document.
    /// - Throws: ``ProfileRulesError`` listing each malformed rule.
    public init(json: JSONValue) throws(ProfileRulesError) {
        guard case .array(let items) = json else {
            throw ProfileRulesError(problems: [
                .init(
                    rule: nil, path: "",
                    message: "expected an array of rules, got \(JSONMemberReader.describe(json))")
            ])
        }
        var rules: [ProfileRule] = []
        var problems: [ProfileRulesError.Problem] = []
        for (index, item) in items.enumerated() {
            var found: [ProfileRulesError.Problem] = []
            if let rule = Self.rule(item, index: index, problems: &found), found.isEmpty {
                rules.append(rule)
            }
            problems += found
        }
        guard problems.isEmpty else { throw ProfileRulesError(problems: problems) }
        self.init(rules)
    }

    /// The document as JSON, each rule as it was read (or made).
    public var jsonValue: JSONValue { .array(rules.map(\.jsonValue)) }

    /// The condition names, in the order they are written.
    public static let conditionNames = ["appearance", "deviceClass", "language", "collection", "time"]

    // MARK: - Reading one rule

    private static func rule(_ item: JSONValue, index: Int, problems: inout [ProfileRulesError.Problem])
        -> ProfileRule?
    {
        let path = JSONMemberReader.join("", index: index)
        func report(_ member: String, _ message: String) {
            problems.append(
                .init(
                    rule: index, path: member.isEmpty ? path : JSONMemberReader.join(path, member),
                    message: message))
        }
        guard case .object(let object) = item else {
            report("", "expected a rule {\"profile\", \"when\"}, got \(JSONMemberReader.describe(item))")
            return nil
        }
        for member in object.members where member.key != "profile" && member.key != "when" {
            report(member.key, "unknown member; a rule has \"profile\" and \"when\"")
        }
        var profile: String?
        switch object["profile"] {
        case .string(let id) where isReplicaStyleID(id): profile = id
        case .string(let id):
            report(
                "profile",
                "\(JSONMemberReader.describe(.string(id))) is no profile id ([a-z0-9][a-z0-9-]{0,63})")
        case nil: report("profile", "missing: the id of the profile the rule chooses")
        case let other?: report("profile", "expected a profile id, got \(JSONMemberReader.describe(other))")
        }
        var conditions: ProfileRuleConditions?
        switch object["when"] {
        case .object(let when):
            conditions = Self.conditions(
                when, path: JSONMemberReader.join(path, "when"), index: index, problems: &problems)
        case nil: report("when", "missing: the rule's conditions (`{}` holds always)")
        case let other?:
            report("when", "expected an object of conditions, got \(JSONMemberReader.describe(other))")
        }
        guard let profile, let conditions else { return nil }
        return ProfileRule(profile: profile, conditions: conditions, jsonValue: item)
    }

    private static func conditions(
        _ when: JSONObject, path: String, index: Int, problems: inout [ProfileRulesError.Problem]
    ) -> ProfileRuleConditions? {
        let before = problems.count
        func report(_ member: String, _ message: String) {
            problems.append(.init(rule: index, path: JSONMemberReader.join(path, member), message: message))
        }
        for member in when.members where !conditionNames.contains(member.key) {
            report(member.key, "unknown condition; expected \(JSONMemberReader.alternatives(conditionNames))")
        }
        var appearance: SystemAppearance?
        if let value = when["appearance"] {
            if let raw = value.stringValue, let choice = SystemAppearance(rawValue: raw) {
                appearance = choice
            } else {
                report(
                    "appearance", "expected \"light\" or \"dark\", got \(JSONMemberReader.describe(value))")
            }
        }
        var deviceClass: String?
        if let value = when["deviceClass"] {
            if let raw = value.stringValue, isReplicaStyleID(raw) {
                deviceClass = raw
            } else {
                report(
                    "deviceClass",
                    "expected a device class such as \"eink\" ([a-z0-9][a-z0-9-]{0,63}), got \(JSONMemberReader.describe(value))"
                )
            }
        }
        let languages = when["language"].flatMap { value in
            list(value, what: "primary language subtags such as \"ja\"", isValid: isPrimarySubtag) {
                report("language", $0)
            }
        }
        let collections = when["collection"].flatMap { value in
            list(
                value, what: "collection names",
                isValid: { !$0.isEmpty && !$0.unicodeScalars.contains("\u{0}") }
            ) {
                report("collection", $0)
            }
        }
        var time: LocalTimeWindow?
        if let value = when["time"] {
            time = window(value, path: JSONMemberReader.join(path, "time"), index: index, problems: &problems)
        }
        guard problems.count == before else { return nil }
        return ProfileRuleConditions(
            appearance: appearance, deviceClass: deviceClass, languages: languages, collections: collections,
            time: time, json: when)
    }

    /// A non-empty array of valid strings, or `nil` with the problem reported.
    private static func list(
        _ value: JSONValue, what: String, isValid: (String) -> Bool, report: (String) -> Void
    ) -> [String]? {
        guard case .array(let items) = value, !items.isEmpty else {
            report("expected a non-empty array of \(what), got \(JSONMemberReader.describe(value))")
            return nil
        }
        var result: [String] = []
        for (position, item) in items.enumerated() {
            guard let text = item.stringValue, isValid(text) else {
                report("item \(position + 1) is not one of \(what): \(JSONMemberReader.describe(item))")
                return nil
            }
            result.append(text)
        }
        return result
    }

    private static func window(
        _ value: JSONValue, path: String, index: Int, problems: inout [ProfileRulesError.Problem]
    ) -> LocalTimeWindow? {
        func report(_ member: String, _ message: String) {
            problems.append(
                .init(
                    rule: index, path: member.isEmpty ? path : JSONMemberReader.join(path, member),
                    message: message))
        }
        guard case .object(let object) = value else {
            report(
                "",
                "expected {\"from\": \"HH:MM\", \"to\": \"HH:MM\"}, got \(JSONMemberReader.describe(value))")
            return nil
        }
        for member in object.members where member.key != "from" && member.key != "to" {
            report(member.key, "unknown member; a time window has \"from\" and \"to\"")
        }
        var minutes: [Int] = []
        for name in ["from", "to"] {
            guard let text = object[name]?.stringValue, let minute = LocalTimeWindow.minuteOfDay(text) else {
                let found = object[name].map(JSONMemberReader.describe) ?? "nothing"
                report(name, "expected a time \"HH:MM\" (00:00 to 23:59), got \(found)")
                continue
            }
            minutes.append(minute)
        }
        guard minutes.count == 2, object.count == 2 else { return nil }
        guard let window = LocalTimeWindow(fromMinute: minutes[0], toMinute: minutes[1]) else {
            report("", LocalTimeWindow.Problem.empty.description)
            return nil
        }
        return window
    }

    /// `[a-z0-9][a-z0-9-]{0,63}`: profile ids and device classes (Specs/Store.md §4.2).
    static func isReplicaStyleID(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= 64, isLowerAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
    }

    /// 1 to 8 ASCII letters: a BCP 47 primary language subtag.
    static func isPrimarySubtag(_ text: String) -> Bool {
        let bytes = text.utf8
        return (1...8).contains(bytes.count)
            && bytes.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
    }
}
