import Foundation
import ReadingPreferences

extension PreferencesStore {
    /// What changed, where each stored value came from, and the way back (Specs/Store.md §15):
    /// read from the change journal the storage keeps once this device is a replica.
    ///
    /// ```swift
    /// let changes = try await store.history.entries(in: .shared, key: "fontSize")
    /// try await store.history.revert("fontSize", in: .shared, to: .entry(changes[0].id))
    /// ```
    public nonisolated var history: History { History(store: self) }

    /// History and provenance: see ``PreferencesStore/history``.
    public struct History: Sendable {
        let store: PreferencesStore

        /// The changes recorded for a document, oldest first (by stamp), optionally of one key:
        /// at least its last 20 changes per key and every change of the last 30 days
        /// (``JournalBounds/standard``). Linear in what the journal holds.
        ///
        /// - Parameters:
        ///   - layer: The document.
        ///   - key: Only this key's changes; `nil` for all.
        /// - Returns: The entries.
        /// - Throws: ``StorageError``.
        public func entries(in layer: StoreLayer, key: String? = nil) async throws -> [HistoryEntry] {
            try await store.historyEntries(in: [layer], key: key)
        }

        /// The changes of every document a publication's preferences come from (the publication's,
        /// the base layer's and the overrides'), oldest first.
        ///
        /// - Parameters:
        ///   - publication: The publication, or `nil` for the base layer and the overrides.
        ///   - key: Only this key's changes; `nil` for all.
        /// - Returns: The entries.
        /// - Throws: ``StorageError``.
        public func entries(for publication: String?, key: String? = nil) async throws -> [HistoryEntry] {
            try await store.historyEntries(in: store.resolvingLayers(for: publication), key: key)
        }

        /// Where each stored key of a document came from: the change that set its value, when
        /// known (``Provenance``).
        ///
        /// - Parameter layer: The document.
        /// - Returns: Provenance by key; a key whose provenance is not known is left out.
        /// - Throws: ``StorageError``.
        public func provenance(in layer: StoreLayer) async throws -> [String: Provenance] {
            try await store.provenance(in: layer)
        }

        /// Restores a key of a document, or every key (`nil`), to its value at a point of
        /// history: an edit made now (cause ``ChangeOrigin/revert``, a new stamp), so it syncs and
        /// wins like any edit, and is itself in history, so it can be reverted too.
        ///
        /// - Parameters:
        ///   - key: The key, or `nil` for every key of the document.
        ///   - layer: The document.
        ///   - point: An entry's id (the values just after it) or a time.
        /// - Returns: What the revert changed.
        /// - Throws: ``HistoryError`` for an entry history does not hold; ``StorageError``.
        @discardableResult
        public func revert(_ key: String?, in layer: StoreLayer, to point: RevertPoint) async throws
            -> [StoredChange]
        {
            try await store.revert(key, in: [layer], to: point)
        }

        /// Restores every document of the configurable (shared, each profile, each publication,
        /// the overrides) to its values at a point of history, as one edit.
        ///
        /// - Parameter point: An entry's id or a time.
        /// - Returns: What the revert changed.
        /// - Throws: ``HistoryError``; ``StorageError``.
        @discardableResult
        public func revertAll(to point: RevertPoint) async throws -> [StoredChange] {
            try await store.revert(nil, in: store.allLayers(), to: point)
        }
    }

    // MARK: - Reading the journal

    /// The layers a publication's preferences come from, highest first.
    func resolvingLayers(for publication: String?) async throws -> [StoreLayer] {
        var layers: [StoreLayer] = [.overrides]
        if let publication { layers.append(.publication(publication)) }
        layers.append(.device)
        if let deviceClass = try await deviceClassID() { layers.append(.deviceClass(deviceClass)) }
        layers.append(try await baseLayer())
        return layers
    }

    /// Every layer document of the configurable.
    func allLayers() async throws -> [StoreLayer] {
        var layers: [StoreLayer] = [.shared]
        for kind in StorageKind.documents {
            for id in try await storage.names(of: kind, configurable: configurable) {
                layers.append(kind.layer(id))
            }
        }
        layers += [.device, .overrides]
        return layers
    }

    /// The devices this replica knows, itself included.
    func devices() async -> DeviceDirectory {
        guard let stored = try? await storage.load(.syncState),
            let state = try? SyncState(document: stored.preferences)
        else { return DeviceDirectory() }
        return DeviceDirectory(state)
    }

    /// A document's journal, stamped entries only, in stamp order.
    func journal(of layer: StoreLayer) async throws -> [JournalEntry] {
        try await storage.journal(of: location(layer), after: nil).entries
            .compactMap { entry in entry.stamp.map { (entry, $0) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    func historyEntries(in layers: [StoreLayer], key: String?) async throws -> [HistoryEntry] {
        let devices = await devices()
        var result: [HistoryEntry] = []
        for layer in layers {
            for entry in try await journal(of: layer)
            where key.map({ entry.key.isScalarEqual(to: $0) }) ?? true {
                if let item = HistoryEntry(entry, configurable: configurable, layer: layer, devices: devices)
                {
                    result.append(item)
                }
            }
        }
        return result.sorted { $0.provenance.stamp < $1.provenance.stamp }
    }

    /// Provenance of a document's stored keys.
    func provenance(in layer: StoreLayer) async throws -> [String: Provenance] {
        try await provenanceIndex(of: layer, devices: await devices()).provenance(
            of: try await preferences(in: layer))
    }

    /// What a document's journal and sync snapshot say of its keys.
    func provenanceIndex(of layer: StoreLayer, devices: DeviceDirectory) async throws -> ProvenanceIndex {
        var snapshot: SyncDocument?
        if layer.isSynced,
            let stored = try? await storage.load(.syncSnapshot(configurable: configurable, layer))
        {
            snapshot = (try? SyncSnapshot.sidecar(of: stored.preferences))?.entries
        }
        return ProvenanceIndex(journal: try await journal(of: layer), snapshot: snapshot, devices: devices)
    }

    // MARK: - Reverting

    func revert(_ key: String?, in layers: [StoreLayer], to point: RevertPoint) async throws -> [StoredChange]
    {
        try await section.run { turn in
            try await flush(turn)
            var changes: [StoreLayer: KeyChanges] = [:]
            var found = false
            var cutoff: SyncStamp?
            if case .entry(let id) = point {
                let devices = await devices()
                for layer in layers {
                    if let entry = try await journal(of: layer).first(where: {
                        $0.stamp.map(devices.id(of:)) == id
                    }) {
                        cutoff = entry.stamp
                        break
                    }
                }
                guard cutoff != nil else { throw HistoryError.unknownEntry(id) }
            }
            for layer in layers {
                let entries = try await journal(of: layer)
                guard !entries.isEmpty else { continue }
                found = true
                let current = try await preferences(in: layer)
                let targets = Self.values(of: entries, key: key, at: point, cutoff: cutoff)
                var layerChanges = KeyChanges()
                for (name, value) in targets {
                    switch (current[name], value) {
                    case (nil, nil): continue
                    case (let old?, let new?) where old.isWrittenAlike(new): continue
                    default: layerChanges[name] = .some(value)
                    }
                }
                if !layerChanges.isEmpty { changes[layer] = layerChanges }
            }
            guard found else { throw HistoryError.noHistory }
            let overridesOnly = changes.keys.allSatisfy { $0 == .overrides }
            return try await commit(
                changes, cause: overridesOnly && !changes.isEmpty ? .override : .edit, turn, origin: .revert)
        }
    }

    /// Each key's value at a point, from a document's journal (stamp order): the value the last
    /// change at or before the point left; for a key changed only after it, the value before its
    /// first change.
    static func values(of entries: [JournalEntry], key: String?, at point: RevertPoint, cutoff: SyncStamp?)
        -> [(String, JSONValue?)]
    {
        var values: [JSONScalarKey: (String, JSONValue?)] = [:]
        var order: [JSONScalarKey] = []
        for entry in entries where key.map({ entry.key.isScalarEqual(to: $0) }) ?? true {
            guard let stamp = entry.stamp else { continue }
            let name = JSONScalarKey(entry.key)
            let before: Bool
            switch point {
            case .time(let time): before = stamp.time <= time
            case .entry: before = cutoff.map { !($0 < stamp) } ?? false
            }
            if values[name] == nil {
                order.append(name)
                values[name] = (entry.key, before ? entry.newValue : entry.oldValue)
            } else if before {
                values[name] = (entry.key, entry.newValue)
            }
        }
        return order.compactMap { values[$0] }
    }
}

extension ProvenanceIndex {
    /// The provenance of every key a document holds.
    func provenance(of document: Preferences) -> [String: Provenance] {
        var result: [String: Provenance] = [:]
        for member in document.members where !Preferences.isReserved(member.key) {
            if let provenance = provenance(of: member.key, holding: member.value) {
                result[member.key] = provenance
            }
        }
        return result
    }
}

/// Why history could not do what was asked.
public enum HistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No history entry has this id.
    case unknownEntry(String)
    /// The documents have no history: this device keeps none yet (it never synced, and was never
    /// named or told to keep history).
    case noHistory

    /// One line, saying what to do.
    public var description: String {
        switch self {
        case .unknownEntry(let id):
            return "no history entry has the id \(id) (list them with 'readingprefs history')"
        case .noHistory:
            return "no history is kept here yet: a device keeps history once it syncs, is named "
                + "('readingprefs store device --name NAME') or told to ('store device --history')"
        }
    }
}
