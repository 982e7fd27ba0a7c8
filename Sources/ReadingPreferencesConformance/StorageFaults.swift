import Foundation
import ReadingPreferencesStore

/// How ``StorageConformance`` damages a storage, to check what it does with data that is not a
/// JSON object and with failures of its medium. A storage's test provides it, from what its
/// medium allows: a file written by hand, a row updated behind the storage's back, a database
/// client that fails on demand.
///
/// ```swift
/// let faults = StorageFaults(
///     plant: { data, location in try await database.execute(
///         "UPDATE reading_preferences SET json = ? WHERE user_id = ? AND scope = ?",
///         [String(decoding: data, as: UTF8.self), userID, SQLPreferencesStorage.scope(of: location)]) },
///     failWrites: { steps in database.failStatements(after: steps) },
///     failReads: { fail in database.failQueries(fail) })
/// ```
public struct StorageFaults: Sendable {
    /// Puts raw bytes at a location as its stored data, bypassing the storage's checks (the
    /// location holds a document already when the suite calls it).
    public var plant: @Sendable (_ data: Data, _ location: StorageLocation) async throws -> Void
    /// Arms a failure of the storage's medium after `steps` successful write steps (a file, a
    /// statement), or disarms it (`nil`). The armed failure strikes once; the storage then
    /// fails with `io`.
    public var failWrites: @Sendable (_ steps: Int?) async -> Void
    /// Makes every read of the medium fail (`true`) until called with `false`: loads, listings
    /// and exports alike.
    public var failReads: @Sendable (_ fail: Bool) async -> Void
    /// Reads what `PreferencesStorage.quarantine(_:expecting:replacement:)` set aside, by the
    /// place it named (`Quarantine.movedTo`): the suite checks that the damaged bytes are kept
    /// whole. `nil` reports that check as skipped.
    public var readSetAside: (@Sendable (_ movedTo: String) async throws -> Data?)?

    /// Creates the faults of a storage.
    ///
    /// - Parameters:
    ///   - plant: Puts raw bytes at a location.
    ///   - failWrites: Arms (or disarms) a write failure after a number of steps.
    ///   - failReads: Makes reads fail, or succeed again.
    ///   - readSetAside: Reads the bytes quarantine set aside.
    public init(
        plant: @escaping @Sendable (_ data: Data, _ location: StorageLocation) async throws -> Void,
        failWrites: @escaping @Sendable (_ steps: Int?) async -> Void,
        failReads: @escaping @Sendable (_ fail: Bool) async -> Void,
        readSetAside: (@Sendable (_ movedTo: String) async throws -> Data?)? = nil
    ) {
        self.plant = plant
        self.failWrites = failWrites
        self.failReads = failReads
        self.readSetAside = readSetAside
    }

}

extension StorageFaults {
    /// The faults of a `FileStorage` made with a fault plan: files written by hand, failures
    /// from the plan.
    package static func files(_ storage: FileStorage) -> StorageFaults? {
        guard let plan = storage.faults else { return nil }
        return StorageFaults(
            plant: { data, location in
                let path = storage.path(of: location)
                try FileManager.default.createDirectory(
                    atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                    withIntermediateDirectories: true)
                try data.write(to: URL(fileURLWithPath: path))
            },
            failWrites: { plan.arm(after: $0) }, failReads: { plan.failReads($0) },
            readSetAside: { path in FileManager.default.contents(atPath: path) })
    }

    /// The faults of an `InMemoryStorage`.
    package static func memory(_ storage: InMemoryStorage) -> StorageFaults {
        StorageFaults(
            plant: { data, location in await storage.plant(data, at: location) },
            failWrites: { storage.faults.arm(after: $0) }, failReads: { storage.faults.failReads($0) },
            readSetAside: { name in await storage.setAside(name) })
    }

    /// The faults of a `UserDefaultsStorage`: a value edited by hand under a document's key.
    package static func defaults(_ storage: UserDefaultsStorage) -> StorageFaults {
        StorageFaults(
            plant: { data, location in
                storage.plant(
                    [
                        "json": String(decoding: data, as: UTF8.self),
                        "version": "planted-\(UUID().uuidString)",
                    ],
                    at: location)
            },
            failWrites: { storage.faults.arm(after: $0) }, failReads: { storage.faults.failReads($0) },
            readSetAside: { key in storage.setAside(key) })
    }
}
