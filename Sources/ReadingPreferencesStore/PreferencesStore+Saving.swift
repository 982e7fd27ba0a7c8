import ReadingPreferences

extension PreferencesStore {
    /// Edits a publication's preferences and saves them: each changed key goes back to the layer
    /// it came from (SPEC 9).
    ///
    /// ```swift
    /// try await store.edit(publication: bookID, context: book) { editor in
    ///     try editor.increment(.fontSize)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - publication: The publication's identifier, or `nil` to edit shared (or the active
    ///     profile) alone.
    ///   - context: What the configurable knows of the publication (it decides activation).
    ///   - body: The edits; when it throws, nothing is saved.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (a `PreferenceError`), or a ``StorageError``.
    @discardableResult
    public func edit<Result>(
        publication: String? = nil, context: PublicationContext = PublicationContext(),
        _ body: @Sendable (inout PreferencesEditor<Schema>) throws -> Result
    ) async throws -> Result {
        try await edit(publication: publication, context: context, ifMatch: nil, body)
    }

    /// Edits a publication's preferences and saves them only if they are still in the state a
    /// client read: its ETag, either of the publication's ``PreferencesFingerprints``. The
    /// check and every document the edit writes are one storage batch, so of several edits
    /// made with the same ETag at once, exactly one succeeds.
    ///
    /// ```swift
    /// func handle(_ store: PreferencesStore<EPUB>, bookID: String, ifMatch: String) async throws {
    ///     do {
    ///         try await store.edit(publication: bookID, ifMatch: ifMatch) { try $0.increment(.fontSize) }
    ///     } catch let error as StorageError where error.code == .preconditionFailed {
    ///         // 412 Precondition Failed
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - publication: The publication's identifier, or `nil` to edit shared (or the active
    ///     profile) alone.
    ///   - context: What the configurable knows of the publication (it decides activation, and
    ///     the settings fingerprint).
    ///   - etag: The ETag the client read (quoted or not; `*` matches any state), or `nil` for
    ///     an unconditional edit.
    ///   - body: The edits; when it throws, nothing is saved.
    /// - Returns: What `body` returns.
    /// - Throws: ``StorageError`` with ``StorageError/Code/preconditionFailed`` (nothing is
    ///   written) when the preferences changed since the client read them; what `body` throws; or
    ///   another ``StorageError``.
    @discardableResult
    public func edit<Result>(
        publication: String? = nil, context: PublicationContext = PublicationContext(), ifMatch etag: String?,
        _ body: @Sendable (inout PreferencesEditor<Schema>) throws -> Result
    ) async throws -> Result {
        // One read-modify-write at a time, so concurrent edits through this store never
        // compute from the same stale state.
        try await section.run { turn in
            try await conditionally(etag, publication: publication, context: context, turn) { inputs in
                var editor = try await editor(for: publication, context: context)
                let original = editor.preferences
                let result = try body(&editor)
                try await save(
                    editor.preferences, original: original, publication: publication, turn, checking: inputs)
                return result
            }
        }
    }

    /// Saves an editor's preferences: every key that differs from `original` goes back to the
    /// layer it came from; a key no layer held goes to the publication when it is
    /// publication-specific (SPEC 5.5), else to shared or the active profile. Only changed keys
    /// are written, so a concurrent change of another key survives.
    ///
    /// - Parameters:
    ///   - preferences: The edited preferences.
    ///   - original: The preferences the editor started from (``editor(for:context:)``'s).
    ///   - publication: The publication, or `nil` for shared alone.
    /// - Returns: What was written, one change per key.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func save(_ preferences: Preferences, original: Preferences, publication: String?) async throws
        -> [StoredChange]
    {
        try await section.run { turn in
            try await save(preferences, original: original, publication: publication, turn)
        }
    }

    /// ``save(_:original:publication:)`` inside the write section; returns what was written.
    @discardableResult
    func save(
        _ preferences: Preferences, original: Preferences, publication: String?, _ turn: WriteTurn,
        checking inputs: PublicationInputs? = nil
    ) async throws -> [StoredChange] {
        let base = try await baseLayer()
        let baseDocument = try await self.preferences(in: base)
        var publicationDocument: Preferences?
        if let publication { publicationDocument = try await self.preferences(in: .publication(publication)) }
        let edited = KeyChanges(from: original, to: preferences)
        var changes: [StoreLayer: KeyChanges] = [:]
        for key in edited.keys {
            guard let value = edited[key] else { continue }
            let layer: StoreLayer
            if let publication, publicationDocument?[key] != nil {
                layer = .publication(publication)
            } else if baseDocument[key] != nil {
                layer = base
            } else if value == nil {
                continue  // held by no layer: nothing to remove
            } else if let publication, Self.isPublicationSpecific(key) {
                layer = .publication(publication)
            } else {
                layer = base
            }
            changes[layer, default: KeyChanges()][key] = .some(value)
        }
        return try await commit(changes, cause: .edit, turn, checking: inputs)
    }

    /// Applies one key-based edit to a publication, as the CLI's `store set` and `store remove`
    /// and a server's edit route do: through the publication's editor, so it validates, clamps
    /// and activates like ``edit(publication:context:_:)``, and reports what it wrote.
    ///
    /// ```swift
    /// let changes = try await store.apply(.set(key: "lineHeight", value: 1.6), publication: bookID)
    /// // shared lineHeight: none → 1.6, and shared publisherStyles: none → false (activation)
    /// ```
    ///
    /// - Parameters:
    ///   - edit: The edit.
    ///   - publication: The publication, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    ///   - layer: Where to write every changed key; `nil` (the default) puts each back in the
    ///     layer it came from (SPEC 9). ``StoreLayer/overrides`` edits the debug layer alone, with
    ///     no activation; another layer (a per-book value for a shared key) gets every key the
    ///     edit changed, activation included.
    ///   - allowingUnknownKeys: Whether a `set` or `clear` of a key no setting knows is stored as
    ///     it is (a newer app's key), instead of failing with `unknownKey`.
    /// - Returns: What was written, one change per key, in order.
    /// - Throws: `PreferenceError` for a rejected edit (nothing is written), or ``StorageError``.
    @discardableResult
    public func apply(
        _ edit: PreferenceEdit, publication: String? = nil,
        context: PublicationContext = PublicationContext(),
        to layer: StoreLayer? = nil, allowingUnknownKeys: Bool = false
    ) async throws -> [StoredChange] {
        try await apply(
            [edit], publication: publication, context: context, to: layer,
            allowingUnknownKeys: allowingUnknownKeys,
            ifMatch: nil)
    }

    /// Applies key-based edits to a publication atomically, as a server's edits route does
    /// (SPEC 14): every edit, and every document they touch, or none; and, given the ETag the
    /// client read, only if the preferences are still in that state.
    ///
    /// ```swift
    /// func handle(_ store: PreferencesStore<EPUB>, bookID: String, ifMatch: String) async throws {
    ///     let changes = try await store.apply(
    ///         [.increment(key: "fontSize"), .set(key: "theme", value: "sepia")],
    ///         publication: bookID, ifMatch: ifMatch)
    ///     print(changes)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - edits: The edits, applied in order; the first rejected one fails them all.
    ///   - publication: The publication, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    ///   - layer: Where to write every changed key, as in
    ///     ``apply(_:publication:context:to:allowingUnknownKeys:)``.
    ///   - allowingUnknownKeys: Whether a `set` or `clear` of a key no setting knows is stored as
    ///     it is.
    ///   - etag: The ETag the client read, either of the publication's
    ///     ``PreferencesFingerprints`` (quoted or not; `*` matches any state), or `nil` for an
    ///     unconditional edit. The check and the writes are one storage batch.
    /// - Returns: What was written, one change per key, in order.
    /// - Throws: `PreferenceError` for a rejected edit, ``StorageError`` with
    ///   ``StorageError/Code/preconditionFailed`` when the preferences changed since the client
    ///   read them (nothing is written then), or another ``StorageError``.
    @discardableResult
    public func apply(
        _ edits: [PreferenceEdit], publication: String? = nil,
        context: PublicationContext = PublicationContext(),
        to layer: StoreLayer? = nil, allowingUnknownKeys: Bool = false, ifMatch etag: String? = nil
    ) async throws -> [StoredChange] {
        try await section.run { turn in
            try await conditionally(etag, publication: publication, context: context, turn) { inputs in
                if layer == .overrides {
                    // Validate on the overrides alone, then write the keys that changed there.
                    let original = try await preferences(in: .overrides).withoutReservedKeys
                    var editor = PreferencesEditor<Schema>(preferences: original, resolver: resolver(context))
                    for edit in edits {
                        try Self.apply(edit, to: &editor, activation: false, unknown: allowingUnknownKeys)
                    }
                    return try await commit(
                        [.overrides: KeyChanges(from: original, to: editor.preferences)], cause: .override,
                        turn,
                        checking: inputs)
                }
                var (merged, overrides) = try await layers(for: publication)
                // An explicit layer's own values are the ones the edit starts from, so a key held
                // there (a shared value under an active profile) can be changed or removed there.
                if let layer { merged.merge(try await preferences(in: layer).withoutReservedKeys) }
                var editor = PreferencesEditor<Schema>(
                    preferences: merged, resolver: resolver(context), overrides: overrides)
                for edit in edits {
                    try Self.apply(edit, to: &editor, activation: true, unknown: allowingUnknownKeys)
                }
                guard let layer else {
                    return try await save(
                        editor.preferences, original: merged, publication: publication, turn, checking: inputs
                    )
                }
                return try await commit(
                    [layer: KeyChanges(from: merged, to: editor.preferences)], cause: .edit, turn,
                    checking: inputs)
            }
        }
    }

    /// Applies one edit through an editor; a `set` on the overrides never activates.
    static func apply(
        _ edit: PreferenceEdit, to editor: inout PreferencesEditor<Schema>, activation: Bool, unknown: Bool
    ) throws {
        var edit = edit
        if !activation, case .set(let key, let value, _) = edit {
            edit = .set(key: key, value: value, activate: false)
        }
        try editor.apply(edit, allowingUnknownKeys: unknown)
    }

    /// Sets or removes stored keys in one layer directly, as a person editing its file would:
    /// no validation, for keys of any kind (unknown keys included).
    ///
    /// - Parameters:
    ///   - values: The keys to set; a `nil` value removes the key.
    ///   - layer: The layer.
    /// - Returns: What was written, one change per key.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func write(_ values: [String: JSONValue?], to layer: StoreLayer) async throws -> [StoredChange] {
        try await section.run { turn in
            try await commit(
                [layer: KeyChanges(values)], cause: layer == .overrides ? .override : .edit, turn)
        }
    }

    /// Writes every pending coalesced edit now.
    ///
    /// - Throws: ``StorageError`` when a write fails; its changes stay pending.
    public func flush() async throws {
        scheduledFlush?.cancel()
        scheduledFlush = nil
        try await section.run { turn in try await flush(turn) }
    }

    /// ``flush()`` inside the write section: every pending layer in one batch.
    func flush(_ turn: WriteTurn) async throws {
        guard !pendingWrites.isEmpty else { return }
        try await write(pendingWrites, turn)
        pendingWrites.removeAll()
        let edits = unstampedEdits
        unstampedEdits.removeAll()
        await recordPendingStamps(edits)
    }

    // MARK: - Committing

    /// Whether a key is publication-specific for this configurable (SPEC 5.5), aliases included.
    static func isPublicationSpecific(_ key: String) -> Bool {
        Schema.catalogue.descriptors.contains { $0.scope == .publication && $0.storedKeys.contains(key) }
    }

    /// Applies key changes to layers: written now (or coalesced), the state swapped, then the
    /// change streams told. Returns what changed, per layer and key. For a conditional write,
    /// `inputs` are the documents its precondition was checked on: the changes are written on
    /// them as read, with a check that none changed, in one attempt (a conflict goes back to
    /// the caller, which checks the precondition again).
    @discardableResult
    func commit(
        _ changes: [StoreLayer: KeyChanges], cause: ChangeCause, _ turn: WriteTurn,
        checking inputs: PublicationInputs? = nil
    ) async throws -> [StoredChange] {
        let changes = changes.filter { !$0.value.isEmpty }
        guard !changes.isEmpty else { return [] }
        let time = editTime
        var written: [StoredChange] = []
        for (layer, keys) in changes.sorted(by: { $0.key.description < $1.key.description }) {
            let before = try await preferences(in: layer)
            for key in keys.keys {
                guard let value = keys[key] else { continue }
                let old = before[key]
                if let old, let value, old.isWrittenAlike(value) { continue }
                if old == nil && value == nil { continue }
                written.append(
                    StoredChange(
                        configurable: configurable, layer: layer, key: key, oldValue: old, newValue: value))
            }
        }
        if let inputs {
            try await write(changes, turn, checking: inputs)
            await recordPendingStamps(Self.edits(written, at: time))
        } else if options.coalescesWrites {
            for (layer, keys) in changes {
                // Load the layer first, so the cache holds it under the pending keys.
                _ = try await document(layer)
                pendingWrites[layer, default: KeyChanges()].merge(keys)
            }
            // Stamped once written, with the time they were made.
            for (layer, edits) in Self.edits(written, at: time) {
                unstampedEdits[layer, default: []] += edits
            }
            scheduleFlush()
        } else {
            try await write(changes, turn)
            await recordPendingStamps(Self.edits(written, at: time))
        }
        await notify(cause: cause)
        return written
    }

    /// Writes key changes to layers' documents in one batch, through the storage's one
    /// document-write step (loaded again, and again on a conflict).
    func write(_ changes: [StoreLayer: KeyChanges], _ turn: WriteTurn) async throws {
        let ordered = changes.sorted { $0.key.description < $1.key.description }
        let writes = try await storage.write(
            ordered.map { DocumentEdit.keys($0.value, at: location($0.key)) })
        problems += writes.problems
        keep(writes, of: ordered.map(\.key))
    }

    /// Keeps the documents a write left, for the layers it wrote.
    private func keep(_ writes: DocumentWrites, of layers: [StoreLayer]) {
        for layer in layers {
            if let document = writes.documents[location(layer)] { documents[layer] = .some(document) }
        }
    }

    /// Writes key changes on the documents a precondition was checked on, with a check that
    /// none of them changed: one attempt.
    private func write(
        _ changes: [StoreLayer: KeyChanges], _ turn: WriteTurn, checking inputs: PublicationInputs
    )
        async throws
    {
        var loaded = inputs.loaded
        for layer in changes.keys where loaded[location(layer)] == nil {
            // A layer the precondition did not cover (an explicit target): read now, checked too.
            loaded[location(layer)] = .some(try await loadFresh(location(layer)))
        }
        let ordered = changes.sorted { $0.key.description < $1.key.description }
        let writes = try await storage.write(
            ordered.map { DocumentEdit.keys($0.value, at: location($0.key)) }, on: loaded,
            verifying: Array(loaded.keys))
        keep(writes, of: ordered.map(\.key))
    }

    /// Runs `body` unconditionally (`etag` is `nil`), or, with the publication's documents read
    /// again and their fingerprints matching `etag`, again whenever its batch conflicts (the
    /// precondition is then checked anew).
    func conditionally<Result>(
        _ etag: String?, publication: String?, context: PublicationContext, _ turn: WriteTurn,
        _ body: (PublicationInputs?) async throws -> Result
    ) async throws -> Result {
        guard let etag else { return try await body(nil) }
        try await flush(turn)
        return try await retryingOnConflict(location(.shared)) { () async throws -> Result in
            let inputs = try await freshInputs(for: publication)
            let fingerprints = inputs.fingerprints(resolved(inputs, context: context))
            guard fingerprints.matches(etag) else {
                throw StorageError(
                    .preconditionFailed,
                    location: location(publication.map(StoreLayer.publication) ?? .shared),
                    message: "the preferences changed since they were read: \(etag) is neither the stored "
                        + "fingerprint \(fingerprints.storedETag) nor the settings fingerprint "
                        + fingerprints.settingsETag,
                    version: StorageVersion(fingerprints.stored))
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
