import ReadingPreferences

extension PreferencesStore {
    /// Edits a publication's preferences and saves them: each changed key goes back to the layer
    /// it came from (Specs/Store.md §3.1).
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
                // The layers are read once: nothing changes them between here and the save, which
                // runs in the same turn of the write section.
                let held = try await self.inputs(for: publication, context: context)
                var editor = PreferencesEditor<Schema>(
                    preferences: held.merged, resolver: resolver(context), overrides: held.overrides)
                let original = editor.preferences
                let result = try body(&editor)
                try await save(
                    editor.preferences, original: original, publication: publication, context: context, turn,
                    checking: inputs, held: held)
                return result
            }
        }
    }

    /// Saves an editor's preferences: every key that differs from `original` goes back to the
    /// highest of the layers an edit may write (the base, this device's class, this device, the
    /// publication) that holds it; a key none holds goes where the scope policy says
    /// (Specs/Store.md §3.1; by default the publication for a publication-specific key,
    /// Specs/Resolution.md §6, else shared or the active profile). Only changed keys are written,
    /// so a concurrent change of another key survives.
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

    /// ``save(_:original:publication:)`` for a publication whose context decides which profile
    /// the rules choose (Specs/Store.md §4.5): give the context the editor was made with.
    ///
    /// - Parameters:
    ///   - preferences: The edited preferences.
    ///   - original: The preferences the editor started from.
    ///   - publication: The publication, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    /// - Returns: What was written, one change per key.
    /// - Throws: ``StorageError``.
    @discardableResult
    public func save(
        _ preferences: Preferences, original: Preferences, publication: String?, context: PublicationContext
    ) async throws -> [StoredChange] {
        try await section.run { turn in
            try await save(preferences, original: original, publication: publication, context: context, turn)
        }
    }

    /// ``save(_:original:publication:)`` inside the write section; returns what was written.
    @discardableResult
    func save(
        _ preferences: Preferences, original: Preferences, publication: String?,
        context: PublicationContext = PublicationContext(), _ turn: WriteTurn,
        checking inputs: PublicationInputs? = nil, held given: PublicationInputs? = nil
    ) async throws -> [StoredChange] {
        // The layers the editor was made from, when the caller read them in this turn.
        let held: PublicationInputs
        if let given {
            held = given
        } else {
            held = try await self.inputs(for: publication, context: context)
        }
        let layers = held.editableLayers
        let policy = try await scopePolicy()
        let edited = KeyChanges(from: original, to: preferences)
        var changes: [StoreLayer: KeyChanges] = [:]
        for key in edited.keys {
            guard let value = edited[key] else { continue }
            let layer: StoreLayer
            if let holder = layers.first(where: { $0.preferences[key] != nil }) {
                layer = holder.layer
            } else if value == nil {
                continue  // held by no layer: nothing to remove
            } else {
                let isPublicationSpecific = Self.isPublicationSpecific(key)
                layer = Self.placement(
                    policy.target(forKey: key, isPublicationSpecific: isPublicationSpecific), in: held,
                    isPublicationSpecific: isPublicationSpecific)
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
    ///     layer it came from (Specs/Store.md §3.3). ``StoreLayer/overrides`` edits the debug layer alone, with
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
    /// (Specs/Server.md §5.4): every edit, and every document they touch, or none; and, given the ETag the
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
    ///   - expectations: The values the client read for the keys it changes (``ExpectedValue``,
    ///     compared with the merged stored preferences of the publication, overrides aside):
    ///     the edits apply only if each still holds; changes of other keys are no conflict.
    /// - Returns: What was written, one change per key, in order.
    /// - Throws: `PreferenceError` for a rejected edit, ``StorageError`` with
    ///   ``StorageError/Code/preconditionFailed`` when the preferences changed since the client
    ///   read them, or an expected key holds another value (listed in
    ///   ``StorageError/staleValues``); nothing is written then. Or another ``StorageError``.
    @discardableResult
    public func apply(
        _ edits: [PreferenceEdit], publication: String? = nil,
        context: PublicationContext = PublicationContext(),
        to layer: StoreLayer? = nil, allowingUnknownKeys: Bool = false, ifMatch etag: String? = nil,
        expecting expectations: [ExpectedValue] = []
    ) async throws -> [StoredChange] {
        try await section.run { turn in
            try await conditionally(
                etag, expecting: expectations, publication: publication, context: context, turn
            ) { inputs in
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
                var (merged, overrides) = try await layers(for: publication, context: context)
                // An explicit layer's own values are the ones the edit starts from, so a key held
                // there (a shared value under an active profile) can be changed or removed there.
                var own: Preferences?
                if let layer { own = try await preferences(in: layer).withoutReservedKeys }
                if let own { merged.merge(own) }
                var editor = PreferencesEditor<Schema>(
                    preferences: merged, resolver: resolver(context), overrides: overrides)
                for edit in edits {
                    try Self.apply(edit, to: &editor, activation: true, unknown: allowingUnknownKeys)
                }
                guard let layer else {
                    return try await save(
                        editor.preferences, original: merged, publication: publication, context: context,
                        turn,
                        checking: inputs)
                }
                var changes = KeyChanges(from: merged, to: editor.preferences)
                // A key an edit names that the layer does not hold as edited: a value that another
                // layer already gives (`set lineHeight 1.4 --layer class` under a shared 1.4) is
                // still set in the named layer (Specs/Store.md §3.3).
                for key in edits.compactMap(\.key) where changes[key] == nil {
                    let value = editor.preferences[key]
                    if own?[key] != value { changes[key] = .some(value) }
                }
                return try await commit([layer: changes], cause: .edit, turn, checking: inputs)
            }
        }
    }

    /// The layer a policy's target names for a key no layer holds. A target this device cannot
    /// honour follows the default rule: the class of a device without one is the book for a
    /// publication key (when there is a book) and the base for the others; the book of no
    /// publication is the base.
    static func placement(_ target: EditTarget, in inputs: PublicationInputs, isPublicationSpecific: Bool)
        -> StoreLayer
    {
        switch target {
        case .base: return inputs.base
        case .device: return .device
        case .deviceClass:
            if let deviceClass = inputs.deviceClass { return .deviceClass(deviceClass) }
            return isPublicationSpecific
                ? inputs.publication.map(StoreLayer.publication) ?? inputs.base : inputs.base
        case .book: return inputs.publication.map(StoreLayer.publication) ?? inputs.base
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
        // Each key recorded with the time it was edited, not the time it is written.
        var recording = recording(.edit)
        for (layer, times) in pendingTimes {
            for (key, time) in times where pendingWrites[layer]?[key.string] != nil {
                let earlier = recording?.keyTimes[key] ?? 0
                recording?.keyTimes[key] = max(earlier, time)
            }
        }
        try await write(pendingWrites, turn, recording: recording)
        pendingWrites.removeAll()
        pendingTimes.removeAll()
    }
}
