import ReadingPreferences

extension PreferencesStore {
    /// Moves a value to another layer, keeping it (Specs/Store.md §3.7): "use on all devices"
    /// (``EditTarget/base``), "only on devices like this" (``EditTarget/deviceClass``), "only on
    /// this device" (``EditTarget/device``), "only this book" (``EditTarget/book``). The key is
    /// set in the target to the value that resolves here, and removed from the layers below the
    /// target that this device resolves (of base, class, device and book, lowest first); a layer
    /// above the target keeps what it holds, so the value that resolves here is kept. One batch
    /// of the storage's document-write step, recorded with cause ``ChangeOrigin/move``: one change
    /// for observation and sync.
    ///
    /// ```swift
    /// try await store.move("fontSize", to: .deviceClass, publication: bookID)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The setting's key (an alias names its setting; unknown keys move as stored).
    ///   - target: Where the value goes.
    ///   - publication: The publication whose layers this device resolves, or `nil` for none.
    /// - Returns: What was written, one change per layer and key; empty when no layer holds the
    ///   key, or only the target does.
    /// - Throws: ``EditTargetError`` when the target names no layer here (a device with no
    ///   class, the book without a publication), or ``StorageError``.
    @discardableResult
    public func move(_ key: String, to target: EditTarget, publication: String? = nil) async throws
        -> [StoredChange]
    {
        try await section.run { turn in
            let destination = try await layer(for: target, publication: publication)
            let inputs = try await inputs(for: publication)
            // The setting's key and its former names; an unknown key is its own.
            let descriptor = Schema.catalogue.descriptor(forKey: key)
            let storedKeys = descriptor?.storedKeys ?? [key]
            let canonical = descriptor?.key ?? key
            func value(in preferences: Preferences) -> JSONValue? {
                descriptor.map { preferences.storedMember(of: $0)?.value } ?? preferences[key]
            }
            // The value that resolves here, from the highest layer holding it.
            guard let value = inputs.editableLayers.lazy.compactMap({ value(in: $0.preferences) }).first
            else { return [] }
            var changes: [StoreLayer: KeyChanges] = [:]
            // Highest first: the layers after the destination are the ones below it.
            let below = inputs.editableLayers.drop { $0.layer != destination }.dropFirst()
            for (layer, preferences) in below {
                for stored in storedKeys where preferences[stored] != nil {
                    changes[layer, default: KeyChanges()][stored] = .some(nil)
                }
            }
            let held = try await self.preferences(in: destination)
            for stored in storedKeys where stored != canonical && held[stored] != nil {
                changes[destination, default: KeyChanges()][stored] = .some(nil)
            }
            if held[canonical] != value {
                changes[destination, default: KeyChanges()][canonical] = .some(value)
            }
            return try await commit(changes, cause: .edit, turn, origin: .move)
        }
    }
}
