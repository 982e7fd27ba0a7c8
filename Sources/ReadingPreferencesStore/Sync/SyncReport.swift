import ReadingPreferences

/// What a sync did (Specs/Sync.md §5).
public struct SyncReport: Sendable, Hashable {
    /// The replica's id after the sync.
    public var replica: ReplicaID?
    /// The keys changed locally, by scope and key: what this replica received.
    public var changes: [SyncChange] = []
    /// The local changes this sync stamped and sent (an edit, a hand edit, a removal), by scope
    /// and key: the value as last synced, and now.
    public var sent: [SyncChange] = []
    /// The documents gone while their last sync held values: each of their keys is sent as
    /// removed (it is in ``sent`` too). Said by name, with why the document is gone, since
    /// deleting a file by hand removes its keys on every device.
    public var removedDocuments: [RemovedDocument] = []

    /// A document that was gone, how many keys its removal sends, and why it was gone.
    public struct RemovedDocument: Sendable, Hashable, CustomStringConvertible {
        /// Why a document was gone at a sync.
        public enum Cause: String, Sendable, Hashable, CaseIterable {
            /// Its file was deleted (by hand, or by another program): nothing recorded its keys'
            /// removal.
            case fileDeleted
            /// Its keys were removed by edits (`store remove`, a reset), and the store removed the
            /// document with the last of them.
            case lastKeyRemoved
        }

        /// The document.
        public var scope: SyncScope
        /// How many keys it held at its last sync.
        public var keys: Int
        /// Why it was gone.
        public var cause: Cause

        /// Creates a removed document.
        ///
        /// - Parameters:
        ///   - scope: The document.
        ///   - keys: How many keys it held at its last sync.
        ///   - cause: Why it was gone.
        public init(scope: SyncScope, keys: Int, cause: Cause = .fileDeleted) {
            self.scope = scope
            self.keys = keys
            self.cause = cause
        }

        /// `epub/shared: 5 keys removed (the file was deleted)`, or `epub/shared: 1 key removed
        /// (its last key was removed, and the document with it)`.
        public var description: String {
            let count = "\(scope): \(keys) key\(keys == 1 ? "" : "s") removed"
            switch cause {
            case .fileDeleted: return count + " (the file was deleted)"
            case .lastKeyRemoved:
                return count
                    + " (\(keys == 1 ? "its last key was" : "its last keys were") removed, and the document with it)"
            }
        }
    }
    /// What was skipped, ignored or found wrong.
    public var problems: [SyncProblem] = []
    /// At this device's first sync, when documents differed from the synced ones: what the
    /// choice made did (Specs/Sync.md §5.9); `nil` otherwise.
    public var firstJoin: FirstJoinOutcome?

    /// An empty report.
    public init() {}
}

/// Something a sync skipped, ignored or found; never a reason to delete local data.
public enum SyncProblem: Sendable, Hashable, CustomStringConvertible {
    /// A replica file was not read: a link, a folder, a name or `replica` member that is not a
    /// replica id or does not match, a limit passed, partially written, damaged, or of a newer
    /// format.
    case skippedReplicaFile(String, String)
    /// A malformed entry (or `merged` stamp) of a replica file was skipped; the rest was read.
    case skippedEntry(source: String, detail: String)
    /// A remote entry stamped more than the future limit ahead of the local clock was ignored.
    case futureStamp(source: String, scope: SyncScope, key: String, stamp: SyncStamp)
    /// Another device wrote under this replica's id; this replica took a new id.
    case replicaIDInUse(ReplicaID, newID: ReplicaID)
    /// The store took a new replica id, as asked (``SyncOptions/newReplica``); the old one is
    /// retired.
    case replicaRenamed(ReplicaID, newID: ReplicaID)
    /// A replica id was asked for, but the store already syncs under another.
    case replicaMismatch(requested: ReplicaID, actual: ReplicaID)
    /// A replica not seen for the retirement horizon no longer holds tombstones back.
    case replicaRetired(ReplicaID)
    /// A retired replica wrote its file again; its entries older than its retirement were ignored.
    case retiredReplicaReturned(ReplicaID, retiredAt: UInt64, ignoredEntries: Int)
    /// A local document could not be read: it was left alone, and keeps its last stamped entries.
    case documentUnreadable(SyncScope, String)
    /// A local document's data was damaged: it was set aside, and its last synced values put back.
    case documentSetAside(String)
    /// A local document had lost its sync snapshot: its values yield to any stamped entry.
    case documentWithoutHistory(SyncScope)
    /// The clock's counter is exhausted until the wall clock passes a time; these keys' changes
    /// are stamped by a later sync.
    case clockExhausted(keys: Int, until: UInt64)
    /// A symbolic link at this replica's own file in the mirror was replaced, not followed.
    case linkReplaced(String)
    /// The mirror folder did not exist and was created.
    case createdMirror(String)
    /// A configurable cannot sync (its identifier holds `/`).
    case skippedConfigurable(String)

    /// One line.
    public var description: String {
        switch self {
        case .skippedReplicaFile(let name, let reason): return "skipped replica file \(name): \(reason)"
        case .skippedEntry(let source, let detail): return "skipped an entry of \(source): \(detail)"
        case .futureStamp(let source, let scope, let key, let stamp):
            return "\(source): \(scope) \(key) is stamped \(stamp), too far in the future; ignored"
        case .replicaIDInUse(let old, let new):
            return "another device writes as replica \(old); this one is now \(new)"
        case .replicaRenamed(let old, let new):
            return "this store now syncs as replica \(new); replica \(old) is retired"
        case .replicaMismatch(let requested, let actual):
            return
                "this store already syncs as replica \(actual); --replica \(requested) was not used "
                + "(add --new-replica to change it)"
        case .replicaRetired(let id): return "replica \(id) was not seen for the retirement horizon; retired"
        case .retiredReplicaReturned(let id, let retired, let ignored):
            return
                "retired replica \(id) came back; \(ignored) of its entries older than its retirement (\(retired)) were ignored"
        case .documentUnreadable(let scope, let reason):
            return "\(scope) cannot be read (\(reason)); it keeps its last synced values"
        case .documentSetAside(let message): return message
        case .documentWithoutHistory(let scope):
            return "\(scope) had lost its sync snapshot; its values yield to other devices' stamped entries"
        case .clockExhausted(let keys, let until):
            return "the clock is exhausted until \(until); \(keys) change(s) will be stamped by a later sync"
        case .linkReplaced(let name):
            return "\(name) in the mirror was a symbolic link; replaced, not followed"
        case .createdMirror(let path): return "created the mirror folder \(path)"
        case .skippedConfigurable(let name):
            return "configurable \(name) cannot sync (its identifier holds /)"
        }
    }
}

/// Why a sync could not run or finish.
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sync was asked for wrongly: an invalid replica id, a mirror that overlaps the store.
    case usage(String)
    /// Another sync of the same store holds its sync lock.
    case busy(String)
    /// The mirror (or another transport) cannot be read or written.
    case transport(String)

    /// One line.
    public var description: String {
        switch self {
        case .usage(let message): return message
        case .busy(let message): return "another sync of this store is running (\(message))"
        case .transport(let message): return message
        }
    }
}
