import ReadingPreferences

/// Where a reader of a document's journal got to: an opaque position the storage gives back
/// with what it read, so the next read returns only the entries recorded since
/// (``PreferencesStorage/journal(of:after:)``). Sync keeps it in a document's sidecar.
public struct JournalCursor: Sendable, Hashable, CustomStringConvertible {
    /// The storage's own text for the position.
    public var rawValue: String

    /// A cursor from its text.
    ///
    /// - Parameter rawValue: The text a storage made.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The text.
    public var description: String { rawValue }
}

/// What a read of a document's journal gives: its entries, oldest first, and where the read got
/// to.
public struct JournalRead: Sendable, Hashable {
    /// The entries recorded after the cursor asked for (all of them when it was `nil`, or when the
    /// journal was compacted since), oldest first, each stamped.
    public var entries: [JournalEntry]
    /// Where the next read starts; `nil` when the storage keeps no journal for the document.
    public var cursor: JournalCursor?

    /// Creates a read.
    ///
    /// - Parameters:
    ///   - entries: The entries.
    ///   - cursor: The cursor after them.
    public init(entries: [JournalEntry] = [], cursor: JournalCursor? = nil) {
        self.entries = entries
        self.cursor = cursor
    }
}
