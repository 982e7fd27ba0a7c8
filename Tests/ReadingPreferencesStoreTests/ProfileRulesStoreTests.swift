import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import TestSupport
import Testing

/// Profiles chosen by rules in the store (Specs/Store.md §4.5): the rules document, the rule
/// context, a hand choice that beats the rules until automatic, attribution and observation.
#if canImport(Darwin)
    @Suite("The store's profiles chosen by rules")
#else
    @Suite("The store's profiles chosen by rules", .timeLimit(.minutes(2)))
#endif
struct ProfileRulesStoreTests {
    /// A store with Night (theme dark), Japanese (fontSize 1.4) and Manga (fontSize 1.8)
    /// profiles, and rules for each in that order, then a sunset window for Night.
    struct Fixture {
        let store: PreferencesStore<EPUB>
        let night: Profile
        let japanese: Profile
        let manga: Profile
        let folder: TemporaryFolder?

        init(_ kind: StorageKindUnderTest) async throws {
            let (storage, folder) = try kind.make()
            self.folder = folder
            store = PreferencesStore<EPUB>(storage: storage)
            night = try await store.createProfile(named: "Night")
            japanese = try await store.createProfile(named: "Japanese")
            manga = try await store.createProfile(named: "Manga")
            try await store.write(["theme": "dark"], to: .profile(night.id))
            try await store.write(["fontSize": 1.4], to: .profile(japanese.id))
            try await store.write(["fontSize": 1.8], to: .profile(manga.id))
            try await store.write(["fontSize": 1.1], to: .shared)
            try await store.setProfileRules(
                ProfileRules([
                    ProfileRule(profile: night.id, when: ProfileRuleConditions(appearance: .dark)),
                    ProfileRule(profile: japanese.id, when: ProfileRuleConditions(languages: ["ja"])),
                    ProfileRule(profile: manga.id, when: ProfileRuleConditions(collections: ["manga"])),
                    ProfileRule(
                        profile: night.id,
                        when: ProfileRuleConditions(time: try LocalTimeWindow(from: "21:00", to: "06:00"))),
                ]))
        }

        func fontSize(_ context: PublicationContext = PublicationContext()) async throws -> JSONValue? {
            try await store.attributedSettings(for: "book", context: context)["fontSize"]?.value
        }
    }

    @Test(
        "each rule chooses its profile from the context; none holds: shared",
        arguments: StorageKindUnderTest.allCases)
    func rulesChoose(kind: StorageKindUnderTest) async throws {
        let fixture = try await Fixture(kind)
        let store = fixture.store
        #expect(try await fixture.fontSize() == 1.1)
        #expect(try await store.profileSelection().choice == nil)
        #expect(try await fixture.fontSize(PublicationContext(languages: ["ja-JP"])) == 1.4)
        #expect(try await fixture.fontSize(PublicationContext(collections: ["manga"])) == 1.8)
        // The first rule that holds wins: a Japanese manga is Japanese.
        #expect(
            try await fixture.fontSize(PublicationContext(languages: ["ja"], collections: ["manga"])) == 1.4)

        await store.setRuleContext(ProfileRuleContext(minuteOfDay: 23 * 60))
        let late = try await store.attributedSettings(
            for: "book", context: PublicationContext(languages: ["ja"]))
        // 23:00: the Japanese rule comes before the sunset rule.
        #expect(late["fontSize"]?.value == 1.4)
        #expect(try await store.profileSelection().profile?.id == fixture.night.id)
        #expect(
            try await store.profileSelection().choice
                == .rule(
                    index: 3,
                    conditions: ProfileRuleConditions(time: try LocalTimeWindow(from: "21:00", to: "06:00"))))

        await store.setRuleContext(ProfileRuleContext(appearance: .dark, minuteOfDay: 12 * 60))
        let settings = try await store.attributedSettings(
            for: "book", context: PublicationContext(languages: ["ja"]))
        #expect(settings["theme"]?.value == "dark")
        #expect(settings["theme"]?.source == .profile(name: "Night"))
        #expect(
            settings["theme"]?.profileChoice
                == .rule(index: 0, conditions: ProfileRuleConditions(appearance: .dark)))
        let why = try #require(try await store.explanation(of: "theme", for: "book"))
        #expect(why.description.hasPrefix(#"theme "dark" (Dark) — profile Night (rule 1 (appearance dark))"#))
        #expect(why.jsonValue.objectValue?["chosenBy"]?.objectValue?["rule"] == 1)
    }

    @Test(
        "why names the profile a rule made the base, even for a value that comes from elsewhere",
        arguments: StorageKindUnderTest.allCases)
    func whyNamesTheBase(kind: StorageKindUnderTest) async throws {
        let fixture = try await Fixture(kind)
        let store = fixture.store
        // Night holds no font size: the fallback applies, and Night is still the base.
        await store.setRuleContext(ProfileRuleContext(appearance: .dark, minuteOfDay: 12 * 60))
        let why = try #require(try await store.explanation(of: "fontSize", for: "book"))
        #expect(why.holders.isEmpty)
        #expect(why.profileChoice == nil)
        #expect(why.baseProfile?.id == fixture.night.id)
        #expect(
            why.description.hasSuffix("in place of all books here: profile Night, rule 1 (appearance dark)"))
        let base = why.jsonValue.objectValue?["base"]?.objectValue
        #expect(base?["name"] == "Night")
        #expect(base?["chosenBy"]?.objectValue?["rule"] == 1)
        // No rule holds: shared is the base, and nothing is said of a profile.
        await store.setRuleContext(ProfileRuleContext(appearance: .light, minuteOfDay: 12 * 60))
        let plain = try #require(try await store.explanation(of: "fontSize", for: "book"))
        #expect(plain.baseProfile == nil)
        #expect(plain.jsonValue.objectValue?["base"] == nil)
        #expect(!plain.description.contains("in place of"))
        // Night deleted: its rule holds but is skipped, and why says so.
        try await store.deleteProfile(fixture.night.id)
        await store.setRuleContext(ProfileRuleContext(appearance: .dark, minuteOfDay: 12 * 60))
        let skipped = try #require(try await store.explanation(of: "fontSize", for: "book"))
        #expect(skipped.skippedRules == [.init(index: 0, profile: fixture.night.id)])
        #expect(skipped.description.contains("rule 1 skipped: its profile \(fixture.night.id) is missing"))
        #expect(skipped.jsonValue.objectValue?["skippedRules"]?.arrayValue?.first?.objectValue?["rule"] == 1)
    }

    @Test(
        "an edit under a profile the rules chose is saved in that profile",
        arguments: StorageKindUnderTest.allCases)
    func editGoesToChosenProfile(kind: StorageKindUnderTest) async throws {
        let fixture = try await Fixture(kind)
        let manga = PublicationContext(collections: ["manga"])
        try await fixture.store.edit(publication: "book", context: manga) { try $0.set(.fontSize, 2.0) }
        #expect(try await fixture.store.storedPreferences(in: .profile(fixture.manga.id))["fontSize"] == 2.0)
        #expect(try await fixture.store.storedPreferences(in: .shared)["fontSize"] == 1.1)
    }

    @Test(
        "a hand choice beats the rules on its device until it returns to automatic",
        arguments: StorageKindUnderTest.allCases)
    func handBeatsRules(kind: StorageKindUnderTest) async throws {
        let fixture = try await Fixture(kind)
        let store = fixture.store
        let japaneseBook = PublicationContext(languages: ["ja"])
        try await store.activateProfile(fixture.manga.id)
        #expect(try await fixture.fontSize(japaneseBook) == 1.8)
        let selection = try await store.profileSelection(context: japaneseBook)
        #expect(selection.choice == .byHand)
        #expect(!selection.isAutomatic)
        #expect(
            try await store.attributedSettings(context: japaneseBook)["fontSize"]?.profileChoice == .byHand)
        // Shared chosen by hand beats the rules too.
        try await store.activateProfile(nil)
        #expect(try await fixture.fontSize(japaneseBook) == 1.1)
        try await store.activateAutomatically()
        #expect(try await fixture.fontSize(japaneseBook) == 1.4)
        #expect(try await store.profileSelection(context: japaneseBook).isAutomatic)
    }

    @Test("a rule naming a missing profile is skipped and reported", arguments: StorageKindUnderTest.allCases)
    func missingProfileSkipped(kind: StorageKindUnderTest) async throws {
        let fixture = try await Fixture(kind)
        let store = fixture.store
        try await store.deleteProfile(fixture.night.id)
        await store.setRuleContext(ProfileRuleContext(appearance: .dark))
        let selection = try await store.profileSelection(context: PublicationContext(languages: ["ja"]))
        #expect(selection.skippedRules == [0])
        #expect(selection.profile?.id == fixture.japanese.id)
        #expect(selection.choice == .rule(index: 1, conditions: ProfileRuleConditions(languages: ["ja"])))
    }

    @Test("a context change that switches the profile is observed with cause profileSwitch and the rule")
    func profileSwitchObserved() async throws {
        let fixture = try await Fixture(.memory)
        let store = fixture.store
        let changes = try await store.changes(for: "book", context: PublicationContext())
        var iterator = changes.makeAsyncIterator()
        await store.setRuleContext(ProfileRuleContext(appearance: .dark))
        let night = ProfileChoice.rule(index: 0, conditions: ProfileRuleConditions(appearance: .dark))
        var received: [PreferenceChange] = []
        for _ in 0..<4 { if let change = await iterator.next() { received.append(change) } }
        #expect(received.map(\.key) == ["backgroundColor", "fontSize", "textColor", "theme"])
        #expect(received.allSatisfy { $0.cause == .profileSwitch && $0.profileChoice == night })
        #expect(
            received[1]
                == PreferenceChange(
                    key: "fontSize", oldValue: 1.1, newValue: 1.0, cause: .profileSwitch, profileChoice: night
                ))
        // Back to light: shared applies, and no rule chose it.
        await store.setRuleContext(ProfileRuleContext(appearance: .light))
        let back = await iterator.next()
        #expect(back?.cause == .profileSwitch)
        #expect(back?.profileChoice == nil)
    }

    @Test("the rules document is kept as rules.json and read back; updates keep the order")
    func stored() async throws {
        let folder = try TemporaryFolder()
        let store = PreferencesStore<EPUB>(storage: FileStorage(root: folder.url))
        let night = try await store.createProfile(named: "Night")
        let rule = ProfileRule(profile: night.id, when: ProfileRuleConditions(appearance: .dark))
        try await store.setProfileRules(ProfileRules([rule]))
        let file = try JSONValue(json: Data(contentsOf: folder.url.appendingPathComponent("epub/rules.json")))
        #expect(file.objectValue?["rules"] == ProfileRules([rule]).jsonValue)
        let other = PreferencesStore<EPUB>(storage: FileStorage(root: folder.url))
        #expect(try await other.profileRules() == ProfileRules([rule]))
        let catchAll = ProfileRule(profile: night.id, when: ProfileRuleConditions())
        try await other.updateProfileRules { $0.rules.insert(catchAll, at: 0) }
        #expect(try await other.profileRules().rules == [catchAll, rule])
        try await other.setProfileRules(ProfileRules())
        #expect(
            !FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("epub/rules.json").path)
        )
        #expect(SyncScope("epub/rules")?.layer == .rules)
    }

    @Test("a malformed stored document is an error to read, and chooses nothing")
    func malformedStored() async throws {
        let store = PreferencesStore<EPUB>.inMemory()
        let night = try await store.createProfile(named: "Night")
        try await store.write(
            ["rules": [["profile": .string(night.id), "when": ["appearance": "dim"]]]], to: .rules)
        await #expect(throws: ProfileRulesError.self) { try await store.profileRules() }
        await store.setRuleContext(ProfileRuleContext(appearance: .dark))
        #expect(try await store.profileSelection().profile == nil)
    }

    @Test(
        "the rules document syncs to another device, which evaluates it in its own context; a hand choice does not sync"
    )
    func rulesSync() async throws {
        let folder = try TemporaryFolder()
        let mirror = folder.url.appendingPathComponent("mirror")
        let phone = PreferencesStore<EPUB>(
            storage: FileStorage(root: folder.url.appendingPathComponent("phone")))
        let night = try await phone.createProfile(named: "Night")
        try await phone.write(["theme": "dark"], to: .profile(night.id))
        let rules = ProfileRules([
            ProfileRule(profile: night.id, when: ProfileRuleConditions(appearance: .dark))
        ])
        try await phone.setProfileRules(rules)
        try await phone.activateProfile(nil)
        _ = try await phone.sync(with: mirror, options: .init(replica: ReplicaID("phone")))
        let tabletRoot = folder.url.appendingPathComponent("tablet")
        _ = try await PreferencesStore<EPUB>(storage: FileStorage(root: tabletRoot))
            .sync(with: mirror, options: .init(replica: ReplicaID("tablet")))
        let tablet = PreferencesStore<EPUB>(
            storage: FileStorage(root: tabletRoot), environment: ReadingEnvironment(appearance: .dark))
        #expect(try await tablet.profileRules() == rules)
        let selection = try await tablet.profileSelection()
        #expect(selection.profile?.id == night.id)
        #expect(selection.isAutomatic)
        #expect(try await tablet.attributedSettings()["theme"]?.value == "dark")
    }

    @Test("a task's rule context replaces the store's for the calls it makes, as one request's on a server")
    func scopedContext() async throws {
        let fixture = try await Fixture(.memory)
        let store = fixture.store
        let dark = ProfileRuleContext(appearance: .dark)
        let theme = try await dark.evaluating { try await store.attributedSettings()["theme"]?.value }
        #expect(theme == "dark")
        #expect(try await store.attributedSettings()["theme"]?.value == "light")
        async let inDark = dark.evaluating { try await store.profileSelection().profile?.id }
        async let inLight = ProfileRuleContext(appearance: .light).evaluating {
            try await store.profileSelection().profile?.id
        }
        #expect(try await inDark == fixture.night.id)
        #expect(try await inLight == nil)
    }
}
