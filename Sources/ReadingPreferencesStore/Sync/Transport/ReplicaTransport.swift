import Foundation

/// How replica states travel between devices (Specs/Sync.md): a shared folder (``MirrorFolder``), a
/// server, or anything else that can hand over every replica's latest state and publish this
/// one's. A store syncs through any of them the same way:
///
/// ```swift
/// try await store.sync(with: MirrorFolder(url: iCloudFolder))
/// ```
///
/// A transport moves states and checks their shape; it never merges. What it reads is admitted
/// by the sync's rules (Specs/Sync.md §2): nothing a transport hands over is ever a reason to delete
/// local data.
public protocol ReplicaTransport: Sendable {
    /// Checks the transport can serve a store that keeps its documents in `localFolder`, and
    /// gets it ready (a mirror folder is created when missing).
    ///
    /// - Parameter localFolder: The store's folder, if its storage is one.
    /// - Returns: What was done or found, for the report.
    /// - Throws: ``SyncError/usage(_:)`` when the two overlap, ``SyncError/transport(_:)`` when
    ///   the transport cannot be used.
    func prepare(localFolder: URL?) async throws(SyncError) -> [SyncProblem]

    /// Reads every replica's latest state.
    ///
    /// - Parameter replica: The local replica, whose own state comes back apart.
    /// - Returns: The states read, and what was skipped.
    /// - Throws: ``SyncError/transport(_:)`` when nothing can be read at all.
    func receive(for replica: ReplicaID) async throws(SyncError) -> ReplicaInbox

    /// Publishes the local replica's state.
    ///
    /// - Parameter state: The state.
    /// - Returns: What was done or found, for the report.
    /// - Throws: ``SyncError/transport(_:)`` when it cannot be published.
    func publish(_ state: ReplicaState) async throws(SyncError) -> [SyncProblem]
}

/// What a transport read.
public struct ReplicaInbox: Sendable {
    /// A replica's state and where it came from.
    public struct Received: Sendable {
        /// Where it came from, for reports (a file's name).
        public var source: String
        /// The state and the entries skipped in it.
        public var file: ReplicaFile

        /// Creates a received state.
        ///
        /// - Parameters:
        ///   - source: Where it came from.
        ///   - file: The state read.
        public init(source: String, file: ReplicaFile) {
            self.source = source
            self.file = file
        }
    }

    /// The state last published under the local replica's id, if any.
    public var own: Received?
    /// Every other replica's state.
    public var others: [Received] = []
    /// What was skipped.
    public var problems: [SyncProblem] = []

    /// An empty inbox.
    public init() {}
}
