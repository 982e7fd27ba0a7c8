import ReadingPreferences

/// Why a stored value changed: the cause a change carries in the journal, in history and in
/// provenance (Specs/Store.md §15.2).
///
/// ```swift
/// let entry = try await store.history(of: "fontSize").last
/// entry?.origin   // .edit, or .sync for another device's change
/// ```
public enum ChangeOrigin: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// An edit made through the library on this device: an editor, a key-based edit, a document
    /// write, a profile operation, a route of a server.
    case edit
    /// A change found on disk (a file edited by hand, or copied in), stamped by the sync that found
    /// it.
    case handEdit
    /// Another device's change, brought by a sync.
    case sync
    /// Values imported from another format (a web reader's object, a legacy migration).
    case `import`
    /// A revert to an earlier value (history).
    case revert
    /// A value moved from one layer to another, keeping its value.
    case move
    /// The first sync of a device that held documents of its own, settled by the choice made.
    case firstJoin

    /// The code, as JSON and the command line spell it.
    public var description: String { rawValue }
}
