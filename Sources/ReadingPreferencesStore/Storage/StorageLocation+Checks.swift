import ReadingPreferences

// What no storage holds (Specs/Sync.md §1): an identifier or a key with U+0000, which
// PostgreSQL text cannot hold and C strings cut, and a profile id that is not replica-style,
// which sync could never name. Every storage checks the locations and documents it is given
// here, so nothing is ever cut at U+0000 or stored where sync will not see it.

extension StorageLocation {
    /// The location itself, when a storage may hold it.
    ///
    /// ```swift
    /// let location = try StorageLocation.layer(configurable: "epub", .publication(bookID)).checked()
    /// ```
    ///
    /// - Returns: `self`.
    /// - Throws: ``StorageError`` with ``StorageError/Code/invalidIdentifier`` when the
    ///   configurable or the layer's identifier holds U+0000, or a profile id is not a
    ///   replica-style id (`[a-z0-9][a-z0-9-]{0,63}`, as ``ReplicaID``).
    @discardableResult
    public func checked() throws(StorageError) -> StorageLocation {
        switch self {
        case .device, .syncState, .syncLease, .replicaClock: return self
        case .layer(let configurable, let layer), .syncSnapshot(let configurable, let layer):
            try Self.checkIdentifier(configurable, "the configurable's identifier", self)
            switch layer {
            case .shared, .overrides, .device, .rules: return self
            case .publication(let id):
                try Self.checkIdentifier(id, "the publication identifier", self)
            case .deviceClass(let id):
                guard ReplicaID.isValid(id) else {
                    throw StorageError(
                        .invalidIdentifier, location: self,
                        message:
                            "the device class \(Self.quoted(id)) is not a class id: use 1 to 64 lower-case "
                            + "letters, digits and hyphens, starting with a letter or digit",
                        isTransient: false)
                }
            case .profile(let id):
                guard ReplicaID.isValid(id) else {
                    throw StorageError(
                        .invalidIdentifier, location: self,
                        message:
                            "the profile id \(Self.quoted(id)) is not a profile id: use 1 to 64 lower-case "
                            + "letters, digits and hyphens, starting with a letter or digit",
                        isTransient: false)
                }
            }
            return self
        }
    }

    /// Refuses a configurable's identifier with U+0000: what a storage checks first in
    /// ``PreferencesStorage/names(of:configurable:after:limit:)``.
    ///
    /// - Parameter configurable: The configurable's identifier.
    /// - Throws: ``StorageError`` with ``StorageError/Code/invalidIdentifier``.
    public static func checkConfigurable(_ configurable: String) throws(StorageError) {
        try checkIdentifier(configurable, "the configurable's identifier", nil)
    }

    /// Whether a key or an identifier holds U+0000, which none may hold (Specs/Sync.md §1): the one
    /// test every storage, sync and the back end use.
    ///
    /// - Parameter text: A key, an identifier or a profile id.
    /// - Returns: Whether it holds U+0000.
    public static func holdsNUL(_ text: String) -> Bool { text.utf8.contains(0) }

    private static func checkIdentifier(_ text: String, _ what: String, _ location: StorageLocation?)
        throws(StorageError)
    {
        guard holdsNUL(text) else { return }
        throw StorageError(
            .invalidIdentifier, location: location,
            message: "\(what) \(quoted(text)) holds U+0000, which no identifier may hold", isTransient: false)
    }

    /// An identifier as JSON text, so U+0000 and other controls show as escapes.
    static func quoted(_ text: String) -> String {
        JSONValue.string(text).jsonString()
    }
}

extension DocumentChange {
    /// Refuses a batch no storage may apply: a location named twice, a location that
    /// ``StorageLocation/checked()`` refuses, or a layer's document with a key holding U+0000.
    /// Every storage calls it first, so every storage refuses the same batches.
    ///
    /// - Parameter changes: The batch.
    /// - Throws: ``StorageError``.
    public static func check(_ changes: [DocumentChange]) throws(StorageError) {
        for change in changes {
            try change.location.checked()
            guard case .layer = change.location, case .save(let preferences) = change.action else { continue }
            for member in preferences.members where StorageLocation.holdsNUL(member.key) {
                throw StorageError(
                    .invalidKey, location: change.location,
                    message:
                        "the key \(StorageLocation.quoted(member.key)) holds U+0000, which no key may hold",
                    isTransient: false)
            }
        }
        try checkDistinct(changes)
    }
}
