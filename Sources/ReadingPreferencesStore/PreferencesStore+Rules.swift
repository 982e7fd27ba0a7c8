import ReadingPreferences

// Profiles chosen by rules (Specs/Store.md §4.5): the synced rules document, the device's choice
// between its own hand and the rules, and the rule context the app gives.
extension PreferencesStore {
    /// The rules document's one member: the list of rules.
    static var rulesKey: String { "rules" }

    /// The rules that choose a profile on each device, in order.
    ///
    /// - Returns: The rules document (empty when there is none).
    /// - Throws: `ProfileRulesError` when the stored document is malformed (written by hand, or
    ///   by another program), or ``StorageError``.
    public func profileRules() async throws -> ProfileRules {
        try await decodedRules().get()
    }

    /// Replaces the rules document; an empty one removes it. Streams report what the change of
    /// profile changes, with cause ``ChangeCause/profileSwitch``.
    ///
    /// ```swift
    /// let night = ProfileRule(profile: nightID, when: ProfileRuleConditions(appearance: .dark))
    /// try await store.setProfileRules(ProfileRules([night]))
    /// ```
    ///
    /// - Parameter rules: The rules.
    /// - Throws: ``StorageError``.
    public func setProfileRules(_ rules: ProfileRules) async throws {
        try await section.run { turn in
            var changes = KeyChanges()
            changes[Self.rulesKey] = .some(rules.rules.isEmpty ? nil : rules.jsonValue)
            try await write([.rules: changes], turn, recording: recording(.edit))
            await notify(cause: .profileSwitch)
        }
    }

    /// Changes the rules document in place: reads it, lets `change` edit it, writes it back.
    ///
    /// ```swift
    /// try await store.updateProfileRules { $0.rules.swapAt(0, 1) }
    /// ```
    ///
    /// - Parameter change: The edit; when it throws, nothing is written.
    /// - Returns: The rules as written.
    /// - Throws: What `change` throws, `ProfileRulesError` when the stored document is
    ///   malformed, or ``StorageError``.
    @discardableResult
    public func updateProfileRules(_ change: @Sendable (inout ProfileRules) throws -> Void) async throws
        -> ProfileRules
    {
        var rules = try await profileRules()
        try change(&rules)
        try await setProfileRules(rules)
        return rules
    }

    /// The device's part of the rule context (appearance, local time, device class); each call
    /// that names a publication adds its languages and collections.
    public var ruleContext: ProfileRuleContext { ruleState.context }

    /// Gives the store the device's part of the rule context: the appearance from the OS, the
    /// local time, the device's class. Call it when one of them changes (the clock passing a
    /// rule's `from` or `to` included); streams report the values a change of profile changes,
    /// with cause ``ChangeCause/profileSwitch`` and the rule that now applies.
    ///
    /// ```swift
    /// await store.setRuleContext(ProfileRuleContext(
    ///     appearance: .dark, minuteOfDay: ProfileRuleContext.minuteOfDay(of: Date(), in: .current),
    ///     deviceClass: "phone"))
    /// ```
    ///
    /// - Parameter context: The device's part of the context; its languages and collections are
    ///   ignored (they come with each publication's context).
    public func setRuleContext(_ context: ProfileRuleContext) async {
        _ = try? await section.run { _ in
            ruleState.context = context.with(publication: PublicationContext())
            await notify(cause: .profileSwitch)
        }
    }

    /// Returns this device to automatic: the rules choose its profile again, instead of the one
    /// (or shared) the reader chose by hand.
    ///
    /// - Throws: ``StorageError``.
    public func activateAutomatically() async throws {
        try await section.run { turn in try await choose(.automatic, turn) }
    }

    /// Which profile applies on this device for a publication, who chose it, and which rules
    /// were skipped for naming a missing profile.
    ///
    /// - Parameter context: What the configurable knows of the publication (its languages and
    ///   collections).
    /// - Returns: The selection.
    /// - Throws: ``StorageError``.
    public func profileSelection(context: PublicationContext = PublicationContext()) async throws
        -> ProfileSelection
    {
        let choice = try await baseChoice(context)
        var profile: Profile?
        if let id = choice.layer.profileID { profile = Profile(id: id, name: try await profileName(id)) }
        return ProfileSelection(
            profile: profile, choice: choice.choice, isAutomatic: choice.isAutomatic,
            skippedRules: choice.skipped)
    }

    // MARK: - Internals

    /// The device's part of the rule context: a task's (`ProfileRuleContext.evaluating(_:)`),
    /// else the store's.
    var deviceRuleContext: ProfileRuleContext { ProfileRuleContext.scoped ?? ruleState.context }

    /// Who chose the profile a subscriber's values come from now.
    func profileChoice(for scope: ChangeSubscriber.Scope) async throws -> ProfileChoice? {
        switch scope {
        case .stored: return try await baseChoice(PublicationContext()).choice
        case .effective(_, let context): return try await baseChoice(context).choice
        }
    }

    /// The base layer for a publication context, with who chose it.
    func baseChoice(_ context: PublicationContext) async throws -> BaseChoice {
        if !deviceLoaded {
            deviceDocument = try await loadFresh(.device)
            deviceLoaded = true
        }
        let rules = (try? await decodedRules().get()) ?? ProfileRules()
        return try await chooseBase(
            device: deviceDocument?.preferences, of: configurable, rules: rules,
            context: deviceRuleContext.with(publication: context)
        ) { id in try await document(.profile(id)) != nil }
    }

    /// The base layer: this device's hand choice when it made one and its profile exists, else the
    /// first rule that holds and names an existing profile, else shared (Specs/Store.md §4.5).
    func chooseBase(
        device: Preferences?, of configurable: String, rules: ProfileRules, context: ProfileRuleContext,
        exists: (String) async throws -> Bool
    ) async throws -> BaseChoice {
        switch DeviceProfileChoice(device: device, of: configurable) {
        case .shared: return BaseChoice(layer: .shared, choice: .byHand, isAutomatic: false)
        case .profile(let id):
            // A profile deleted elsewhere while chosen here: shared applies.
            guard try await exists(id) else {
                return BaseChoice(layer: .shared, choice: nil, isAutomatic: false)
            }
            return BaseChoice(layer: .profile(id), choice: .byHand, isAutomatic: false)
        case .automatic: break
        }
        // The device's own class (Specs/Store.md §1.4) when the context names none.
        var context = context
        if context.deviceClass == nil { context.deviceClass = Self.deviceClass(in: device) }
        var skipped: [Int] = []
        var next = rules.firstMatch(in: context)
        while let index = next {
            let rule = rules.rules[index]
            if try await exists(rule.profile) {
                return BaseChoice(
                    layer: .profile(rule.profile), choice: .rule(index: index, conditions: rule.conditions),
                    isAutomatic: true, skipped: skipped)
            }
            skipped.append(index)
            next = rules.firstMatch(in: context, from: index + 1)
        }
        return BaseChoice(layer: .shared, choice: nil, isAutomatic: true, skipped: skipped)
    }

    /// The stored rules, decoded once per version of the document (so evaluating them again
    /// decodes nothing); a malformed document is the error, and no rules apply.
    func decodedRules() async throws -> Result<ProfileRules, ProfileRulesError> {
        let stored = try await document(.rules)?.preferences[Self.rulesKey]
        if let cached = ruleState.decoded, cached.source == stored { return cached.rules }
        let decoded: Result<ProfileRules, ProfileRulesError>
        if let stored {
            do throws(ProfileRulesError) {
                decoded = .success(try ProfileRules(json: stored))
            } catch {
                decoded = .failure(error)
            }
        } else {
            decoded = .success(ProfileRules())
        }
        ruleState.decoded = (stored, decoded)
        return decoded
    }

    /// Sets this device's choice (a profile, shared, or automatic) and reports the switch.
    func choose(_ choice: DeviceProfileChoice, _ turn: WriteTurn) async throws {
        if !deviceLoaded {
            deviceDocument = try await loadFresh(.device)
            deviceLoaded = true
        }
        guard DeviceProfileChoice(device: deviceDocument?.preferences, of: configurable) != choice else {
            return
        }
        let configurable = configurable
        let writes = try await storage.write([
            DocumentEdit(.device) { current in
                Self.deviceState(current?.preferences, choosing: choice, ifActive: nil, of: configurable)
            }
        ])
        problems += writes.problems
        deviceDocument = writes.documents[.device] ?? nil
        deviceLoaded = true
        await notify(cause: .profileSwitch)
    }
}

/// What the store keeps of the rules: the device's part of the context, and the decoded document.
struct RuleState: Sendable {
    var context = ProfileRuleContext()
    var decoded: (source: JSONValue?, rules: Result<ProfileRules, ProfileRulesError>)?
}

/// The base layer chosen for a publication, and by whom.
struct BaseChoice: Sendable {
    var layer: StoreLayer
    var choice: ProfileChoice?
    var isAutomatic: Bool
    var skipped: [Int] = []
}

/// This device's choice of profile, as its device document keeps it (Specs/Store.md §4.4): a
/// profile's id (by hand), `null` (shared, by hand), or nothing (automatic: the rules choose).
enum DeviceProfileChoice: Sendable, Hashable {
    case automatic
    case shared
    case profile(String)

    /// The device document's member that maps each configurable to its choice.
    static let key = "activeProfiles"

    init(device: Preferences?, of configurable: String) {
        switch device?[Self.key]?.objectValue?[configurable] {
        case .string(let id)?: self = .profile(id)
        case .null?: self = .shared
        default: self = .automatic
        }
    }

    /// The value kept for it in `activeProfiles`; `nil` removes the entry.
    var stored: JSONValue? {
        switch self {
        case .automatic: return nil
        case .shared: return .null
        case .profile(let id): return .string(id)
        }
    }
}
