import Foundation
import ReadingPreferences
import ReadingPreferencesConformance
import ReadingPreferencesStore

/// A bug a back-end developer could plant in a storage: what the storage suite must report.
enum PlantedBug: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Versions are a per-row counter that starts again when a row is removed and created.
    case counterVersions
    /// Documents kept as binary JSON (`jsonb`): keys reordered.
    case binaryJSON
    /// Listing by a prefix that also matches other configurables (`conformance-other`).
    case listsOtherConfigurables
    /// Data that is not a JSON object reported as `io`.
    case corruptAsIO
    /// The version check and the write are two steps with a suspension between them.
    case nonAtomicSave
    /// A batch applied change by change, stopping at the first that fails.
    case partialBatch
    /// A batch's checks of documents it does not write are ignored.
    case ignoresVerify
    /// Listings give the rows' escaped keys, not the identifiers.
    case escapedNamesListed
    /// `removeAll()` leaves sync's records.
    case removeAllKeepsSyncState
    /// Reserved `$` keys dropped on save.
    case dropsReservedKeys
    /// Identifiers folded to lower case in the row key.
    case caseInsensitiveIdentifiers
    /// A failing read answered as an absent document.
    case ioAsAbsent
    /// Listings not sorted.
    case unsortedListing
    /// Paging skips the first identifier of every page after the first.
    case pagingSkipsOne
    /// Export includes sync snapshots.
    case exportIncludesSnapshots
    /// Quarantine removes the damaged data but does not store the replacement.
    case quarantineDropsReplacement
    /// Identifiers normalized to NFC in the row key (a collation).
    case normalizesUnicode
    /// Identifiers' trailing spaces trimmed (a `CHAR` column).
    case trimsTrailingSpaces
    /// Removal ignores the expected version.
    case removeIgnoresVersion
    /// Saving as new over an existing row replaces it (`INSERT OR REPLACE`).
    case createOverwrites
    /// Numbers kept as binary doubles: `1.50` comes back `1.5`, `1e400` as infinity's text.
    case numbersAsDoubles
    /// A removal inside a batch of several changes skips its version check.
    case batchRemovalSkipsVersion
    /// A check at any version the document ever had passes.
    case verifyOutdatedAsCurrent
    /// Removing a document also removes every document whose key it begins.
    case removalByPrefix
    /// A listing of publications also lists publications that only have a sync snapshot.
    case listingMixesKinds
    /// A page after a name that is no longer there starts over.
    case pageRestartsAfterRemovedName
    /// A configurable stays listed once its last document is removed.
    case configurablesKeepEmptied
    /// Quarantine keeps nothing of the damaged bytes.
    case quarantineKeepsNothing
    /// A listing the medium failed answers empty.
    case failedListingAsEmpty
    /// Export misses configurables whose names need encoding.
    case exportMissesEncodedConfigurables
    /// A conflict is not marked transient.
    case conflictNotTransient
    /// The journal records a batch's changes before its checks, so a batch that fails leaves them.
    case journalRecordsFailedBatch
    /// Every change is stamped with the same stamp.
    case journalOneStamp
    /// The journal keeps every change, never compacted.
    case journalUnbounded
    /// The journal is read from the start whatever the cursor.
    case journalIgnoresCursor

    var description: String { rawValue }
}

/// A storage over a table of rows, as a back end writes one, with one planted bug (or none).
actor MutantStorage: PreferencesStorage {
    private struct Row {
        var text: String
        var version: String
    }

    let bug: PlantedBug?
    private var rows: [String: Row] = [:]
    private var counters: [String: Int] = [:]
    /// The change journals, by location, and the replica clock.
    private var journals: [StorageLocation: [JournalEntry]] = [:]
    private var clock: HybridClock?
    private var failAfter: Int?
    private var readsFail = false
    /// Every configurable listed so far (for ``PlantedBug/configurablesKeepEmptied``).
    private var everListed = Set<String>()

    private func conflict(_ location: StorageLocation) -> StorageError {
        StorageError(
            .conflict, location: location, message: "stale", isTransient: bug != .conflictNotTransient)
    }

    init(bug: PlantedBug?) { self.bug = bug }

    nonisolated var faults: StorageFaults {
        StorageFaults(
            plant: { data, location in await self.plant(String(decoding: data, as: UTF8.self), at: location)
            },
            failWrites: { await self.setFailAfter($0) }, failReads: { await self.setReadsFail($0) },
            readSetAside: { key in await self.text(at: key).map { Data($0.utf8) } })
    }

    private func text(at key: String) -> String? { rows[key]?.text }

    private func plant(_ text: String, at location: StorageLocation) {
        rows[key(location)] = Row(text: text, version: UUID().uuidString)
    }

    private func setFailAfter(_ steps: Int?) { failAfter = steps }
    private func setReadsFail(_ fail: Bool) { readsFail = fail }

    private func step(_ location: StorageLocation) throws(StorageError) {
        guard let remaining = failAfter else { return }
        if remaining == 0 {
            failAfter = nil
            throw StorageError(.io, location: location, message: "injected")
        }
        failAfter = remaining - 1
    }

    // MARK: - Keys

    private func key(_ location: StorageLocation) -> String {
        func id(_ text: String) -> String {
            var text = text
            if bug == .caseInsensitiveIdentifiers { text = text.lowercased() }
            if bug == .normalizesUnicode { text = text.precomposedStringWithCanonicalMapping }
            if bug == .trimsTrailingSpaces { while text.hasSuffix(" ") { text.removeLast() } }
            return UserDefaultsStorage.encoded(text)
        }
        func layer(_ layer: StoreLayer) -> String {
            switch layer {
            case .shared: return "shared"
            case .overrides: return "overrides"
            case .rules: return "rules"
            case .profile(let value): return "profile/" + id(value)
            case .publication(let value): return "publication/" + id(value)
            case .deviceClass(let value): return "classes/" + id(value)
            case .device: return "device"
            }
        }
        switch location {
        case .device: return "device"
        case .syncState: return "sync-state"
        case .syncLease: return "sync-lease"
        case .replicaClock: return "replica-clock"
        case .layer(let configurable, let value):
            return UserDefaultsStorage.encoded(configurable) + "/" + layer(value)
        case .syncSnapshot(let configurable, let value):
            return UserDefaultsStorage.encoded(configurable) + "/sync/" + layer(value)
        }
    }

    private func nextVersion(for key: String) -> String {
        if bug == .counterVersions {
            counters[key, default: 0] += 1
            return String(counters[key] ?? 0)
        }
        return UUID().uuidString
    }

    private func text(of preferences: Preferences) -> String {
        var preferences = preferences
        if bug == .dropsReservedKeys {
            preferences = Preferences(members: preferences.members.filter { !Preferences.isReserved($0.key) })
        }
        if bug == .binaryJSON {
            return preferences.jsonString(options: JSONEncodingOptions(sortedKeys: true))
        }
        if bug == .numbersAsDoubles {
            return Preferences(
                members: preferences.members.map { member in
                    guard case .number(let number) = member.value, let double = Double(number.description)
                    else {
                        return member
                    }
                    return JSONObject.Member(
                        key: member.key, value: .number(JSONNumber(double.isFinite ? double : 0)))
                }
            ).jsonString()
        }
        return preferences.jsonString()
    }

    // MARK: - The protocol

    func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        try location.checked()
        if readsFail {
            if bug == .ioAsAbsent { return nil }
            throw StorageError(.io, location: location, message: "injected")
        }
        guard let row = rows[key(location)] else { return nil }
        do throws(JSONDecodingError) {
            return StoredDocument(
                preferences: try Preferences(json: row.text), version: StorageVersion(row.version))
        } catch {
            throw StorageError(
                bug == .corruptAsIO ? .io : .corruptDocument, location: location, message: "not JSON",
                version: StorageVersion(row.version))
        }
    }

    func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        try DocumentChange.check(changes)
        if bug == .partialBatch {
            var versions: [StorageVersion?] = []
            for change in changes { versions += try await apply([change]) }
            return versions
        }
        return try await apply(changes)
    }

    private func apply(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        if bug == .journalRecordsFailedBatch { record(changes) }
        for change in changes {
            let current = rows[key(change.location)].map { StorageVersion($0.version) }
            if bug == .ignoresVerify, change.action == .verify { continue }
            if bug == .removeIgnoresVersion, change.action == .remove, current != nil { continue }
            if bug == .createOverwrites, change.expected == nil, case .save = change.action { continue }
            if bug == .batchRemovalSkipsVersion, changes.count > 1, change.action == .remove, current != nil {
                continue
            }
            if bug == .verifyOutdatedAsCurrent, change.action == .verify, current != nil,
                change.expected != nil
            {
                continue
            }
            guard current == change.expected else { throw conflict(change.location) }
        }
        if bug == .nonAtomicSave {
            for _ in 0..<4 { await Task.yield() }
        }
        for change in changes where change.action != .verify { try step(change.location) }
        var versions: [StorageVersion?] = []
        for change in changes {
            let key = key(change.location)
            switch change.action {
            case .save(let preferences):
                let version = nextVersion(for: key)
                rows[key] = Row(text: text(of: preferences), version: version)
                versions.append(StorageVersion(version))
            case .remove:
                rows[key] = nil
                if bug == .removalByPrefix {
                    for other in rows.keys where other.hasPrefix(key) { rows[other] = nil }
                }
                if bug == .counterVersions { counters[key] = nil }
                versions.append(nil)
            case .verify:
                versions.append(change.expected)
            }
        }
        if bug != .journalRecordsFailedBatch { record(changes) }
        return versions
    }

    // MARK: - The change journal

    private func record(_ changes: [DocumentChange]) {
        if clock == nil, let row = rows[key(.syncState)], let state = try? Preferences(json: row.text),
            let replica = state["replica"]?.stringValue.flatMap(ReplicaID.init)
        {
            clock = HybridClock(replica: replica)
        }
        guard var current = clock else { return }
        let first = current.tick(now: Milliseconds.now())
        for change in changes where change.location.isLayer {
            for var entry in change.journal {
                if let stamp = entry.stamp {
                    current.observe(stamp)
                } else {
                    entry.stamp = bug == .journalOneStamp ? first : current.tick(now: entry.time)
                }
                journals[change.location, default: []].append(entry)
            }
            if bug != .journalUnbounded, let entries = journals[change.location] {
                let sized = entries.map { ($0, $0.jsonValue.jsonString().utf8.count + 1) }
                if sized.reduce(0, { $0 + $1.1 }) > JournalBounds.standard.maximumBytes {
                    journals[change.location] = JournalBounds.standard.kept(sized, now: Milliseconds.now())
                        .map {
                            entries[$0]
                        }
                }
            }
        }
        clock = current
    }

    func journal(of location: StorageLocation, after cursor: JournalCursor?) async throws(StorageError)
        -> JournalRead
    {
        let entries = journals[location] ?? []
        let start = bug == .journalIgnoresCursor ? 0 : min(Int(cursor?.rawValue ?? "") ?? 0, entries.count)
        return JournalRead(entries: Array(entries[start...]), cursor: JournalCursor(String(entries.count)))
    }

    func updateReplicaClock<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        try body(&clock)
    }

    func quarantine(_ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?)
        async throws(StorageError) -> Quarantine
    {
        let key = key(location)
        guard let row = rows[key], row.version == version.rawValue else { throw conflict(location) }
        rows["corrupt:" + key] = bug == .quarantineKeepsNothing ? Row(text: "", version: row.version) : row
        guard let replacement, bug != .quarantineDropsReplacement else {
            rows[key] = nil
            return Quarantine(movedTo: "corrupt:" + key, version: nil)
        }
        let next = nextVersion(for: key)
        rows[key] = Row(text: text(of: replacement), version: next)
        return Quarantine(movedTo: "corrupt:" + key, version: StorageVersion(next))
    }

    func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError)
        -> [String]
    {
        try StorageLocation.checkConfigurable(configurable)
        if readsFail {
            if bug == .failedListingAsEmpty { return [] }
            throw StorageError(.io, location: nil, message: "injected")
        }
        let layer: String
        switch kind {
        case .profiles: layer = "/profile/"
        case .publications: layer = "/publication/"
        case .profileSnapshots: layer = "/sync/profile/"
        case .publicationSnapshots: layer = "/sync/publication/"
        case .classes: layer = "/classes/"
        case .classSnapshots: layer = "/sync/classes/"
        }
        let encoded = UserDefaultsStorage.encoded(configurable)
        var names: [String] = []
        for key in rows.keys where !key.hasPrefix("corrupt:") {
            guard let slash = key.firstIndex(of: "/") else { continue }
            let owner = key[..<slash]
            let rest = key[slash...]
            let ownerMatches = bug == .listsOtherConfigurables ? owner.hasPrefix(encoded) : owner == encoded
            let mixed =
                bug == .listingMixesKinds && kind == .publications && rest.hasPrefix("/sync/publication/")
            let matches = ownerMatches && (rest.hasPrefix(layer) || mixed)
            guard matches else { continue }
            let escaped = String(rest.dropFirst(mixed ? "/sync/publication/".count : layer.count))
            names.append(
                bug == .escapedNamesListed ? escaped : UserDefaultsStorage.decoded(escaped) ?? escaped)
        }
        let restart = bug == .pageRestartsAfterRemovedName && after.map { !names.contains($0) } == true
        var page = StorageKind.page(names, after: restart ? nil : after, limit: nil)
        if bug == .pagingSkipsOne, after != nil, !page.isEmpty { page.removeFirst() }
        if let limit { page = Array(page.prefix(max(limit, 0))) }
        if bug == .unsortedListing { page.reverse() }
        return page
    }

    func configurables() async throws(StorageError) -> [String] {
        if readsFail {
            if bug == .failedListingAsEmpty { return [] }
            throw StorageError(.io, location: nil, message: "injected")
        }
        var names = bug == .configurablesKeepEmptied ? everListed : Set<String>()
        for key in rows.keys where !key.hasPrefix("corrupt:") {
            guard let slash = key.firstIndex(of: "/") else { continue }
            names.insert(UserDefaultsStorage.decoded(String(key[..<slash])) ?? "")
        }
        everListed.formUnion(names)
        return StorageKind.page(Array(names), after: nil, limit: nil)
    }

    func export() async throws(StorageError) -> [ExportedDocument] {
        var result: [ExportedDocument] = []
        for configurable in try await configurables() {
            if bug == .exportMissesEncodedConfigurables,
                UserDefaultsStorage.encoded(configurable) != configurable
            {
                continue
            }
            var locations: [StorageLocation] = [
                .layer(configurable: configurable, .shared), .layer(configurable: configurable, .overrides),
            ]
            for id in try await names(of: .profiles, configurable: configurable) {
                locations.append(.layer(configurable: configurable, .profile(id)))
            }
            for id in try await names(of: .publications, configurable: configurable) {
                locations.append(.layer(configurable: configurable, .publication(id)))
            }
            if bug == .exportIncludesSnapshots {
                locations.append(.syncSnapshot(configurable: configurable, .shared))
            }
            for location in locations {
                if let document = try? await load(location) {
                    result.append(ExportedDocument(location: location, document: document))
                }
            }
        }
        return result
    }

    func removeAll() async throws(StorageError) {
        journals.removeAll()
        clock = nil
        for key in Array(rows.keys) {
            if bug == .removeAllKeepsSyncState, key == "sync-state" || key.contains("/sync/") { continue }
            rows[key] = nil
            if bug == .counterVersions { counters[key] = nil }
        }
    }
}
