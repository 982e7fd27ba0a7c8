import Foundation
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// A user's storage inside one transaction that holds the user's rows, which serves every
/// document the transaction itself wrote from memory.
///
/// A row this transaction wrote stays as it wrote it until the transaction ends: the user's lock
/// keeps the server's other writers out, and the row's own lock keeps out everything else (an
/// account deletion's `DELETE` waits for it). So once a write of a group (``UserWrites``) has
/// saved a document, the next write of the group loads it from here, as it was saved, with the
/// version it was saved at, instead of reading the row again. Everything else goes to the SQL
/// storage, in the transaction.
final class TransactionStorage: PreferencesStorage, @unchecked Sendable {
    let base: SQLPreferencesStorage
    private let lock = NSLock()
    /// What this transaction wrote at each location: the document, or `nil` once removed.
    private var written: [StorageLocation: StoredDocument?] = [:]

    init(base: SQLPreferencesStorage) {
        self.base = base
    }

    func load(_ location: StorageLocation) async throws(StorageError) -> StoredDocument? {
        if let known = lock.withLock({ written[location] }) { return known }
        return try await base.load(location)
    }

    func commit(_ changes: [DocumentChange]) async throws(StorageError) -> [StorageVersion?] {
        let versions: [StorageVersion?]
        do {
            versions = try await base.commit(changes)
        } catch {
            // Whatever failed, the rows are read again from now on.
            forget(changes.map(\.location))
            throw error
        }
        lock.withLock {
            for (change, version) in zip(changes, versions) {
                switch change.action {
                case .save(let preferences):
                    written[change.location] = version.map {
                        StoredDocument(preferences: preferences, version: $0)
                    }
                case .remove:
                    written[change.location] = .some(nil)
                case .verify:
                    break
                }
            }
        }
        return versions
    }

    func quarantine(_ location: StorageLocation, expecting version: StorageVersion, replacement: Preferences?)
        async throws(StorageError) -> Quarantine
    {
        forget([location])
        return try await base.quarantine(location, expecting: version, replacement: replacement)
    }

    func names(of kind: StorageKind, configurable: String, after: String?, limit: Int?)
        async throws(StorageError) -> [String]
    {
        try await base.names(of: kind, configurable: configurable, after: after, limit: limit)
    }

    func journal(of location: StorageLocation, after cursor: JournalCursor?) async throws(StorageError)
        -> JournalRead
    {
        try await base.journal(of: location, after: cursor)
    }

    func updateReplicaClock<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        try await base.updateReplicaClock(body)
    }

    func configurables() async throws(StorageError) -> [String] {
        try await base.configurables()
    }

    func export() async throws(StorageError) -> [ExportedDocument] {
        try await base.export()
    }

    func removeAll() async throws(StorageError) {
        lock.withLock { written.removeAll() }
        try await base.removeAll()
    }

    private func forget(_ locations: [StorageLocation]) {
        lock.withLock { for location in locations { written[location] = nil } }
    }
}
