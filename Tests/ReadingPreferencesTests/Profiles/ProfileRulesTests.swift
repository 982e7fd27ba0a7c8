import ReadingPreferences
import Testing

/// Profile rules in the engine (Specs/Store.md §4.5): ordered, all conditions of a rule must
/// hold, the first that holds wins, a missing profile is skipped, malformed rules are listed.
@Suite("Profile rules: conditions, order and the document's JSON")
struct ProfileRulesTests {
    static let document = """
        [
          {"profile": "night", "when": {"appearance": "dark"}},
          {"profile": "japanese", "when": {"language": ["ja"]}},
          {"profile": "manga", "when": {"collection": ["manga", "comics"]}},
          {"profile": "sunset", "when": {"time": {"from": "20:30", "to": "06:45"}}},
          {"profile": "eink", "when": {"deviceClass": "eink"}}
        ]
        """

    static func rules() throws -> ProfileRules {
        try ProfileRules(json: JSONValue(json: document))
    }

    static func chosen(_ context: ProfileRuleContext) throws -> String? {
        let rules = try rules()
        return rules.firstMatch(in: context).map { rules.rules[$0].profile }
    }

    @Test("a night profile holds in dark appearance, and not in light")
    func night() throws {
        #expect(try Self.chosen(ProfileRuleContext(appearance: .dark)) == "night")
        #expect(try Self.chosen(ProfileRuleContext(appearance: .light)) == nil)
    }

    @Test("a Japanese profile holds for a book with a Japanese language, whatever its region or case")
    func japanese() throws {
        #expect(try Self.chosen(ProfileRuleContext(languages: ["ja-JP"])) == "japanese")
        #expect(try Self.chosen(ProfileRuleContext(languages: ["en", "JA"])) == "japanese")
        #expect(try Self.chosen(ProfileRuleContext(languages: ["jv"])) == nil)
        let book = PublicationContext(languages: ["ja"])
        #expect(try Self.chosen(ProfileRuleContext(publication: book)) == "japanese")
    }

    @Test("a manga profile holds for a book in one of its collections")
    func manga() throws {
        let book = PublicationContext(collections: ["favourites", "comics"])
        #expect(try Self.chosen(ProfileRuleContext(publication: book)) == "manga")
        #expect(try Self.chosen(ProfileRuleContext(collections: ["Manga"])) == nil)
    }

    @Test(
        "a sunset window holds from 20:30 up to 06:45, across midnight",
        arguments: [
            ("20:29", false), ("20:30", true), ("23:59", true), ("00:00", true), ("06:44", true),
            ("06:45", false), ("12:00", false),
        ])
    func sunset(time: String, holds: Bool) throws {
        let minute = try #require(LocalTimeWindow.minuteOfDay(time))
        #expect(try Self.chosen(ProfileRuleContext(minuteOfDay: minute)) == (holds ? "sunset" : nil))
    }

    @Test("no time given: no time condition holds; a window that does not wrap holds within it")
    func timeWindow() throws {
        #expect(try Self.chosen(ProfileRuleContext()) == nil)
        let day = try LocalTimeWindow(from: "08:00", to: "18:00")
        #expect(day.contains(minuteOfDay: 8 * 60))
        #expect(!day.contains(minuteOfDay: 18 * 60))
        #expect(!day.contains(minuteOfDay: 7 * 60 + 59))
        #expect(day.description == "08:00–18:00")
    }

    @Test("a device class condition holds only on a device of that class")
    func deviceClass() throws {
        #expect(try Self.chosen(ProfileRuleContext(deviceClass: "eink")) == "eink")
        #expect(try Self.chosen(ProfileRuleContext(deviceClass: "phone")) == nil)
    }

    @Test("the first rule that holds wins; all conditions of a rule must hold")
    func firstMatchWins() throws {
        let context = ProfileRuleContext(
            appearance: .dark, minuteOfDay: 22 * 60, languages: ["ja"], collections: ["manga"])
        #expect(try Self.chosen(context) == "night")
        let both = try ProfileRules(
            json: JSONValue(
                json: """
                    [{"profile": "a", "when": {"appearance": "dark", "language": ["fr"]}},
                     {"profile": "b", "when": {}}]
                    """))
        #expect(both.firstMatch(in: ProfileRuleContext(appearance: .dark, languages: ["en"])) == 1)
        #expect(both.firstMatch(in: ProfileRuleContext(appearance: .dark, languages: ["fr-CA"])) == 0)
    }

    @Test("a rule naming a missing profile is skipped and reported; the next that holds chooses")
    func missingProfile() throws {
        let rules = try Self.rules()
        let context = ProfileRuleContext(appearance: .dark, languages: ["ja"])
        let evaluation = rules.evaluate(in: context) { $0 != "night" }
        #expect(evaluation == ProfileRuleEvaluation(chosen: 1, skipped: [0]))
        #expect(
            rules.evaluate(in: context) { _ in false } == ProfileRuleEvaluation(chosen: nil, skipped: [0, 1]))
        #expect(rules.rulesNamingMissingProfiles { $0 == "night" } == [1, 2, 3, 4])
    }

    @Test("the document reads back as it was written, member order included")
    func lossless() throws {
        let text = #"[{"when":{"time":{"to":"06:45","from":"20:30"},"appearance":"dark"},"profile":"night"}]"#
        let rules = try ProfileRules(json: JSONValue(json: text))
        #expect(rules.jsonValue.jsonString() == text)
        let made = ProfileRules([
            ProfileRule(profile: "night", when: ProfileRuleConditions(appearance: .dark, languages: ["ja"]))
        ])
        #expect(try ProfileRules(json: made.jsonValue) == made)
        #expect(
            made.jsonValue.jsonString()
                == #"[{"profile":"night","when":{"appearance":"dark","language":["ja"]}}]"#)
    }

    @Test("every malformed rule is listed, each with its path and what is wrong")
    func malformed() throws {
        let text = """
            [
              {"profile": "night", "when": {"appearance": "dim"}},
              {"profile": "Night", "when": {}},
              {"profile": "ok", "when": {"apperance": "dark"}},
              {"profile": "ok", "when": {"time": {"from": "24:00", "to": "6:45"}}},
              {"profile": "ok", "when": {"language": []}},
              {"profile": "ok", "when": {"collection": ["manga", 3]}},
              {"profile": "ok"},
              "night",
              {"profile": "ok", "when": {"time": {"from": "06:00", "to": "06:00"}}},
              {"profile": "ok", "when": {}, "wehn": {}},
              {"profile": "fine", "when": {"language": ["ja"]}}
            ]
            """
        do {
            _ = try ProfileRules(json: JSONValue(json: text))
            Issue.record("a malformed document was accepted")
        } catch let error as ProfileRulesError {
            #expect(
                error.problems.map(\.path) == [
                    "[0].when.appearance", "[1].profile", "[2].when.apperance", "[3].when.time.from",
                    "[3].when.time.to", "[4].when.language", "[5].when.collection", "[6].when", "[7]",
                    "[8].when.time", "[9].wehn",
                ])
            #expect(error.problems.map(\.rule) == [0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9])
            let description = error.description
            #expect(description.hasPrefix("the rules document is malformed:\n"))
            #expect(
                description.contains(
                    #"rule 1 ([0].when.appearance): expected "light" or "dark", got string "dim""#))
            #expect(description.contains(#"rule 4 ([3].when.time.to): expected a time "HH:MM""#))
            #expect(description.contains("the window would be empty"))
        }
        #expect(throws: ProfileRulesError.self) { try ProfileRules(json: ["profile": "night"]) }
    }

    @Test("a long document is read in one pass: 20,000 rules, each checked once")
    func linear() throws {
        let rule: JSONValue = [
            "profile": "night", "when": ["language": ["ja", "zh", "ko"], "appearance": "dark"],
        ]
        let rules = try ProfileRules(json: .array(Array(repeating: rule, count: 20_000)))
        #expect(rules.rules.count == 20_000)
        let bad: JSONValue = ["profile": "night", "when": ["appearance": 1]]
        #expect(throws: ProfileRulesError.self) {
            try ProfileRules(json: .array(Array(repeating: bad, count: 20_000)))
        }
    }

    @Test("the publication context reads and writes its collections")
    func collections() throws {
        let context = try PublicationContext(json: [
            "languages": ["ja"], "collections": ["manga", "One Piece"],
        ])
        #expect(context.collections == ["manga", "One Piece"])
        #expect(try PublicationContext(json: context.jsonValue) == context)
        #expect(PublicationContext().jsonValue.objectValue?["collections"] == nil)
    }
}
