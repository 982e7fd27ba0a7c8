import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// What every route shares: the database, the sync replica, each user's storage, and the
/// helpers that read requests and write answers.
struct Backend: Sendable {
    let database: any ServerDatabase
    /// The users' sync replicas: the library's sync log in the same database.
    let replica: SQLSyncLog
    /// Settings and CSS answers kept while their documents are unchanged.
    let answers = AnswerCache()
    /// Each user's store writes on this instance, one at a time.
    let writes = UserTurns()
    /// Each user's document writes on this instance, in groups that share one transaction
    /// holding the user's rows from the first read of each write.
    let documentWrites: WriteGroups
    /// The largest document or edits body accepted unless told otherwise (`--max-body-bytes`).
    static let defaultBodyLimit = 1 << 20
    /// The largest document, edits or profile body accepted.
    let bodyLimit: Int
    /// The largest push accepted (a replica file's limit, Specs/Sync.md §2).
    static let pushLimit = 64 << 20

    init(
        database: any ServerDatabase, replica: SQLSyncLog,
        writeGroupLimit: Int = ReadingServer.defaultWriteGroupLimit, bodyLimit: Int = defaultBodyLimit
    ) {
        self.database = database
        self.replica = replica
        self.bodyLimit = bodyLimit
        documentWrites = WriteGroups(database: database, limit: writeGroupLimit) {
            writes, userID, transaction in
            try await replica.stamp(writes, of: userID, in: transaction)
        }
    }

    /// A user's documents: the store's SQL storage, whose every batch also stamps the synced
    /// keys it changed, in the same transaction.
    func storage(for userID: String) -> SQLPreferencesStorage {
        storage(for: userID, in: database)
    }

    /// A user's storage on a database or on one transaction of it (whose reads then see the
    /// user's rows held, and whose batches are part of it).
    func storage(for userID: String, in database: any SQLDatabase) -> SQLPreferencesStorage {
        var storage = SQLPreferencesStorage(database: database, userID: userID)
        let replica = replica
        storage.afterWrites = { transaction, writes in
            try await replica.stamp(writes, of: userID, in: transaction)
        }
        return storage
    }

    /// The store of a user and a configurable, made for one request (it reads nothing yet).
    /// A store over one of the server's storages. The server stamps its own writes in the
    /// transaction of the write (Specs/Sync.md §7), so its stores record no pending stamps.
    static func store<Schema: ResolvableSchema>(_ schema: Schema.Type, on storage: any PreferencesStorage)
        -> PreferencesStore<Schema>
    {
        PreferencesStore<Schema>(storage: storage, options: .init(stampsEdits: false))
    }

    func store<Schema: ResolvableSchema>(_ schema: Schema.Type, for userID: String) -> PreferencesStore<
        Schema
    > {
        Self.store(Schema.self, on: storage(for: userID))
    }

    /// The store of a user, with the documents a publication's preferences come from (the
    /// device document, shared, the book's and the overrides) read in one query.
    func store<Schema: ResolvableSchema>(
        _ schema: Schema.Type, for userID: String, reading publication: String?
    )
        async throws -> PreferencesStore<Schema>
    {
        Self.store(Schema.self, on: try await prefetch(schema, for: userID, reading: publication))
    }

    /// A user's storage with the documents a publication's preferences come from read in one
    /// query.
    func prefetch<Schema: ResolvableSchema>(
        _ schema: Schema.Type, for userID: String, reading publication: String?
    ) async throws -> PrefetchedStorage {
        try await PrefetchedStorage.prefetching(
            Self.locations(schema, reading: publication), from: storage(for: userID))
    }

    /// The user of a request and the versions its documents have now: those a publication's
    /// preferences come from, each named with its version or as absent. With the accounts table
    /// as the authenticator, one query looks the token up and reads them (401 without a known
    /// token).
    func currentVersions<Schema: ResolvableSchema>(
        _ schema: Schema.Type, for request: Request, authentication: Authentication,
        reading publication: String
    ) async throws -> (userID: String, versions: [StorageLocation: StorageVersion?]) {
        let locations = Self.locations(schema, reading: publication)
        let scopes = PrefetchedStorage.scopes(of: locations)
        var (userID, byScope) = try await authentication.user(of: request, versionsAt: scopes)
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
    /// overrides, and the book's.
    static func locations<Schema: ResolvableSchema>(_ schema: Schema.Type, reading publication: String?)
        -> [StorageLocation]
    {
        var locations: [StorageLocation] = [
            .device, .layer(configurable: Schema.identifier, .shared),
            .layer(configurable: Schema.identifier, .overrides),
        ]
        if let publication {
            locations.append(.layer(configurable: Schema.identifier, .publication(publication)))
        }
        return locations
    }

    // MARK: - Requests

    /// The request's body, up to `limit` bytes.
    static func body(_ request: Request, limit: Int) async throws -> Data {
        var request = request
        do {
            return Data(buffer: try await request.collectBody(upTo: limit))
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            throw Problem.tooLarge(limit: limit)
        }
    }

    /// The body as a JSON value (400 when it is not JSON).
    static func json(_ request: Request, limit: Int) async throws -> JSONValue {
        let data = try await body(request, limit: limit)
        do {
            return try JSONValue(json: data)
        } catch {
            throw Problem(.badRequest, "invalidJSON", "the body is not JSON: \(error)")
        }
    }

    /// The body as a JSON object (400 otherwise).
    static func object(_ request: Request, limit: Int) async throws -> JSONObject {
        guard let object = try await json(request, limit: limit).objectValue else {
            throw Problem(.badRequest, "invalidJSON", "the body is not a JSON object")
        }
        return object
    }

    /// A path segment, percent-decoded; an identifier holding U+0000 (`%00`) is refused, never
    /// cut (Specs/Sync.md §1).
    static func decoded(_ segment: some StringProtocol) throws -> String {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return String(segment) }
        guard let text = String(segment).removingPercentEncoding else {
            throw Problem(.badRequest, "invalidPath", "\(segment) is not percent-encoded correctly")
        }
        guard !text.utf8.contains(0) else {
            throw Problem(
                .badRequest, "invalidIdentifier",
                "\(segment) holds U+0000 (%00), which no identifier may hold")
        }
        return text
    }

    /// The publication context of a request: query `layout`, `language` (repeatable) and
    /// `readingProgression`, or the same members of a JSON `publication` object.
    static func context(_ request: Request, publication: JSONValue? = nil) throws -> PublicationContext {
        var members: JSONObject = publication?.objectValue ?? [:]
        let query = request.uri.queryParameters
        if let layout = query.get("layout") { members["layout"] = .string(layout) }
        let languages = query.getAll("language")
        if !languages.isEmpty { members["languages"] = .array(languages.map { .string($0) }) }
        if let progression = query.get("readingProgression") {
            members["readingProgression"] = .string(progression)
        }
        do {
            return try PublicationContext(json: .object(members), path: "publication")
        } catch {
            throw Problem(.badRequest, "invalidPublication", "\(error)")
        }
    }

    // MARK: - Answers

    static func json(
        _ value: JSONValue, status: HTTPResponse.Status = .ok, etag: String? = nil,
        contentType: String = "application/json"
    ) -> Response {
        json(value.jsonData(), status: status, etag: etag, contentType: contentType)
    }

    /// An answer of JSON already written.
    static func json(
        _ data: Data, status: HTTPResponse.Status = .ok, etag: String? = nil,
        contentType: String = "application/json"
    ) -> Response {
        var headers: HTTPFields = [.contentType: contentType]
        if let etag { headers[.eTag] = etag }
        return Response(
            status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func notModified(etag: String) -> Response {
        Response(status: .notModified, headers: [.eTag: etag])
    }

    /// Whether an `If-None-Match` header names the tag (or is `*`).
    static func matches(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        // Most clients send back the ETag they were given, as it was.
        if header.utf8.elementsEqual(etag.utf8) { return true }
        let bare = trimmed(Substring(etag)) { $0 == UInt8(ascii: "\"") }
        return header.split(separator: ",").contains { tag in
            var text = trimmed(tag) { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if text == "*" { return true }
            if text.hasPrefix("W/") { text = text.dropFirst(2) }
            return trimmed(text) { $0 == UInt8(ascii: "\"") } == bare
        }
    }

    /// The text without the leading and trailing bytes `remove` picks.
    static func trimmed(_ text: Substring, removing remove: (UInt8) -> Bool) -> Substring {
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !remove($0) }),
            let last = bytes.lastIndex(where: { !remove($0) })
        else { return text[text.endIndex...] }
        return Substring(bytes[first...last])
    }

    // MARK: - Configurables

    /// Runs a visitor with the configurable's schema (404 for one the server does not know).
    static func schema<Visitor: SchemaVisitor>(_ configurable: String, _ visitor: Visitor) async throws
        -> Response
    {
        switch configurable {
        case EPUB.identifier: return try await visitor.visit(EPUB.self)
        case PDF.identifier: return try await visitor.visit(PDF.self)
        case Audio.identifier: return try await visitor.visit(Audio.self)
        case TTS.identifier: return try await visitor.visit(TTS.self)
        default: throw unknown(configurable)
        }
    }

    /// Checks that the server knows a configurable (404 otherwise), before anything is read.
    static func checkKnown(_ configurable: String) throws {
        switch configurable {
        case EPUB.identifier, PDF.identifier, Audio.identifier, TTS.identifier: return
        default: throw unknown(configurable)
        }
    }

    private static func unknown(_ configurable: String) -> Problem {
        Problem(
            .notFound, "unknownConfigurable",
            "no configurable \(configurable): use " + ConfigurableKind.allNames.joined(separator: ", "))
    }
}

/// A route's work for whichever schema the path names.
protocol SchemaVisitor: Sendable {
    func visit<Schema: ResolvableSchema>(_ schema: Schema.Type) async throws -> Response
}

extension Data {
    init(buffer: ByteBuffer) {
        self =
            buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes).map { Data($0) } ?? Data()
    }
}
