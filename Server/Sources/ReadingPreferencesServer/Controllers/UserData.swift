import Foundation
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// What the controllers share: each user's documents (the library's SQL storage), the users'
/// sync replicas, the one write path, and the answers kept while their documents are unchanged.
struct UserData: Sendable {
    let database: any SQLDatabase
    /// The users' sync replicas: the library's sync log in the same database.
    let replica: SQLSyncLog
    /// Every write of a user's data, in groups that share one transaction holding the user's rows.
    let writes: UserWrites
    /// Settings and CSS answers kept while their documents are unchanged.
    let answers: AnswerCache
    /// The largest document, edits or profile body accepted.
    let bodyLimit: Int

    /// The largest body accepted unless told otherwise (`--max-body-bytes`).
    static let defaultBodyLimit = 1 << 20
    /// The largest push accepted (a replica file's limit, Specs/Sync.md §2).
    static let pushLimit = 64 << 20

    init(
        database: any SQLDatabase, replica: SQLSyncLog,
        writeGroupLimit: Int = ReadingServer.defaultWriteGroupLimit, bodyLimit: Int = defaultBodyLimit,
        answerCacheBytes: Int = ReadingServer.defaultAnswerCacheBytes
    ) {
        self.database = database
        answers = AnswerCache(budget: answerCacheBytes)
        self.replica = replica
        self.bodyLimit = bodyLimit
        writes = UserWrites(database: database, limit: writeGroupLimit, journal: replica)
    }

    /// A user's documents: the store's SQL storage, whose change journal is the user's sync log
    /// (each batch records, and stamps, the keys it changed, in its transaction).
    func storage(for userID: String) -> SQLPreferencesStorage {
        SQLPreferencesStorage(database: database, userID: userID, journal: replica)
    }

    /// A store over one of the server's storages, made for one request (it reads nothing yet).
    static func store<Schema: ResolvableSchema>(_ schema: Schema.Type, on storage: any PreferencesStorage)
        -> PreferencesStore<Schema>
    {
        PreferencesStore<Schema>(storage: storage)
    }

    /// A user's storage with the documents a publication's preferences come from read in one
    /// query, for a device of `deviceClass` when the request names one.
    func prefetch<Schema: ResolvableSchema>(
        _ schema: Schema.Type, for userID: String, reading publication: String?, deviceClass: String? = nil
    ) async throws -> PrefetchedStorage {
        try await PrefetchedStorage.prefetching(
            Self.locations(schema, reading: publication, deviceClass: deviceClass), of: userID,
            from: storage(for: userID), in: database, deviceClass: deviceClass)
    }

    /// The user of a request and the versions its documents have now: those a publication's
    /// preferences come from, each named with its version or as absent. With the accounts table
    /// as the authenticator, one query looks the token up and reads them (401 without a known
    /// token).
    func currentVersions<Schema: ResolvableSchema>(
        _ schema: Schema.Type, of identity: RequestIdentity, reading publication: String,
        deviceClass: String? = nil
    ) async throws -> (userID: String, versions: [StorageLocation: StorageVersion?]) {
        let locations = Self.locations(schema, reading: publication, deviceClass: deviceClass)
        let scopes = PrefetchedStorage.scopes(of: locations)
        var (userID, byScope) = try await identity.user(versionsAt: scopes)
        if byScope == nil {
            byScope = try await PrefetchedStorage.versions(of: userID, at: scopes, in: database)
        }
        var versions: [StorageLocation: StorageVersion?] = [:]
        for (location, scope) in zip(locations, scopes) {
            versions[location] = .some(byScope?[scope].map(StorageVersion.init))
        }
        return (userID, versions)
    }

    /// The documents a publication's preferences come from: the device document, shared, the
    /// overrides, this device's layer (which the store reads, and a server never holds:
    /// Specs/Store.md §1.4), the rules that choose a profile, the class's when the request names
    /// one, and the book's.
    static func locations<Schema: ResolvableSchema>(
        _ schema: Schema.Type, reading publication: String?, deviceClass: String? = nil
    ) -> [StorageLocation] {
        var locations: [StorageLocation] = [
            .device, .layer(configurable: Schema.identifier, .shared),
            .layer(configurable: Schema.identifier, .overrides),
            .layer(configurable: Schema.identifier, .device),
            .layer(configurable: Schema.identifier, .rules),
        ]
        if let deviceClass {
            locations.append(.layer(configurable: Schema.identifier, .deviceClass(deviceClass)))
        }
        if let publication {
            locations.append(.layer(configurable: Schema.identifier, .publication(publication)))
        }
        return locations
    }
}
