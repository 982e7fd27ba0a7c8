import Foundation
import ReadingPreferences

/// Keeps a reader's preferences for one configurable (Specs/Store.md): layered, attributed, saved
/// durably, switchable between profiles, observable whatever causes a change, and synced
/// across devices.
///
/// ```swift
/// let store = PreferencesStore<EPUB>(storage: FileStorage(root: folder))
/// try await store.edit(publication: bookID, context: book) { editor in
///     try editor.increment(.fontSize)          // saved to shared.json
///     try editor.set(.readingProgression, .rtl) // saved to this book's file
/// }
/// let settings = try await store.attributedSettings(for: bookID, context: book)
/// settings[0].source   // where the value came from
/// ```
///
/// Layers, lowest first: the engine's fallbacks, the app ``defaults`` (passed to the resolver,
/// never merged into preferences), shared or the active profile (the base), the device class's
/// (on a device with a class), this device's own, the publication's own, and the temporary
/// overrides. An edit puts every changed key back in the highest of the base, class, device and
/// publication layers that holds it; a key no layer held yet goes where the ``ScopePolicy``
/// says (Specs/Store.md §3.1): by default publication-specific keys (Specs/Resolution.md §6) to
/// the publication, the rest (unknown keys included) to shared or the active profile.
///
/// Concurrency, in short numbered rules (the Store Concurrency article says why each holds):
/// 1. Every method that changes state runs in the store's write section, one at a time in the
///    order called, across its suspensions; reading methods run at once.
/// 2. Several processes are serialized by the storage (``FileStorage``: an exclusive lock per
///    file, taken and released within one synchronous call, off Swift's cooperative pool). A
///    save loads the document again and applies only the keys that changed, retrying on a
///    conflict, so no update is lost.
/// 3. Changes are delivered after the state is swapped, once per change, to every stream.
/// 4. With ``Options/coalescesWrites``, edits update the state and notify at once and are written
///    after ``Options/writeDelay``; ``flush()`` writes everything pending.
/// 5. A sync through any store is reported on the change streams of every store open on the
///    same storage in the process.
public actor PreferencesStore<Schema: ResolvableSchema> {
    /// How the store writes.
    public struct Options: Sendable, Hashable {
        /// Whether rapid edits (a slider) are coalesced into fewer writes.
        public var coalescesWrites: Bool
        /// How long a coalesced write waits for more edits, in nanoseconds.
        public var writeDelay: UInt64
        /// Whether edits are recorded in their documents' change journals, stamped when they are
        /// made (Specs/Store.md §15.1, Specs/Sync.md §5.4), on a storage that is a replica: so of
        /// two devices' edits of one key the later one wins, whichever device syncs last, and
        /// history says who made each. `true` by default; `false` records nothing (a tool that
        /// rewrites documents it does not own).
        public var stampsEdits: Bool
        /// The wall clock edits are stamped by.
        public var now: @Sendable () -> Date
        /// The app's own scope policy (Specs/Store.md §3.1), or `nil` (the default) for the one
        /// this device keeps (``PreferencesStore/Device/setScopePolicy(_:)``).
        public var scopePolicy: ScopePolicy?

        /// Creates options; by default every edit is written before the call returns.
        ///
        /// - Parameters:
        ///   - coalescesWrites: Whether to coalesce rapid edits.
        ///   - writeDelay: How long a coalesced write waits, in nanoseconds (default 250 ms).
        ///   - stampsEdits: Whether edits take their sync stamps when they are made.
        ///   - now: The wall clock edits are stamped by.
        ///   - scopePolicy: The app's own scope policy, or `nil` for the device's.
        public init(
            coalescesWrites: Bool = false, writeDelay: UInt64 = 250_000_000, stampsEdits: Bool = true,
            now: @escaping @Sendable () -> Date = { Date() }, scopePolicy: ScopePolicy? = nil
        ) {
            self.coalescesWrites = coalescesWrites
            self.writeDelay = writeDelay
            self.stampsEdits = stampsEdits
            self.now = now
            self.scopePolicy = scopePolicy
        }

        /// Equal options write alike; the clock is not compared.
        public static func == (lhs: Options, rhs: Options) -> Bool {
            lhs.coalescesWrites == rhs.coalescesWrites && lhs.writeDelay == rhs.writeDelay
                && lhs.stampsEdits == rhs.stampsEdits && lhs.scopePolicy == rhs.scopePolicy
        }

        /// Hashes what `==` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(coalescesWrites)
            hasher.combine(writeDelay)
            hasher.combine(stampsEdits)
            hasher.combine(scopePolicy)
        }
    }

    /// Where the documents are kept.
    public nonisolated let storage: any PreferencesStorage
    /// The configurable's identifier, such as `epub`: the folder of its files.
    public nonisolated let configurable: String
    /// How the store writes.
    public nonisolated let options: Options
    /// The app defaults, passed to the resolver (never stored, never synced).
    public private(set) var defaults: SettingValueTable<Schema>
    /// The device environment (screen reader, appearance).
    public private(set) var environment: ReadingEnvironment
    /// What went wrong with stored documents: damaged data set aside, in order.
    public internal(set) var problems: [StorageError] = []

    /// The loaded documents; a `nil` value means known to be absent.
    var documents: [StoreLayer: StoredDocument?] = [:]
    /// This device's state (which profile is active), once loaded.
    var deviceDocument: StoredDocument?
    var deviceLoaded = false
    /// The device's part of the rule context and the decoded rules (Specs/Store.md §4.5).
    var ruleState = RuleState()
    /// Key changes not yet written, per layer (coalescing).
    var pendingWrites: [StoreLayer: KeyChanges] = [:]
    /// When each key of ``pendingWrites`` was last edited, recorded with it once written.
    var pendingTimes: [StoreLayer: [JSONScalarKey: UInt64]] = [:]
    var scheduledFlush: Task<Void, Never>?
    /// The change subscribers.
    var subscribers: [ChangeSubscriber] = []
    /// One state-changing operation at a time (rule 1).
    let section = WriteSection()
    /// Follows syncs run by other processes, once the store has subscribers (rule 5).
    var syncWatch: Task<Void, Never>?
    /// The sync state's generation the store last read its documents after.
    var syncGeneration: UInt64?
    /// What the stores on this storage in the process share (rule 5), and the count of syncs
    /// this store's cache is up to date with.
    nonisolated let beacon: SyncBeacon?
    var beaconGeneration: UInt64

    /// Creates a store over a storage. Nothing is read until it is needed: opening a store of
    /// 10,000 publications reads no publication file.
    ///
    /// - Parameters:
    ///   - storage: Where documents are kept.
    ///   - defaults: The app defaults.
    ///   - environment: The device environment.
    ///   - options: How the store writes.
    public init(
        storage: any PreferencesStorage, defaults: SettingValueTable<Schema> = SettingValueTable(),
        environment: ReadingEnvironment = ReadingEnvironment(), options: Options = Options()
    ) {
        self.storage = storage
        self.configurable = Schema.identifier
        self.defaults = defaults
        self.environment = environment
        self.options = options
        ruleState.context = ProfileRuleContext(appearance: environment.appearance)
        // Rule 5: other stores' syncs of this storage reach this store.
        beacon = storage.identity.map(StoreRegistry.shared.beacon(for:))
        beaconGeneration = beacon?.generation ?? 0
    }

    deinit {
        syncWatch?.cancel()
    }

    /// A store in memory, with the same API: for tests and SwiftUI previews.
    ///
    /// - Parameter defaults: The app defaults.
    /// - Returns: An empty store.
    public static func inMemory(defaults: SettingValueTable<Schema> = SettingValueTable()) -> PreferencesStore
    {
        PreferencesStore(storage: InMemoryStorage(), defaults: defaults)
    }

    // MARK: - Documents

    func location(_ layer: StoreLayer) -> StorageLocation { .layer(configurable: configurable, layer) }

    /// A layer's document, loaded once; damaged data is set aside and reported.
    func document(_ layer: StoreLayer) async throws -> StoredDocument? {
        // Another store of the process synced the storage: what was read before may be stale.
        if let beacon, beacon.generation != beaconGeneration {
            beaconGeneration = beacon.generation
            documents.removeAll()
            deviceLoaded = false
        }
        if let cached = documents[layer] { return cached }
        let loaded = try await loadFresh(location(layer))
        documents[layer] = .some(loaded)
        return loaded
    }

    /// Loads a document from the storage, bypassing the cache; damaged data is reported.
    func loadFresh(_ location: StorageLocation) async throws -> StoredDocument? {
        let (document, problem) = try await storage.loadRepairing(location)
        if let problem { problems.append(problem) }
        return document
    }

    /// The stored preferences of a layer, with pending writes applied.
    func preferences(in layer: StoreLayer) async throws -> Preferences {
        let preferences = try await document(layer)?.preferences ?? Preferences()
        guard let pending = pendingWrites[layer] else { return preferences }
        return pending.applied(to: preferences)
    }

    /// The layer that shared preferences live in now for a publication: the profile chosen by
    /// hand or by the rules (Specs/Store.md §4.5), or shared.
    func baseLayer(_ context: PublicationContext = PublicationContext()) async throws -> StoreLayer {
        try await baseChoice(context).layer
    }

    /// The preferences that resolve for a publication (base, then the publication's, without
    /// reserved `$` keys), and the overrides.
    func layers(for publication: String?, context: PublicationContext = PublicationContext()) async throws
        -> (merged: Preferences, overrides: Preferences)
    {
        let inputs = try await inputs(for: publication, context: context)
        return (inputs.merged, inputs.overrides)
    }

    /// The documents a publication's preferences come from, as the store has them (pending
    /// writes applied).
    func inputs(for publication: String?, context: PublicationContext = PublicationContext()) async throws
        -> PublicationInputs
    {
        let choice = try await baseChoice(context)
        let base = choice.layer
        let baseDocument = try await preferences(in: base)
        var publicationDocument: Preferences?
        if let publication { publicationDocument = try await preferences(in: .publication(publication)) }
        var inputs = PublicationInputs(
            base: base, publication: publication, baseDocument: baseDocument,
            publicationDocument: publicationDocument, overridesDocument: try await preferences(in: .overrides)
        )
        inputs.choice = choice.choice
        inputs.deviceClass = try await deviceClassID()
        if let deviceClass = inputs.deviceClass {
            inputs.classDocument = try await preferences(in: .deviceClass(deviceClass))
        }
        inputs.deviceDocument = try await preferences(in: .device)
        return inputs
    }

    /// The documents a publication's preferences come from, read again from the storage (the
    /// cache refreshed), with their versions: what a conditional write checks.
    func freshInputs(for publication: String?, context: PublicationContext = PublicationContext())
        async throws -> PublicationInputs
    {
        let device = try await loadFresh(.device)
        self.deviceDocument = device
        deviceLoaded = true
        var loaded: [StorageLocation: StoredDocument?] = [.device: device]
        // The rules and every profile asked about are checked too: a change of either may
        // change the base (a profile deleted elsewhere: shared applies, its absence checked).
        loaded[location(.rules)] = .some(try await refreshed(.rules))
        let rules = (try? await decodedRules().get()) ?? ProfileRules()
        var asked: [StorageLocation: StoredDocument?] = [:]
        let choice = try await chooseBase(
            device: device?.preferences, of: configurable, rules: rules,
            context: deviceRuleContext.with(publication: context)
        ) { id in
            let profile = try await refreshed(.profile(id))
            asked[location(.profile(id))] = .some(profile)
            return profile != nil
        }
        loaded.merge(asked) { $1 }
        let base = choice.layer
        if base == .shared { loaded[location(.shared)] = .some(try await refreshed(.shared)) }
        if let publication {
            loaded[location(.publication(publication))] = .some(
                try await refreshed(.publication(publication)))
        }
        loaded[location(.overrides)] = .some(try await refreshed(.overrides))
        // Specs/Store.md §1.4: the class's document (on a device with one) and this device's.
        let deviceClass = Self.deviceClass(in: device?.preferences)
        if let deviceClass {
            loaded[location(.deviceClass(deviceClass))] = .some(
                try await refreshed(.deviceClass(deviceClass)))
        }
        loaded[location(.device)] = .some(try await refreshed(.device))
        func stored(_ layer: StoreLayer) -> Preferences {
            (loaded[location(layer)] ?? nil)?.preferences ?? Preferences()
        }
        var inputs = PublicationInputs(
            base: base, publication: publication, baseDocument: stored(base),
            publicationDocument: publication.map { stored(.publication($0)) },
            overridesDocument: stored(.overrides))
        inputs.choice = choice.choice
        inputs.deviceClass = deviceClass
        if let deviceClass { inputs.classDocument = stored(.deviceClass(deviceClass)) }
        inputs.deviceDocument = stored(.device)
        inputs.loaded = loaded
        return inputs
    }

    /// The resolver for a publication context, with the store's defaults and environment.
    func resolver(_ context: PublicationContext) -> Schema.Resolver {
        Schema.resolver(publication: context, defaults: defaults, environment: environment)
    }

    /// A layer's document read again from the storage, the cache refreshed.
    private func refreshed(_ layer: StoreLayer) async throws -> StoredDocument? {
        let document = try await loadFresh(location(layer))
        documents[layer] = .some(document)
        return document
    }

    /// Changes the app defaults; publications' streams report what that changes, with cause
    /// ``ChangeCause/defaultsChange``.
    ///
    /// - Parameter defaults: The new defaults.
    public func setDefaults(_ defaults: SettingValueTable<Schema>) async {
        _ = try? await section.run { _ in
            self.defaults = defaults
            await notify(cause: .defaultsChange)
        }
    }
}

extension Preferences {
    /// The preferences without reserved `$` keys (document metadata such as `$name`).
    var withoutReservedKeys: Preferences {
        guard members.contains(where: { Preferences.isReserved($0.key) }) else { return self }
        return Preferences(members: members.filter { !Preferences.isReserved($0.key) })
    }
}
