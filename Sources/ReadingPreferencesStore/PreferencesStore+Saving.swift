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
        // One read-modify-write at a time, so concurrent edits through this store never
        // compute from the same stale state.
        try await section.run { turn in
            var editor = try await editor(for: publication, context: context)
            let original = editor.preferences
            let result = try body(&editor)
            try await save(editor.preferences, original: original, publication: publication, turn)
            return result
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
    func save(_ preferences: Preferences, original: Preferences, publication: String?, _ turn: WriteTurn)
        async throws -> [StoredChange]
    {
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
        return try await commit(changes, cause: .edit, turn)
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
        try await section.run { turn in
            if layer == .overrides {
                // Validate on the overrides alone, then write the keys that changed there.
                let original = try await preferences(in: .overrides).withoutReservedKeys
                let editor = PreferencesEditor<Schema>(preferences: original, resolver: resolver(context))
                let edited = try Self.applying(
                    edit, to: editor, activation: false, unknown: allowingUnknownKeys)
                return try await commit(
                    [.overrides: KeyChanges(from: original, to: edited)], cause: .override, turn)
            }
            var (merged, overrides) = try await layers(for: publication)
            // An explicit layer's own values are the ones the edit starts from, so a key held
            // there (a shared value under an active profile) can be changed or removed there.
            if let layer { merged.merge(try await preferences(in: layer).withoutReservedKeys) }
            let editor = PreferencesEditor<Schema>(
                preferences: merged, resolver: resolver(context), overrides: overrides)
            let edited = try Self.applying(edit, to: editor, activation: true, unknown: allowingUnknownKeys)
            guard let layer else {
                return try await save(edited, original: merged, publication: publication, turn)
            }
            return try await commit([layer: KeyChanges(from: merged, to: edited)], cause: .edit, turn)
        }
    }

    /// An edit applied through an editor; a `set` or `clear` of a key no setting knows goes
    /// straight in when unknown keys are allowed.
    static func applying(
        _ edit: PreferenceEdit, to editor: PreferencesEditor<Schema>, activation: Bool, unknown: Bool
    ) throws -> Preferences {
        var editor = editor
        if unknown, let key = edit.key, Schema.catalogue.descriptor(forKey: key) == nil {
            var preferences = editor.preferences
            switch edit {
            case .set(_, let value, _): preferences[key] = value
            case .clear: preferences[key] = nil
            default: break
            }
            return preferences
        }
        switch edit {
        case .set(let key, let value, _) where !activation:
            try editor.apply(.set(key: key, value: value, activate: false))
        default:
            try editor.apply(edit)
        }
        return editor.preferences
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

    /// ``flush()`` inside the write section.
    func flush(_ turn: WriteTurn) async throws {
        for layer in pendingWrites.keys.sorted(by: { $0.description < $1.description }) {
            guard let changes = pendingWrites[layer] else { continue }
            try await write(changes, durablyTo: layer, turn)
            pendingWrites[layer] = nil
        }
    }

    // MARK: - Committing

    /// Whether a key is publication-specific for this configurable (SPEC 5.5), aliases included.
    static func isPublicationSpecific(_ key: String) -> Bool {
        Schema.catalogue.descriptors.contains { $0.scope == .publication && $0.storedKeys.contains(key) }
    }

    /// Applies key changes to layers: written now (or coalesced), the state swapped, then the
    /// change streams told. Returns what changed, per layer and key.
    @discardableResult
    func commit(_ changes: [StoreLayer: KeyChanges], cause: ChangeCause, _ turn: WriteTurn) async throws
        -> [StoredChange]
    {
        let changes = changes.filter { !$0.value.isEmpty }
        guard !changes.isEmpty else { return [] }
        var written: [StoredChange] = []
        for (layer, keys) in changes.sorted(by: { $0.key.description < $1.key.description }) {
            let before = try await preferences(in: layer)
            for key in keys.keys {
                guard let value = keys[key] else { continue }
                let old = before[key]
                if let old, let value, old.isWrittenAlike(value) { continue }
                if old == nil && value == nil { continue }
                written.append(StoredChange(layer: layer, key: key, oldValue: old, newValue: value))
            }
            if options.coalescesWrites {
                // Load the layer first, so the cache holds it under the pending keys.
                _ = try await document(layer)
                pendingWrites[layer, default: KeyChanges()].merge(keys)
            } else {
                try await write(keys, durablyTo: layer, turn)
            }
        }
        if options.coalescesWrites { scheduleFlush() }
        await notify(cause: cause)
        return written
    }

    /// Writes key changes to a layer's document through the storage's one update path.
    func write(_ changes: KeyChanges, durablyTo layer: StoreLayer, _ turn: WriteTurn) async throws {
        let (document, problems) = try await storage.apply(changes, to: location(layer))
        self.problems += problems
        documents[layer] = .some(document)
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
