import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// An error answer: `application/problem+json` (RFC 9457) with the library's error code in
/// `code` (SPEC 14).
struct Problem: HTTPResponseError {
    let status: HTTPResponse.Status
    /// The library's code (`preconditionFailed`, `unsupportedValue`...) or the server's own
    /// (`unauthorized`, `notFound`, `invalidJSON`...).
    let code: String
    let detail: String

    init(_ status: HTTPResponse.Status, _ code: String, _ detail: String) {
        self.status = status
        self.code = code
        self.detail = detail
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body: JSONObject = [
            "type": "about:blank", "title": .string(status.reasonPhrase),
            "status": .number(JSONNumber(status.code)),
            "code": .string(code), "detail": .string(detail),
        ]
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array(JSONValue.object(body).jsonData()))))
    }

    /// The answer for an error a handler threw.
    static func from(_ error: any Error) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as StorageError:
            switch error.code {
            case .preconditionFailed: return Problem(.preconditionFailed, "preconditionFailed", error.message)
            case .conflict: return Problem(.conflict, "conflict", error.message)
            case .corruptDocument: return Problem(.internalServerError, "corruptDocument", error.message)
            case .io: return Problem(.serviceUnavailable, "io", error.message)
            case .invalidIdentifier: return Problem(.badRequest, "invalidIdentifier", error.message)
            case .invalidKey: return Problem(.unprocessableContent, "invalidKey", error.message)
            }
        case let error as PreferenceError:
            return Problem(.unprocessableContent, error.code.rawValue, error.description)
        case let error as ProfileError:
            return Problem(.notFound, "unknownProfile", error.description)
        case let error as SQLSyncLog.PushRefusal:
            switch error {
            case .malformed(let detail): return Problem(.badRequest, "invalidPush", detail)
            case .foreignReplica(let detail): return Problem(.forbidden, "foreignReplica", detail)
            }
        case let error as SQLSyncLog.CursorProblem:
            switch error {
            case .malformed: return Problem(.badRequest, "invalidCursor", "a cursor is c followed by digits")
            case .compacted:
                return Problem(
                    .gone, "cursorCompacted",
                    "the cursor is older than the compaction floor: read /v1/sync/state")
            }
        case let error as HTTPResponseError where error.status == .contentTooLarge:
            return Problem(.contentTooLarge, "tooLarge", "the body is too large")
        default:
            return Problem(.internalServerError, "internal", "the server failed: \(error)")
        }
    }
}

/// Turns every error a handler throws into a problem answer (an error Hummingbird does not know
/// would be an empty 500).
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            throw Problem.from(error)
        }
    }
}
