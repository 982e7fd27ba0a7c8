import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReadingPreferences
import ReadingPreferencesStore

/// How routes read a request: its body within a limit, as JSON, a path segment, the publication
/// context. Each failure is the problem a client can act on (400, 413), never a 500.
extension Request {
    /// The body, up to `limit` bytes (413 saying the limit beyond it).
    func body(limit: Int) async throws -> Data {
        var request = self
        do {
            return Data(buffer: try await request.collectBody(upTo: limit))
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            throw Problem.tooLarge(limit: limit)
        }
    }

    /// The body of a route that reads JSON, up to `limit` bytes: 415 when the request says it is
    /// something else (`text/plain`, a form), before anything is read. A body sent without a
    /// content type is read as JSON.
    func jsonBody(limit: Int) async throws -> Data {
        if let type = headers[.contentType], !Self.isJSON(type) {
            var problem = Problem(
                .unsupportedMediaType, "unsupportedMediaType",
                "the body is \(type); send application/json (a merge patch: application/merge-patch+json)")
            problem.headers[HTTPField.Name("Accept-Patch") ?? .via] = "application/merge-patch+json"
            throw problem
        }
        return try await body(limit: limit)
    }

    /// Whether a content type is JSON: `application/json`, or `application/<anything>+json`
    /// (`merge-patch+json`), with any parameters.
    static func isJSON(_ contentType: String) -> Bool {
        let media =
            contentType.split(separator: ";", maxSplits: 1).first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        return media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
    }

    /// The body as a JSON value (415 when it says it is not JSON, 400 when it is not).
    func json(limit: Int) async throws -> JSONValue {
        let data = try await jsonBody(limit: limit)
        do {
            return try JSONValue(json: data)
        } catch {
            throw Problem(.badRequest, "invalidJSON", "the body is not JSON: \(error)")
        }
    }

    /// The body as a JSON object (400 otherwise).
    func object(limit: Int) async throws -> JSONObject {
        guard let object = try await json(limit: limit).objectValue else {
            throw Problem(.badRequest, "invalidJSON", "the body is not a JSON object")
        }
        return object
    }

    /// The publication context: query `layout`, `language` (repeatable), `readingProgression`
    /// and `collection` (repeatable, what profile rules match), over the same members of a JSON `publication` object (the query
    /// wins, member by member).
    func publicationContext(publication: JSONValue? = nil) throws -> PublicationContext {
        var members: JSONObject = publication?.objectValue ?? [:]
        let query = uri.queryParameters
        if let layout = query.get("layout") { members["layout"] = .string(layout) }
        let languages = query.getAll("language")
        if !languages.isEmpty { members["languages"] = .array(languages.map { .string($0) }) }
        if let progression = query.get("readingProgression") {
            members["readingProgression"] = .string(progression)
        }
        let collections = query.getAll("collection")
        if !collections.isEmpty { members["collections"] = .array(collections.map { .string($0) }) }
        do {
            return try PublicationContext(json: .object(members), path: "publication")
        } catch {
            throw Problem(.badRequest, "invalidPublication", "\(error)")
        }
    }

    /// A path segment, percent-decoded; an identifier holding U+0000 (`%00`) is refused, never
    /// cut (Specs/Sync.md §1).
    static func decoded(_ segment: some StringProtocol) throws -> String {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return String(segment) }
        guard let text = String(segment).removingPercentEncoding else {
            throw Problem(.badRequest, "invalidPath", "\(segment) is not percent-encoded correctly")
        }
        guard !StorageLocation.holdsNUL(text) else {
            throw Problem(
                .badRequest, "invalidIdentifier",
                "\(segment) holds U+0000 (%00), which no identifier may hold")
        }
        return text
    }
}

extension Data {
    init(buffer: ByteBuffer) {
        self =
            buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes).map { Data($0) } ?? Data()
    }
}
