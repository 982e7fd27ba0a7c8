import ReadingPreferences

extension PreferencesStore {
    // MARK: - What a server answers with

    /// The fingerprints of a publication's preferences: HTTP ETags of what is stored and of the
    /// settings (see ``PreferencesFingerprints`` for which to use for what).
    ///
    /// - Parameters:
    ///   - publication: The publication's identifier, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    /// - Returns: Both fingerprints.
    /// - Throws: ``StorageError`` when a document cannot be read.
    public func fingerprints(
        for publication: String? = nil, context: PublicationContext = PublicationContext()
    )
        async throws -> PreferencesFingerprints
    {
        let inputs = try await inputs(for: publication, context: context)
        return inputs.fingerprints(resolved(inputs, context: context))
    }

    /// Everything a server answers about a publication's preferences, read together: the merged
    /// stored preferences, every setting with its source, the resolved settings, and their
    /// fingerprints, all of the same stored state.
    ///
    /// ```swift
    /// let state = try await store.state(for: bookID, context: book)
    /// response.headers["ETag"] = state.fingerprints.settingsETag
    /// ```
    ///
    /// - Parameters:
    ///   - publication: The publication's identifier, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    ///   - includingProvenance: Whether each setting carries its stored value's provenance (read
    ///     from the change journals).
    /// - Returns: The state.
    /// - Throws: ``StorageError`` when a document cannot be read.
    public func state(
        for publication: String? = nil, context: PublicationContext = PublicationContext(),
        includingProvenance: Bool = false
    ) async throws -> PublicationState<Schema> {
        let inputs = try await inputs(for: publication, context: context)
        let resolved = resolved(inputs, context: context)
        var settings = try await attributedSettings(of: inputs, context: context)
        if includingProvenance { settings = try await withProvenance(settings, inputs) }
        return PublicationState(
            preferences: inputs.merged, overrides: inputs.overrides, settings: settings, resolved: resolved,
            fingerprints: inputs.fingerprints(resolved))
    }

    // MARK: - Whole documents

    /// A layer's document as stored now, with its version (the `ETag` of a document route),
    /// read from the storage.
    ///
    /// - Parameter layer: The layer.
    /// - Returns: The document, reserved `$` keys included, or `nil` when there is none.
    /// - Throws: ``StorageError`` when it cannot be read.
    public func storedDocument(in layer: StoreLayer) async throws -> StoredDocument? {
        let document = try await loadFresh(location(layer))
        if pendingWrites[layer] == nil { documents[layer] = .some(document) }
        return document
    }

    /// Replaces a layer's document, validated through the editor's rules: each known key's value
    /// is checked and stored as the editor stores it (a rejected value fails the whole write and
    /// changes nothing); unknown keys are kept as they are, for a newer app; reserved `$` keys
    /// the new document leaves out keep their stored values (a profile's name). A document left
    /// with no keys is removed.
    ///
    /// ```swift
    /// // PUT /v1/epub/preferences/shared with If-Match: "3f9c…-412"
    /// let result = try await store.replaceDocument(
    ///     uploaded, in: .shared, ifMatch: .version(StorageVersion("3f9c…-412")))
    /// response.headers["ETag"] = result.document?.version.rawValue
    /// ```
    ///
    /// - Parameters:
    ///   - document: The new document.
    ///   - layer: The layer whose document it replaces.
    ///   - context: The publication context values are validated in.
    ///   - precondition: What the document must still be (its version, or absent); `nil` for an
    ///     unconditional write.
    /// - Returns: What changed, and the document as stored.
    /// - Throws: `PreferenceError` for a rejected value, ``DocumentRejection`` for several (each
    ///   rejected key named); ``StorageError`` with
    ///   ``StorageError/Code/preconditionFailed`` when the document is not as `precondition`
    ///   says (nothing is written); another ``StorageError``.
    @discardableResult
    public func replaceDocument(
        _ document: Preferences, in layer: StoreLayer, context: PublicationContext = PublicationContext(),
        ifMatch precondition: DocumentPrecondition? = nil
    ) async throws -> DocumentWrite {
        try await writeDocument(in: layer, precondition: precondition) { current in
            var validated = try self.validated(document, keys: nil, context: context)
            for member in current.members
            where Preferences.isReserved(member.key) && validated[member.key] == nil {
                validated[member.key] = member.value
            }
            return validated
        }
    }

    /// Applies a JSON merge patch (RFC 7396) to a layer's document, validated through the
    /// editor's rules: each known key the patch changes is checked (a rejected value fails the
    /// whole write and changes nothing); unknown keys are set and removed as the patch says; a
    /// `null` removes a key. A document left with no keys is removed; a patch of an absent
    /// document creates it.
    ///
    /// ```swift
    /// // PATCH /v1/epub/preferences/publications/urn%3Aisbn%3A978-0 with {"fontSize": 1.4, "theme": null}
    /// try await store.mergeDocument(["fontSize": 1.4, "theme": nil], in: .publication("urn:isbn:978-0"))
    /// ```
    ///
    /// - Parameters:
    ///   - patch: The merge patch.
    ///   - layer: The layer whose document it patches.
    ///   - context: The publication context values are validated in.
    ///   - precondition: What the document must still be; `nil` for an unconditional write.
    /// - Returns: What changed, and the document as stored.
    /// - Throws: `PreferenceError` for a rejected value, ``DocumentRejection`` for several (each
    ///   rejected key named); ``StorageError`` with
    ///   ``StorageError/Code/preconditionFailed`` when the document is not as `precondition`
    ///   says; another ``StorageError``.
    @discardableResult
    public func mergeDocument(
        _ patch: JSONObject, in layer: StoreLayer, context: PublicationContext = PublicationContext(),
        ifMatch precondition: DocumentPrecondition? = nil
    ) async throws -> DocumentWrite {
        try await writeDocument(in: layer, precondition: precondition) { current in
            let patched = current.applying(mergePatch: patch)
            let changed = KeyChanges(from: current, to: patched)
            return try self.validated(
                patched, keys: Set(changed.keys.map(JSONScalarKey.init)), context: context)
        }
    }

    /// Writes a layer's document computed from the stored one, at the version read, again on a
    /// conflict (the precondition checked anew).
    private func writeDocument(
        in layer: StoreLayer, precondition: DocumentPrecondition?,
        _ compute: @escaping (Preferences) throws -> Preferences
    ) async throws -> DocumentWrite {
        try await section.run { turn in
            try await flush(turn)
            let location = location(layer)
            // The one document-write step: the precondition is checked on the document it reads,
            // and both run again when another writer came first.
            let writes = try await storage.write(
                [
                    DocumentEdit(location) { current in
                        if let precondition, !precondition.holds(for: current) {
                            throw StorageError(
                                .preconditionFailed, location: location,
                                message:
                                    "\(location) is \(current.map { "at version \($0.version)" } ?? "absent"), "
                                    + "not \(precondition)",
                                version: current?.version)
                        }
                        return try compute(current?.preferences ?? Preferences())
                    }
                ], recording: recording(.edit))
            problems += writes.problems
            let written = writes.changes
            let saved = writes.documents[location] ?? nil
            documents[layer] = .some(saved)
            if !written.isEmpty { await notify(cause: layer == .overrides ? .override : .edit) }
            return DocumentWrite(changes: written, document: saved)
        }
    }

    /// A document with the values of its known keys (all, or those in `keys`) validated, and
    /// stored as the editor stores them when it changes them; unknown and reserved keys as they
    /// are, in place.
    func validated(_ document: Preferences, keys: Set<JSONScalarKey>?, context: PublicationContext) throws
        -> Preferences
    {
        var members: [JSONObject.Member] = []
        members.reserveCapacity(document.count)
        let resolver = resolver(context)
        var rejected: [PreferenceError] = []
        for member in document.members {
            guard !Preferences.isReserved(member.key), Schema.catalogue.slot(forKey: member.key) != nil,
                keys?.contains(JSONScalarKey(member.key)) ?? true
            else {
                members.append(member)
                continue
            }
            var editor = PreferencesEditor<Schema>(resolver: resolver)
            do throws(PreferenceError) {
                try editor.set(key: member.key, json: member.value, activate: false)
            } catch {
                // Every rejected key is reported, not only the first.
                rejected.append(error)
                continue
            }
            // A value the editor keeps as it is keeps its text (`1.50`), and so does a string
            // the editor only spells otherwise (a colour in the case it came, Specs/CSS.md §2.3);
            // one it changes (a clamped number) is stored as the editor stores it.
            if let value = editor.preferences[member.key] {
                let kept = value == member.value || Self.sameString(member.value, value, key: member.key)
                members.append(JSONObject.Member(key: member.key, value: kept ? member.value : value))
            }
        }
        if rejected.count == 1 { throw rejected[0] }
        if !rejected.isEmpty { throw DocumentRejection(errors: rejected) }
        return Preferences(members: members)
    }

    /// Whether a color string sent and the value the editor stored for it are the same color
    /// (`#faf4e8` and `#FAF4E8`).
    private static func sameString(_ sent: JSONValue, _ stored: JSONValue, key: String) -> Bool {
        guard case .string = sent, let descriptor = Schema.catalogue.descriptor(forKey: key),
            descriptor.coder == .color,
            case .success(let a) = descriptor.coder.decode(sent),
            case .success(let b) = descriptor.coder.decode(stored)
        else { return false }
        return a == b
    }
}

/// What a whole-document write requires of the stored document: the precondition of an HTTP
/// `PUT` or `PATCH` of a layer.
public enum DocumentPrecondition: Sendable, Hashable, CustomStringConvertible {
    /// The document is still at this version (`If-Match` with the ETag a `GET` answered).
    case version(StorageVersion)
    /// There is no document yet (`If-None-Match: *`).
    case absent

    /// Whether a document (or its absence) satisfies the precondition.
    ///
    /// - Parameter document: The stored document, or `nil`.
    /// - Returns: Whether it does.
    public func holds(for document: StoredDocument?) -> Bool {
        switch self {
        case .version(let version): return document?.version == version
        case .absent: return document == nil
        }
    }

    /// `at version …` or `absent`.
    public var description: String {
        switch self {
        case .version(let version): return "at version \(version)"
        case .absent: return "absent"
        }
    }
}

/// What a whole-document write did: the keys it changed, and the document as stored after it.
public struct DocumentWrite: Sendable, Hashable {
    /// The changed keys, in order.
    public var changes: [StoredChange]
    /// The document as stored now (its version is the new `ETag`), or `nil` when the write
    /// left it with no keys and it was removed.
    public var document: StoredDocument?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - changes: The changed keys.
    ///   - document: The document as stored.
    public init(changes: [StoredChange], document: StoredDocument?) {
        self.changes = changes
        self.document = document
    }
}

/// A publication's preferences as a server answers with them, all of one stored state
/// (``PreferencesStore/state(for:context:includingProvenance:)``).
public struct PublicationState<Schema: ResolvableSchema>: Sendable {
    /// The merged stored preferences (base, then the publication's), without reserved keys.
    public var preferences: Preferences
    /// The temporary overrides.
    public var overrides: Preferences
    /// Every setting with its effective value, its source and whether it takes effect.
    public var settings: [AttributedSetting]
    /// The resolved settings, overrides applied.
    public var resolved: ResolvedSettings<Schema>
    /// The fingerprints of this state.
    public var fingerprints: PreferencesFingerprints
}
