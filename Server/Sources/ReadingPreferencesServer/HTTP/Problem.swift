import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore

/// An error answer: `application/problem+json` (RFC 9457) with the library's error code in
/// `code` (Specs/Server.md §4.2).
struct Problem: HTTPResponseError {
    let status: HTTPResponse.Status
    /// The library's code (`preconditionFailed`, `unsupportedValue`...) or the server's own
    /// (`unauthorized`, `notFound`, `invalidJSON`...).
    let code: String
    let detail: String
    /// Headers the answer carries besides its content type (`Allow` on a 405).
    var headers: HTTPFields = [:]
    /// More members of the answer: `errors` on a 422 (every rejected key), `limit` on a 413.
    var members: [JSONObject.Member] = []
    /// Whether this is the router's own 404: no route serves the path with the request's method
    /// (``HTTPConventions`` then tells a 404 from a 405).
    var unrouted = false

    init(_ status: HTTPResponse.Status, _ code: String, _ detail: String) {
        self.status = status
        self.code = code
        self.detail = detail
    }

    /// A 422 naming every rejected key: `code` and `detail` are the first's. With the
    /// configurable's catalogue, each rejected value says what the setting accepts, as the
    /// command line does (`expected`, and `allowed` when the values are a closed list).
    init(rejecting errors: [PreferenceError], catalogue: SettingCatalogue? = nil) {
        var details: [String] = []
        var list: [JSONValue] = []
        for error in errors {
            var entry: JSONObject = ["key": .string(error.key), "code": .string(error.code.rawValue)]
            var detail = error.description
            if [.typeMismatch, .unsupportedValue, .notANumber].contains(error.code),
                let descriptor = catalogue?.descriptor(forKey: error.key)
            {
                detail += " (expected \(descriptor.expectedValues))"
                entry["expected"] = .string(descriptor.expectedValues)
                if let allowed = descriptor.allowedValues { entry["allowed"] = .array(allowed) }
            }
            entry["detail"] = .string(detail)
            details.append(detail)
            list.append(.object(entry))
        }
        self.init(
            .unprocessableContent, errors.first?.code.rawValue ?? "unsupportedValue",
            details.joined(separator: "; "))
        members = [JSONObject.Member(key: "errors", value: .array(list))]
    }

    /// A 422 about one member of a request that is not a preference (a history route's `layer`),
    /// in the shape of every 422: `errors` names it.
    ///
    /// - Parameters:
    ///   - code: The code (`invalidLayer`, `invalidKey`).
    ///   - member: The member rejected (`layer`, or the key).
    ///   - detail: Why, in words.
    /// - Returns: The problem.
    static func unprocessable(_ code: String, member: String, _ detail: String) -> Problem {
        var problem = Problem(.unprocessableContent, code, detail)
        let entry: JSONObject = ["key": .string(member), "code": .string(code), "detail": .string(detail)]
        problem.members = [JSONObject.Member(key: "errors", value: .array([.object(entry)]))]
        return problem
    }

    /// Runs `body`, turning a rejected value into a 422 that says what each setting of
    /// `catalogue` accepts.
    static func rejections<T>(in catalogue: SettingCatalogue, _ body: () async throws -> T) async throws -> T
    {
        do {
            return try await body()
        } catch let error as PreferenceError {
            throw Problem(rejecting: [error], catalogue: catalogue)
        } catch let error as DocumentRejection {
            throw Problem(rejecting: error.errors, catalogue: catalogue)
        }
    }

    /// A 413 that says the limit.
    static func tooLarge(limit: Int) -> Problem {
        var problem = Problem(
            .contentTooLarge, "tooLarge",
            "the body is larger than the limit of \(limit) bytes (--max-body-bytes)")
        problem.members = [JSONObject.Member(key: "limit", value: .number(JSONNumber(limit)))]
        return problem
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = JSONObject(
            members: [
                JSONObject.Member(key: "type", value: "about:blank"),
                JSONObject.Member(key: "title", value: .string(status.reasonPhrase)),
                JSONObject.Member(key: "status", value: .number(JSONNumber(status.code))),
                JSONObject.Member(key: "code", value: .string(code)),
                JSONObject.Member(key: "detail", value: .string(detail)),
            ] + members)
        var headers = headers
        headers[.contentType] = "application/problem+json"
        // The router renders its own errors: the mark tells ``HTTPConventions`` (which removes it).
        if unrouted { headers[Self.unroutedMark] = "1" }
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array(JSONValue.object(body).jsonData()))))
    }

    /// The header that marks the router's own 404 on its way to ``HTTPConventions``; never sent.
    static let unroutedMark: HTTPField.Name = HTTPField.Name("X-ReadingPrefs-Unrouted") ?? .via

    /// The answer for an error a handler threw.
    static func from(_ error: any Error) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as StorageError:
            switch error.code {
            case .preconditionFailed:
                var problem = Problem(.preconditionFailed, "preconditionFailed", error.message)
                if !error.staleValues.isEmpty {
                    // Specs/Server.md §5.4: each key an edit expected that holds another value now.
                    let changed = error.staleValues.map { stale -> JSONValue in
                        .object([
                            "key": .string(stale.key), "expected": stale.expected ?? .null,
                            "stored": stale.stored ?? .null,
                        ])
                    }
                    problem.members = [JSONObject.Member(key: "changed", value: .array(changed))]
                }
                return problem
            case .conflict: return Problem(.conflict, "conflict", error.message)
            case .corruptDocument: return Problem(.internalServerError, "corruptDocument", error.message)
            case .io: return Problem(.serviceUnavailable, "io", error.message)
            case .invalidIdentifier: return Problem(.badRequest, "invalidIdentifier", error.message)
            case .invalidKey: return Problem(.unprocessableContent, "invalidKey", error.message)
            }
        case let error as PreferenceError:
            return Problem(rejecting: [error])
        case let error as DocumentRejection:
            return Problem(rejecting: error.errors)
        case let error as EditTargetError:
            return Problem.unprocessable("noLayer", member: "layer", error.description)
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
        case let error as HTTPError where error.status == .notFound:
            var problem = Problem(.notFound, "notFound", "no route serves this path")
            problem.unrouted = true
            return problem
        case let error as HTTPError where (400..<500).contains(error.status.code):
            return Problem(error.status, "badRequest", error.body ?? error.status.reasonPhrase)
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
