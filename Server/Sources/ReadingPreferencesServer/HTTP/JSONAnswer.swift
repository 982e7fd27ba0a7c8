import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReadingPreferences

/// Every answer a route gives that is not an error: JSON (or nothing) with its status and, for
/// what clients may cache or make conditional, its entity tag. Errors are ``Problem``s.
struct JSONAnswer: ResponseGenerator, Sendable {
    var status: HTTPResponse.Status
    /// The body, already written; `nil` for an answer without one (204, 304).
    var body: Data?
    var etag: String?
    var contentType: String

    /// An answer of JSON already written (a stored document as the library wrote it, a kept
    /// answer, the contract file).
    init(
        data: Data, status: HTTPResponse.Status = .ok, etag: String? = nil,
        contentType: String = "application/json"
    ) {
        self.status = status
        self.body = data
        self.etag = etag
        self.contentType = contentType
    }

    /// An answer of a JSON value.
    init(_ value: JSONValue, status: HTTPResponse.Status = .ok, etag: String? = nil) {
        self.init(data: value.jsonData(), status: status, etag: etag)
    }

    private init(status: HTTPResponse.Status, etag: String?) {
        self.status = status
        self.body = nil
        self.etag = etag
        self.contentType = ""
    }

    /// 204: done, nothing to say.
    static let noContent = JSONAnswer(status: .noContent, etag: nil)

    /// 304: the client's copy, tagged `etag`, is current.
    static func notModified(etag: String) -> JSONAnswer { JSONAnswer(status: .notModified, etag: etag) }

    /// 200 with only an entity tag (the benchmark's select-update baseline).
    static func tagged(_ etag: String) -> JSONAnswer { JSONAnswer(status: .ok, etag: etag) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [:]
        if let etag { headers[.eTag] = etag }
        guard let body else { return Response(status: status, headers: headers) }
        headers[.contentType] = contentType
        return Response(
            status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
