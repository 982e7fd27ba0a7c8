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
        try await serialized {
            var editor = try await editor(for: publication, context: context)
            let original = editor.preferences
            let result = try body(&editor)
            try await saveLocked(editor.preferences, original: original, publication: publication)
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
    /// - Throws: ``StorageError``.
    public func save(_ preferences: Preferences, original: Preferences, publication: String?) async throws {
        try await serialized {
            try await saveLocked(preferences, original: original, publication: publication)
        }
    }

    /// ``save(_:original:publication:)`` while this task holds the turn to write.
    func saveLocked(_ preferences: Preferences, original: Preferences, publication: String?) async throws {
        let base = try await baseLayer()
        let baseDocument = try await self.preferences(in: base)
        var publicationDocument: Preferences?
        if let publication { publicationDocument = try await self.preferences(in: .publication(publication)) }
        var changes: [StoreLayer: [String: JSONValue?]] = [:]
        for key in Self.changedKeys(from: original, to: preferences) {
            let value = preferences[key]
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
            changes[layer, default: [:]][key] = .some(value)
        }
        try await commitLocked(changes, cause: .edit)
    }

    /// Applies one key-based edit to a publication (or to the overrides), as the CLI's
    /// `store set` and `store remove` do: through the publication's editor, so it validates,
    /// rounds and activates like ``edit(publication:context:_:)``.
    ///
    /// - Parameters:
    ///   - edit: The edit.
    ///   - publication: The publication, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    ///   - override: Whether to edit the overrides layer instead (a debug layer; no activation).
    /// - Throws: `PreferenceError` for a rejected edit, or ``StorageError``.
    public func apply(
        _ edit: PreferenceEdit, publication: String? = nil,
        context: PublicationContext = PublicationContext(),
        override: Bool = false
    ) async throws {
        guard override else {
            try await self.edit(publication: publication, context: context) { editor in try editor.apply(edit)
            }
            return
        }
        try await serialized {
            // Validate on the overrides alone, then write the keys that changed there.
            let original = try await preferences(in: .overrides).withoutReservedKeys
            var editor = PreferencesEditor<Schema>(preferences: original, resolver: resolver(context))
            switch edit {
            case .set(let key, let value, _): try editor.apply(.set(key: key, value: value, activate: false))
            default: try editor.apply(edit)
            }
            var changes: [String: JSONValue?] = [:]
            for key in Self.changedKeys(from: original, to: editor.preferences) {
                changes[key] = .some(editor.preferences[key])
            }
            try await commitLocked([.overrides: changes], cause: .override)
        }
    }

    /// Sets or removes stored keys in one layer directly, as a person editing its file would:
    /// no validation, for keys of any kind (unknown keys included).
    ///
    /// - Parameters:
    ///   - values: The keys to set; a `nil` value removes the key.
    ///   - layer: The layer.
    /// - Throws: ``StorageError``.
    public func write(_ values: [String: JSONValue?], to layer: StoreLayer) async throws {
        try await commit([layer: values], cause: layer == .overrides ? .override : .edit)
    }

    /// Writes every pending coalesced edit now.
    ///
    /// - Throws: ``StorageError`` when a write fails; its changes stay pending.
    public func flush() async throws {
        scheduledFlush?.cancel()
        scheduledFlush = nil
        try await serialized { try await flushLocked() }
    }

    /// ``flush()`` while this task holds the turn to write.
    func flushLocked() async throws {
        for layer in pendingWrites.keys.sorted(by: { $0.description < $1.description }) {
            guard let changes = pendingWrites[layer] else { continue }
            try await write(changes, durablyTo: layer)
            pendingWrites[layer] = nil
        }
    }

    // MARK: - Committing

    /// The keys whose values differ between two preferences (added, removed or changed),
    /// reserved `$` keys aside, in a stable order.
    static func changedKeys(from original: Preferences, to edited: Preferences) -> [String] {
        original.changedKeys(to: edited)
    }

    /// Whether a key is publication-specific for this configurable (SPEC 5.5), aliases included.
    static func isPublicationSpecific(_ key: String) -> Bool {
        Schema.catalogue.descriptors.contains { $0.scope == .publication && $0.storedKeys.contains(key) }
    }

    /// Applies key changes to layers: written now (or coalesced), the state swapped, then the
    /// change streams told.
    func commit(_ changes: [StoreLayer: [String: JSONValue?]], cause: ChangeCause) async throws {
        let changes = changes.filter { !$0.value.isEmpty }
        guard !changes.isEmpty else { return }
        try await serialized { try await commitLocked(changes, cause: cause) }
    }

    /// ``commit(_:cause:)`` while this task holds the turn to write.
    func commitLocked(_ changes: [StoreLayer: [String: JSONValue?]], cause: ChangeCause) async throws {
        let changes = changes.filter { !$0.value.isEmpty }
        guard !changes.isEmpty else { return }
        for (layer, keys) in changes {
            if options.coalescesWrites {
                // Load the layer first, so the cache holds it under the pending keys.
                _ = try await document(layer)
                for (key, value) in keys { pendingWrites[layer, default: [:]][key] = .some(value) }
            } else {
                try await write(keys, durablyTo: layer)
            }
        }
        if options.coalescesWrites { scheduleFlush() }
        await notify(cause: cause)
    }

    /// Writes key changes to a layer's document: load it fresh, apply the keys, save at that
    /// version; on a conflict (another writer came first), start again.
    func write(_ keys: [String: JSONValue?], durablyTo layer: StoreLayer) async throws {
        let location = location(layer)
        var lastConflict: StorageError?
        for _ in 0..<32 {
            let current = try await loadFresh(location)
            var preferences = current?.preferences ?? Preferences()
            for (key, value) in keys.sorted(by: { $0.key < $1.key }) { preferences[key] = value }
            let version: StorageVersion
            do throws(StorageError) {
                version = try await storage.save(preferences, to: location, expecting: current?.version)
            } catch {
                guard error.code == .conflict else { throw error }
                lastConflict = error
                continue
            }
            documents[layer] = .some(StoredDocument(preferences: preferences, version: version))
            return
        }
        throw lastConflict
            ?? StorageError(.conflict, location: location, message: "too many concurrent writers")
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
