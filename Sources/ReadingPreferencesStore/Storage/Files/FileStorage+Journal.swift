import Foundation
import ReadingPreferences

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// A file storage's change journals and replica clock (Specs/Store.md §15.1).
extension FileStorage {

    /// A document's change journal (`FileJournal`): `<document>.journal` in the hidden folder.
    ///
    /// - Parameters:
    ///   - location: A layer document.
    ///   - cursor: Where an earlier read got to.
    /// - Returns: The entries recorded since, and the cursor after them.
    /// - Throws: ``StorageError`` when the journal cannot be read.
    public func journal(of location: StorageLocation, after cursor: JournalCursor?) async throws(StorageError)
        -> JournalRead
    {
        try location.checked()
        guard location.isLayer else { return JournalRead() }
        LayoutMigration.ensure(layout)
        let path = layout.journalPath(
            of: (try? DurableFile.resolveLinks(path(of: location))) ?? path(of: location))
        return try await BlockingIO.run { () throws(StorageError) -> JournalRead in
            do throws(DurableFile.Failure) {
                return try FileJournal.read(path, after: cursor)
            } catch {
                throw Self.io(error, location)
            }
        }
    }

    /// The replica clock (`ReplicaClockFile`), under its lock.
    public func updateReplicaClock<Result: Sendable>(
        _ body: @escaping @Sendable (inout HybridClock?) throws -> Result
    ) async throws -> Result {
        LayoutMigration.ensure(layout)
        let layout = layout
        return try await BlockingIO.run { () throws -> Result in try ReplicaClockFile.update(layout, body) }
    }
}
