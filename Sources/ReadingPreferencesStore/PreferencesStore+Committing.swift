import ReadingPreferences

// How the store's edits reach the storage: changed keys per layer, written now or coalesced, on
// the documents a precondition was checked on, through the storage's document-write step.
extension PreferencesStore {
    /// Whether a key is publication-specific for this configurable (Specs/Resolution.md §6), aliases included.
    static func isPublicationSpecific(_ key: String) -> Bool {
        Schema.catalogue.descriptors.contains { $0.scope == .publication && $0.storedKeys.contains(key) }
    }

    /// Applies key changes to layers: written now (or coalesced), the state swapped, then the
    /// change streams told. Returns what changed, per layer and key: what the document-write step
    /// wrote, which also records it in the change journal with `origin` (Specs/Store.md §15.1). For a
    /// conditional write, `inputs` are the documents its precondition was checked on: the changes
    /// are written on them as read, with a check that none changed, in one attempt (a conflict
    /// goes back to the caller, which checks the precondition again).
    @discardableResult
    func commit(
        _ changes: [StoreLayer: KeyChanges], cause: ChangeCause, _ turn: WriteTurn,
        checking inputs: PublicationInputs? = nil, origin: ChangeOrigin = .edit
    ) async throws -> [StoredChange] {
        let changes = changes.filter { !$0.value.isEmpty }
        guard !changes.isEmpty else { return [] }
        let written: [StoredChange]
        if let inputs {
            written = try await write(changes, turn, checking: inputs, recording: recording(origin))
        } else if options.coalescesWrites {
            // Written later: what the edit changes now, from the documents the store holds.
            var result: [StoredChange] = []
            let time = now
            for (layer, keys) in changes.sorted(by: { $0.key.description < $1.key.description }) {
                let before = try await preferences(in: layer)
                result += StoredChange.changes(
                    at: location(layer), from: before, to: keys.applied(to: before))
                pendingWrites[layer, default: KeyChanges()].merge(keys)
                for key in keys.keys { pendingTimes[layer, default: [:]][JSONScalarKey(key)] = time }
            }
            written = result
            scheduleFlush()
        } else {
            written = try await write(changes, turn, recording: recording(origin))
        }
        await notify(cause: cause)
        return written
    }

    /// The wall clock of ``Options/now``, in milliseconds since 1970.
    var now: UInt64 { Milliseconds.of(options.now()) }

    /// What the document-write step records for a change made now (nothing when the store does
    /// not record edits).
    func recording(_ origin: ChangeOrigin) -> ChangeRecording? {
        options.stampsEdits ? ChangeRecording(origin, at: now) : nil
    }

    /// Writes key changes to layers' documents in one batch, through the storage's one
    /// document-write step: from the documents the store holds, read again on a conflict.
    @discardableResult
    func write(_ changes: [StoreLayer: KeyChanges], _ turn: WriteTurn, recording: ChangeRecording?)
        async throws -> [StoredChange]
    {
        let ordered = changes.sorted { $0.key.description < $1.key.description }
        var held: [StorageLocation: StoredDocument?] = [:]
        for layer in changes.keys {
            if case .some(let document) = documents[layer] { held[location(layer)] = .some(document) }
        }
        let writes = try await storage.write(
            ordered.map { DocumentEdit.keys($0.value, at: location($0.key)) }, holding: held,
            recording: recording)
        problems += writes.problems
        keep(writes, of: ordered.map(\.key))
        return writes.changes
    }

    /// Keeps the documents a write left, for the layers it wrote.
    func keep(_ writes: DocumentWrites, of layers: [StoreLayer]) {
        for layer in layers {
            if let document = writes.documents[location(layer)] { documents[layer] = .some(document) }
        }
    }

    /// Writes key changes on the documents a precondition was checked on, with a check that
    /// none of them changed: one attempt.
    private func write(
        _ changes: [StoreLayer: KeyChanges], _ turn: WriteTurn, checking inputs: PublicationInputs,
        recording: ChangeRecording?
    ) async throws -> [StoredChange] {
        var loaded = inputs.loaded
        for layer in changes.keys where loaded[location(layer)] == nil {
            // A layer the precondition did not cover (an explicit target): read now, checked too.
            loaded[location(layer)] = .some(try await loadFresh(location(layer)))
        }
        let ordered = changes.sorted { $0.key.description < $1.key.description }
        let writes = try await storage.write(
            ordered.map { DocumentEdit.keys($0.value, at: location($0.key)) }, on: loaded,
            verifying: Array(loaded.keys), recording: recording)
        keep(writes, of: ordered.map(\.key))
        return writes.changes
    }

    /// Runs `body` unconditionally (`etag` is `nil` and nothing is expected), or, with the
    /// publication's documents read again, their fingerprints matching `etag` and every expected
    /// key holding its expected value, again whenever its batch conflicts (the preconditions are
    /// then checked anew).
    func conditionally<Result>(
        _ etag: String?, expecting expectations: [ExpectedValue] = [], publication: String?,
        context: PublicationContext, _ turn: WriteTurn,
        _ body: (PublicationInputs?) async throws -> Result
    ) async throws -> Result {
        guard etag != nil || !expectations.isEmpty else { return try await body(nil) }
        try await flush(turn)
        return try await retryingOnConflict(location(.shared)) { () async throws -> Result in
            let inputs = try await freshInputs(for: publication, context: context)
            let fingerprints = inputs.fingerprints(resolved(inputs, context: context))
            let place = location(publication.map(StoreLayer.publication) ?? .shared)
            if let etag, !fingerprints.matches(etag) {
                throw StorageError(
                    .preconditionFailed, location: place,
                    message: "the preferences changed since they were read: \(etag) is neither the stored "
                        + "fingerprint \(fingerprints.storedETag) nor the settings fingerprint "
                        + fingerprints.settingsETag,
                    version: StorageVersion(fingerprints.stored))
            }
            // Specs/Store.md §12.5: only the keys the edit names; other keys changing is no conflict.
            let merged = inputs.merged
            let stale = expectations.filter { !$0.holds(in: merged) }.map {
                StaleValue(key: $0.key, expected: $0.value, stored: merged[$0.key])
            }
            if !stale.isEmpty {
                var error = StorageError(
                    .preconditionFailed, location: place,
                    message: stale.map {
                        "\($0.key) changed since it was read: \($0.expected?.jsonString() ?? "none") expected, "
                            + "\($0.stored?.jsonString() ?? "none") stored"
                    }.joined(separator: "; "),
                    version: StorageVersion(fingerprints.stored))
                error.staleValues = stale
                throw error
            }
            return try await body(inputs)
        }
    }

    private func scheduleFlush() {
        guard scheduledFlush == nil else { return }
        let delay = options.writeDelay
        scheduledFlush = Task { [weak self] in
            try? await Task.sleep(nanoseconds: delay)
            guard !Task.isCancelled else { return }
            await self?.flushScheduled()
        }
    }

    private func flushScheduled() async {
        scheduledFlush = nil
        do {
            try await flush()
        } catch {
            // Kept pending; the next flush (or edit) writes them.
            if let error = error as? StorageError { problems.append(error) }
        }
    }
}
