import ReadingPreferences

/// The two fingerprints of a publication's preferences, each 32 lower-case hex digits, stable
/// across processes and machines: HTTP ETags a server can trust.
///
/// - ``stored``: of the stored preferences of every layer that feeds the publication (which
///   layer is the base, its document, the publication's, the overrides), every key and every
///   number's text included. Any change of what is stored changes it, even one that resolves to
///   the same settings (an unknown key, `1.5` written `1.50`). Use it for `If-Match` on writes
///   of preferences.
/// - ``settings``: of the resolved settings **and** the stored preferences they came from
///   (Specs/Server.md §5.3). It also changes when only the resolution does (other app defaults, another
///   publication context). Use it as the `ETag` of a settings answer, and for `If-Match` on an
///   edit a client computed from that answer.
///
/// Either can be the precondition of a conditional edit
/// (``PreferencesStore/apply(_:publication:context:to:allowingUnknownKeys:ifMatch:expecting:)``).
///
/// ```swift
/// let fingerprints = try await store.fingerprints(for: bookID, context: book)
/// response.headers["ETag"] = fingerprints.settingsETag   // "\"3f…\""
/// ```
public struct PreferencesFingerprints: Sendable, Hashable {
    /// The fingerprint of the stored preferences.
    public var stored: String
    /// The fingerprint of the resolved settings and the stored preferences.
    public var settings: String

    /// Creates fingerprints.
    ///
    /// - Parameters:
    ///   - stored: The stored preferences' fingerprint.
    ///   - settings: The settings' fingerprint.
    public init(stored: String, settings: String) {
        self.stored = stored
        self.settings = settings
    }

    /// ``stored`` as an HTTP entity tag, quoted.
    public var storedETag: String { EntityTag.quoted(stored) }

    /// ``settings`` as an HTTP entity tag, quoted.
    public var settingsETag: String { EntityTag.quoted(settings) }

    /// Whether an entity tag a client sent names these preferences: either fingerprint, quoted
    /// or not, weak (`W/`) or strong. `*` matches any state.
    ///
    /// - Parameter etag: The tag, as in an `If-Match` header (one tag, or several separated by
    ///   commas).
    /// - Returns: Whether one of the tags is ``stored`` or ``settings``.
    public func matches(_ etag: String) -> Bool {
        EntityTag.header(etag, names: [stored, settings])
    }
}

/// The stored documents a publication's preferences come from, read together: which layer is
/// the base (shared or the active profile), its document, the device class's and this device's
/// (Specs/Store.md §1.4), the publication's, and the overrides, with the versions read, so a
/// conditional write can check that none changed.
struct PublicationInputs: Sendable {
    /// Shared or the active profile.
    var base: StoreLayer
    /// The publication, or `nil` for shared alone.
    var publication: String?
    /// The base layer's stored preferences, reserved keys included.
    var baseDocument: Preferences
    /// This device's class, or `nil` when it has none (then it has no class layer).
    var deviceClass: String?
    /// The class's stored preferences (empty when the device has no class).
    var classDocument = Preferences()
    /// This device's own stored preferences.
    var deviceDocument = Preferences()
    /// The publication's stored preferences, or `nil` (no publication).
    var publicationDocument: Preferences?
    /// The overrides' stored preferences.
    var overridesDocument: Preferences
    /// The documents read (`nil`: absent), device included, for a conditional write's checks;
    /// empty when read from the store's cache.
    var loaded: [StorageLocation: StoredDocument?] = [:]
    /// Who chose the base, when it is a profile or shared chosen by hand (Specs/Store.md §4.5).
    var choice: ProfileChoice?

    /// The preferences that resolve: base, the class's, this device's, then the publication's,
    /// without reserved keys.
    var merged: Preferences {
        var merged = baseDocument.withoutReservedKeys
        if !classDocument.isEmpty { merged.merge(classDocument.withoutReservedKeys) }
        if !deviceDocument.isEmpty { merged.merge(deviceDocument.withoutReservedKeys) }
        if let publicationDocument { merged.merge(publicationDocument.withoutReservedKeys) }
        return merged
    }

    /// The layers an edit may write that this device resolves, highest first, with their stored
    /// preferences (Specs/Store.md §3.1): the publication's, this device's, the class's, the base.
    var editableLayers: [(layer: StoreLayer, preferences: Preferences)] {
        var layers: [(StoreLayer, Preferences)] = []
        if let publication {
            layers.append((.publication(publication), publicationDocument ?? Preferences()))
        }
        layers.append((.device, deviceDocument))
        if let deviceClass { layers.append((.deviceClass(deviceClass), classDocument)) }
        layers.append((base, baseDocument))
        return layers
    }

    /// The overrides without reserved keys.
    var overrides: Preferences { overridesDocument.withoutReservedKeys }

    /// ``PreferencesFingerprints/stored``: the SHA-256 of each input's name and compact JSON.
    var storedFingerprint: String {
        var hasher = SHA256()
        func add(_ name: String, _ document: Preferences?) {
            hasher.update(name.utf8)
            hasher.update([0])
            if let document { hasher.update(document.jsonBytes()) } else { hasher.update([0x2D]) }
            hasher.update([0])
        }
        add(base.description, baseDocument)
        // The layers of Specs/Store.md §1.4 only when they feed the publication, so fingerprints
        // of a store that has none stay what they were.
        if let deviceClass { add(StoreLayer.deviceClass(deviceClass).description, classDocument) }
        if !deviceDocument.isEmpty { add(StoreLayer.device.description, deviceDocument) }
        add(publication.map { "publication " + $0 } ?? "no publication", publicationDocument)
        add("overrides", overridesDocument)
        return hasher.finalize().hexString(digits: 32)
    }

    /// Both fingerprints, the settings resolved by `resolver`.
    func fingerprints<Schema: ResolvableSchema>(_ settings: ResolvedSettings<Schema>)
        -> PreferencesFingerprints
    {
        let stored = storedFingerprint
        var hasher = SHA256()
        hasher.update(settings.fingerprint.utf8)
        hasher.update([0])
        hasher.update(stored.utf8)
        return PreferencesFingerprints(stored: stored, settings: hasher.finalize().hexString(digits: 32))
    }
}
