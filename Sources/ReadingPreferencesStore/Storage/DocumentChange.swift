import ReadingPreferences

/// One change of a batch that ``PreferencesStorage/commit(_:)`` applies at once: every change
/// at its expected version, or none.
///
/// ```swift
/// try await storage.commit([
///     .save(shared, to: .layer(configurable: "epub", .shared), expecting: sharedVersion),
///     .save(book, to: .layer(configurable: "epub", .publication(id)), expecting: nil),
///     .verify(.layer(configurable: "epub", .overrides), expecting: overridesVersion),
/// ])
/// ```
public struct DocumentChange: Sendable, Hashable, CustomStringConvertible {
    /// What happens to the document.
    public enum Action: Sendable, Hashable {
        /// It becomes these preferences.
        case save(Preferences)
        /// It is removed.
        case remove
        /// Nothing: the batch only requires that it is still at its expected version (a
        /// document read to decide the batch, such as the one a precondition was computed on).
        case verify
    }

    /// The document.
    public var location: StorageLocation
    /// What happens to it.
    public var action: Action
    /// The version it must still have; `nil` when it must not exist.
    public var expected: StorageVersion?
    /// Whether the storage forces a save to stable storage before it returns (`true` by
    /// default). A save a crash may lose without harm (a document's pending sync stamps:
    /// losing one only makes an edit younger) is not flushed, which keeps an edit within its
    /// budget; ``FileStorage`` then renames the new file into place without `fsync`, alone in
    /// its batch. Storages that cannot tell the two apart flush every save.
    public var flushes = true
    /// The changes of keys the document-write step records with this change in the document's
    /// journal (Specs/Store.md §15.1), in order: a storage that keeps a journal stamps those without
    /// a stamp and appends them in the same step as the change; one that keeps none ignores them.
    /// A ``Action/verify`` may carry entries too: changes found already made (a hand edit found by
    /// a sync).
    public var journal: [JournalEntry] = []
    /// For a save or a removal of a layer that the store made: the keys it changes, which a
    /// storage can hand to a change log without reading the document again; `nil` when not
    /// known (``StoredChange/changes(at:from:to:)`` finds them from the document before).
    public package(set) var changes: [StoredChange]?

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - location: The document.
    ///   - action: What happens to it.
    ///   - expected: The version it must still have, or `nil` when it must not exist.
    public init(_ location: StorageLocation, _ action: Action, expecting expected: StorageVersion?) {
        self.location = location
        self.action = action
        self.expected = expected
    }

    /// A save of a whole document if it is still at `version` (`nil`: if there is none yet).
    public static func save(
        _ preferences: Preferences, to location: StorageLocation, expecting version: StorageVersion?
    )
        -> DocumentChange
    {
        DocumentChange(location, .save(preferences), expecting: version)
    }

    /// A save that a crash may lose (see ``flushes``), if the document is still at `version`.
    public static func saveUnflushed(
        _ preferences: Preferences, to location: StorageLocation, expecting version: StorageVersion?
    ) -> DocumentChange {
        var change = DocumentChange(location, .save(preferences), expecting: version)
        change.flushes = false
        return change
    }

    /// A removal of a document if it is still at `version`.
    public static func remove(_ location: StorageLocation, expecting version: StorageVersion)
        -> DocumentChange
    {
        DocumentChange(location, .remove, expecting: version)
    }

    /// A check that a document is still at `version` (`nil`: still absent), writing nothing.
    public static func verify(_ location: StorageLocation, expecting version: StorageVersion?)
        -> DocumentChange
    {
        DocumentChange(location, .verify, expecting: version)
    }

    /// `save epub/shared at 3f…-42`.
    public var description: String {
        let verb: String
        switch action {
        case .save: verb = "save"
        case .remove: verb = "remove"
        case .verify: verb = "verify"
        }
        return "\(verb) \(location) at \(expected?.rawValue ?? "absent")"
    }
}

extension DocumentChange {
    /// Refuses a batch that names a location twice, which has no one meaning.
    package static func checkDistinct(_ changes: [DocumentChange]) throws(StorageError) {
        guard changes.count > 1 else { return }
        var seen = Set<StorageLocation>()
        for change in changes where !seen.insert(change.location).inserted {
            throw StorageError(
                .io, location: change.location, message: "a batch names \(change.location) twice",
                isTransient: false)
        }
    }
}
