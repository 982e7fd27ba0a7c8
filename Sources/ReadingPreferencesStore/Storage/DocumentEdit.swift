import ReadingPreferences

/// One document's edit: where it lives, and how the document stored there becomes the new one.
/// The input of the one document-write step (``PreferencesStorage/write(_:on:verifying:alongside:)``),
/// which the store's edits and document writes, sync and the back end all go through.
///
/// ```swift
/// let edit = DocumentEdit(.layer(configurable: "epub", .shared)) { stored in
///     var document = stored?.preferences ?? Preferences()
///     document["fontSize"] = 1.4
///     return document
/// }
/// ```
package struct DocumentEdit {
    /// Where the document lives.
    package var location: StorageLocation
    /// The new document, from the one stored (`nil`: there is none), run in the caller's
    /// isolation. Throwing stops the whole write, which then changes nothing.
    package var transform: (StoredDocument?) throws -> Preferences
    /// Changes found already made in the document, outside the library (a hand edit a sync found
    /// and stamped): recorded in its journal with this write, whether or not it writes anything.
    package var found: [JournalEntry] = []

    package init(_ location: StorageLocation, _ transform: @escaping (StoredDocument?) throws -> Preferences)
    {
        self.location = location
        self.transform = transform
    }

    /// Key changes applied to the stored document, in place.
    package static func keys(_ changes: KeyChanges, at location: StorageLocation) -> DocumentEdit {
        DocumentEdit(location) { stored in changes.applied(to: stored?.preferences ?? Preferences()) }
    }
}

/// What a document becomes: the one rule every write of a document follows.
package enum DocumentOutcome: Equatable {
    /// It stays as stored (the new document is written identically): nothing is written.
    case unchanged
    /// It is removed: the new document has no keys (a document with no keys is no document).
    case removed
    /// It is saved.
    case saved(Preferences)

    /// The outcome of writing `edited` where `stored` is.
    ///
    /// - Parameters:
    ///   - edited: The new document.
    ///   - stored: The stored document, or `nil` when there is none.
    package init(_ edited: Preferences, over stored: Preferences?) {
        if edited.isEmpty {
            self = stored == nil ? .unchanged : .removed
        } else if let stored, edited.isWrittenIdentically(to: stored) {
            self = .unchanged
        } else {
            self = .saved(edited)
        }
    }
}

/// What the document-write step did.
package struct DocumentWrites: Sendable {
    /// Each edited document as it is now (`nil`: there is none).
    package var documents: [StorageLocation: StoredDocument?] = [:]
    /// Every key it changed, per document in the order edited, keys in each document's order.
    package var changes: [StoredChange] = []
    /// Damaged data set aside while documents were loaded.
    package var problems: [StorageError] = []
}
