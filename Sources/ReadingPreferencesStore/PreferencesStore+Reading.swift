import Foundation
import ReadingPreferences

// Reading a store: a publication's preferences, its editor, its settings with where each comes
// from (and, asked for, who set it), and what they resolve to.
extension PreferencesStore {
    /// The preferences that resolve for a publication: shared or the active profile, with the
    /// publication's own over them (overrides apart).
    ///
    /// - Parameter publication: The publication's identifier, or `nil` for shared alone.
    /// - Returns: The merged preferences, without reserved `$` keys.
    /// - Throws: ``StorageError`` when a document cannot be read.
    public func preferences(for publication: String? = nil) async throws -> Preferences {
        try await layers(for: publication).merged
    }

    /// The stored preferences of one layer, reserved `$` keys included.
    ///
    /// - Parameter layer: The layer.
    /// - Returns: Its preferences.
    /// - Throws: ``StorageError`` when the document cannot be read.
    public func storedPreferences(in layer: StoreLayer) async throws -> Preferences {
        try await preferences(in: layer)
    }

    /// An editor of a publication's preferences, with the overrides applied. Save it with
    /// ``save(_:original:publication:)``, or edit through ``edit(publication:context:_:)``.
    ///
    /// - Parameters:
    ///   - publication: The publication's identifier, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    /// - Returns: The editor.
    /// - Throws: ``StorageError`` when a document cannot be read.
    public func editor(for publication: String? = nil, context: PublicationContext = PublicationContext())
        async throws -> PreferencesEditor<Schema>
    {
        let (merged, overrides) = try await layers(for: publication, context: context)
        return PreferencesEditor(preferences: merged, resolver: resolver(context), overrides: overrides)
    }

    /// Every setting of a publication with its effective value, its source and whether it takes
    /// effect (Specs/Store.md §2.1 attribution), in catalogue order.
    ///
    /// - Parameters:
    ///   - publication: The publication's identifier, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    /// - Returns: One attributed setting per key of the catalogue.
    /// - Throws: ``StorageError`` when a document cannot be read.
    public func attributedSettings(
        for publication: String? = nil, context: PublicationContext = PublicationContext()
    )
        async throws -> [AttributedSetting]
    {
        try await attributedSettings(of: inputs(for: publication, context: context), context: context)
    }

    /// ``attributedSettings(for:context:)`` with each stored value's provenance
    /// (``AttributedSetting/provenance``): the device, time and cause of the change that set the
    /// value that resolves (Specs/Store.md §15.2). It reads the change journals of the documents
    /// the values come from.
    ///
    /// - Parameters:
    ///   - publication: The publication's identifier, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    /// - Returns: One attributed setting per key of the catalogue, with provenance where known.
    /// - Throws: ``StorageError`` when a document or a journal cannot be read.
    public func attributedSettingsWithProvenance(
        for publication: String? = nil, context: PublicationContext = PublicationContext()
    ) async throws -> [AttributedSetting] {
        let inputs = try await inputs(for: publication, context: context)
        return try await withProvenance(try await attributedSettings(of: inputs, context: context), inputs)
    }

    /// Attributed settings with the provenance of each value from a layer.
    func withProvenance(_ settings: [AttributedSetting], _ inputs: PublicationInputs) async throws
        -> [AttributedSetting]
    {
        let devices = await devices()
        var indexes: [StoreLayer: ProvenanceIndex] = [:]
        var result = settings
        for index in result.indices {
            let layer: StoreLayer
            let document: Preferences?
            switch result[index].source {
            case .override: (layer, document) = (.overrides, inputs.overrides)
            case .publication:
                guard let publication = inputs.publication else { continue }
                (layer, document) = (.publication(publication), inputs.publicationDocument)
            case .device: (layer, document) = (.device, inputs.deviceDocument)
            case .deviceClass(let id): (layer, document) = (.deviceClass(id), inputs.classDocument)
            case .profile, .shared: (layer, document) = (inputs.base, inputs.baseDocument)
            default: continue
            }
            guard let slot = Schema.catalogue.slot(forKey: result[index].key),
                let member = document?.storedMember(of: Schema.catalogue.descriptors[slot])
            else { continue }
            if indexes[layer] == nil {
                indexes[layer] = try await provenanceIndex(of: layer, devices: devices)
            }
            result[index].provenance = indexes[layer]?.provenance(of: member.key, holding: member.value)
        }
        return result
    }

    /// ``attributedSettings(for:context:)`` from inputs already read.
    func attributedSettings(of inputs: PublicationInputs, context: PublicationContext) async throws
        -> [AttributedSetting]
    {
        var profileName: String?
        if let id = inputs.base.profileID {
            profileName = inputs.baseDocument[Profile.nameKey]?.stringValue ?? id
        }
        let editor = PreferencesEditor<Schema>(
            preferences: inputs.merged, resolver: resolver(context), overrides: inputs.overrides)
        return Schema.catalogue.descriptors.enumerated().map { slot, descriptor in
            let handle = editor.handle(forKey: descriptor.key)
            let source: SettingSource
            switch editor.resolver.origin(ofSlot: slot, preferences: editor.values, settings: editor.settings)
            {
            case .preference:
                if editor.overrides.storedMember(of: descriptor) != nil {
                    source = .override
                } else if inputs.publicationDocument?.storedMember(of: descriptor) != nil {
                    source = .publication
                } else if inputs.deviceDocument.storedMember(of: descriptor) != nil {
                    source = .device
                } else if let deviceClass = inputs.deviceClass,
                    inputs.classDocument.storedMember(of: descriptor) != nil
                {
                    source = .deviceClass(deviceClass)
                } else if let profileName, inputs.baseDocument.storedMember(of: descriptor) != nil {
                    source = .profile(name: profileName)
                } else {
                    source = .shared
                }
            case .appDefault: source = .default
            case .publicationMetadata: source = .publicationMetadata
            case .derived(let keys): source = .derived(from: keys)
            case .forced(let cause): source = .forced(by: cause)
            case .fallback: source = .fallback
            }
            let snapshot = handle?.snapshot
            var setting = AttributedSetting(
                key: descriptor.key, value: snapshot?.effectiveJSON, source: source,
                isEffective: snapshot?.isEffective ?? false, reasons: snapshot?.reasons ?? [])
            if case .profile = source { setting.profileChoice = inputs.choice }
            return setting
        }
    }

    /// The resolved settings of a publication, overrides applied.
    ///
    /// - Parameters:
    ///   - publication: The publication's identifier, or `nil` for shared alone.
    ///   - context: What the configurable knows of the publication.
    /// - Returns: The settings.
    /// - Throws: ``StorageError`` when a document cannot be read.
    public func resolvedSettings(
        for publication: String? = nil, context: PublicationContext = PublicationContext()
    )
        async throws -> ResolvedSettings<Schema>
    {
        resolved(try await inputs(for: publication, context: context), context: context)
    }

    /// What an editor of the publication resolves to, without the editor's tables.
    func resolved(_ inputs: PublicationInputs, context: PublicationContext) -> ResolvedSettings<Schema> {
        let merged = inputs.merged
        let overrides = inputs.overrides
        return resolver(context).resolve(overrides.isEmpty ? merged : merged.merging(overrides))
    }
}
