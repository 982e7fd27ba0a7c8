import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Syncs a store's folder with a mirror folder that several devices share (iCloud Drive, a
/// network share, Syncthing), with no server (SPEC 10).
///
/// ```swift
/// let report = try await Synchronizer(root: storeFolder, mirror: sharedFolder).reconcile()
/// for change in report.changes { print(change) }
/// ```
///
/// One reconciliation:
/// 1. loads this device's replica id (kept in `<root>/replica.json`, excluded from backups) and
///    checks that no other device writes under it;
/// 2. reads every synced document (shared, profiles, publications of every configurable) and
///    its sidecar of stamps (`<document>.json.sync`); a key whose value differs from its last
///    stamped value (an edit, or a person editing the file) gets a fresh stamp;
/// 3. reads every replica file in the mirror (`<mirror>/<replica>.json`), skipping and reporting
///    missing, partial, damaged or newer-format ones;
/// 4. keeps per key the entry with the greatest stamp, writes the winners to the documents
///    (only the keys that changed, under each file's lock) and the stamps to the sidecars;
/// 5. writes this replica's own file in the mirror, atomically.
///
/// Which profile is active, the overrides and the app defaults never sync.
public struct Synchronizer: Sendable {
    /// The store's root folder.
    public let root: URL
    /// The mirror folder.
    public let mirror: URL
    /// How the reconciliation behaves.
    public var options: Options

    /// How a reconciliation behaves.
    public struct Options: Sendable {
        /// The replica's name the first time the root syncs (a random id otherwise); tests with
        /// several stores on one machine name them.
        public var replicaName: String?
        /// How old a removal must be before it can be forgotten (once every known replica has
        /// merged past it), in seconds; 30 days by default.
        public var tombstoneHorizon: TimeInterval
        /// How far ahead of the local clock a remote stamp may be; later ones are ignored and
        /// reported. 24 hours.
        public var futureLimit: TimeInterval
        /// The wall clock.
        public var now: @Sendable () -> Date

        /// Creates options.
        ///
        /// - Parameters:
        ///   - replicaName: The replica's name the first time the root syncs.
        ///   - tombstoneHorizon: The tombstone horizon, in seconds.
        ///   - futureLimit: The future limit, in seconds.
        ///   - now: The wall clock.
        public init(
            replicaName: String? = nil, tombstoneHorizon: TimeInterval = 30 * 86_400,
            futureLimit: TimeInterval = 86_400, now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.replicaName = replicaName
            self.tombstoneHorizon = tombstoneHorizon
            self.futureLimit = futureLimit
            self.now = now
        }
    }

    /// Creates a synchronizer.
    ///
    /// - Parameters:
    ///   - root: The store's root folder.
    ///   - mirror: The shared mirror folder.
    ///   - options: How the reconciliation behaves.
    public init(root: URL, mirror: URL, options: Options = Options()) {
        self.root = root
        self.mirror = mirror
        self.options = options
    }

    /// Runs one reconciliation.
    ///
    /// - Returns: What changed locally and what was skipped or ignored.
    /// - Throws: ``StorageError`` when a local document cannot be read or written, or
    ///   ``SyncError`` when the mirror cannot be written. Nothing read from the mirror is ever a
    ///   reason to delete local data.
    public func reconcile() async throws -> SyncReport {
        let now = Int64((options.now().timeIntervalSince1970 * 1000).rounded())
        var report = SyncReport()
        var identity = try ReplicaIdentity.load(root: root, name: options.replicaName)
        report.replica = identity.replica
        try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)

        // A second device writing under this id: report it, and take a new id.
        let folder = MirrorFolder(url: mirror)
        if let own = folder.contents(of: Self.fileName(of: identity.replica)),
            let state = try? ReplicaState(json: own),
            !identity.writes.contains(state.writer)
        {
            let fresh = ReplicaIdentity.newID(prefix: options.replicaName)
            report.problems.append(.replicaIDInUse(identity.replica, newID: fresh))
            identity = identity.renamed(to: fresh)
            report.replica = fresh
        }

        let storage = FileStorage(root: root)
        var documents = try await LocalDocuments.load(root: root, storage: storage, report: &report)
        var local = LocalReplica(replica: identity.replica, documents: documents.values)
        local.stamps = documents.stamps
        local.merged = identity.merged
        local.peers = identity.peers
        if let last = identity.clock { local.clock.observe(last) }

        let (files, unread) = folder.replicaFiles(except: Self.fileName(of: identity.replica))
        report.problems += unread
        var remotes: [ReplicaState] = []
        for file in files {
            do throws(ReplicaFileError) {
                remotes.append(try ReplicaState(json: file.data))
            } catch {
                report.problems.append(.skippedReplicaFile(file.name, error.description))
            }
        }
        let before = local.documents
        let outcome = local.reconcile(
            with: remotes, now: now, tombstoneHorizon: Int64(options.tombstoneHorizon * 1000),
            futureLimit: Int64(options.futureLimit * 1000))
        report.changes = outcome.changes
        report.problems += outcome.ignored.map(SyncProblem.futureStamp)

        try await documents.write(local, before: before, storage: storage)
        try writeOwnFile(local, identity: &identity, to: folder)
        return report
    }

    // MARK: - The mirror

    /// A replica's file name in the mirror.
    static func fileName(of replica: String) -> String {
        let plain =
            !replica.isEmpty && replica.utf8.count <= 64
            && replica.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
            }
        return plain ? replica + ".json" : SafeName.fileName(for: replica)
    }

    /// Writes this replica's file: the identity records the write first, so a crash between the
    /// two never looks like another device writing under this id.
    private func writeOwnFile(
        _ local: LocalReplica, identity: inout ReplicaIdentity, to folder: MirrorFolder
    ) throws {
        var state = local.state
        state.writer = ReplicaIdentity.newID(prefix: nil)
        identity.pending = state.writer
        identity.clock = local.clock.last
        identity.merged = local.merged
        identity.peers = local.peers
        try identity.save(root: root)
        do {
            try folder.write(state.jsonValue.jsonData(), as: Self.fileName(of: local.replica))
        } catch {
            throw SyncError.mirrorNotWritable(String(describing: error))
        }
        identity.confirmed = state.writer
        identity.pending = nil
        try identity.save(root: root)
    }
}

/// Why a sync could not finish.
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The mirror folder cannot be written.
    case mirrorNotWritable(String)
    /// The replica identity file cannot be read or written.
    case identity(String)

    /// One line.
    public var description: String {
        switch self {
        case .mirrorNotWritable(let reason): return "cannot write the mirror: \(reason)"
        case .identity(let reason): return "replica identity: \(reason)"
        }
    }
}

/// What a sync did.
public struct SyncReport: Sendable, Hashable {
    /// The replica's id after the sync.
    public var replica: String = ""
    /// The keys changed locally, by scope and key.
    public var changes: [SyncChange] = []
    /// What was skipped, ignored or found wrong.
    public var problems: [SyncProblem] = []
}

/// Something a sync skipped or found wrong; never a reason to delete local data.
public enum SyncProblem: Sendable, Hashable, CustomStringConvertible {
    /// A replica file was missing, partially written, damaged or of a newer format.
    case skippedReplicaFile(String, String)
    /// A remote stamp was too far in the future.
    case futureStamp(IgnoredStamp)
    /// Another device wrote under this replica's id; this replica took a new id.
    case replicaIDInUse(String, newID: String)
    /// A local document was skipped (a publication file without `$id`).
    case skippedDocument(String, String)

    /// One line.
    public var description: String {
        switch self {
        case .skippedReplicaFile(let name, let reason): return "skipped replica file \(name): \(reason)"
        case .futureStamp(let ignored): return ignored.description
        case .replicaIDInUse(let old, let new):
            return "another device writes as replica \(old); this one is now \(new)"
        case .skippedDocument(let path, let reason): return "skipped \(path): \(reason)"
        }
    }
}
