import HTTPTypes
import Hummingbird
import NIOCore

/// What HTTP clients expect of every path, around the router: a path no route serves is 404 and
/// a known path asked with another method 405 with `Allow` (both problem+json, never 500);
/// `OPTIONS` on a known path is 204 with `Allow`; and CORS for the origins the server was told to
/// trust (`--cors-origin`): preflights answered without a token, and every answer to such an
/// origin carrying `Access-Control-Allow-Origin`, `Vary: Origin` and the exposed `ETag`.
///
/// The methods of a path come from the router's own table (``Router/routes``), so a route added
/// to the router is known here with no other change.
struct HTTPConventions<Inner: HTTPResponder>: HTTPResponder where Inner.Context == ServerContext {
    typealias Context = ServerContext

    let inner: Inner
    let routes: RouteTable
    let corsOrigins: Set<String>

    /// The request headers a web reader's requests carry, allowed by a preflight.
    static var allowedHeaders: String { "Authorization, Content-Type, If-Match, If-None-Match" }

    func respond(to request: Request, context: ServerContext) async throws -> Response {
        let origin = request.headers[.origin].flatMap { corsOrigins.contains($0) ? $0 : nil }
        var response: Response
        if request.method == .options {
            let allowed = routes.methods(for: request.uri.path)
            if allowed.isEmpty {
                response = try notFound(request, context)
            } else {
                response = Response(status: .noContent, headers: [.allow: Self.list(allowed)])
                if origin != nil, request.headers[.accessControlRequestMethod] != nil {
                    response.headers[.accessControlAllowMethods] = Self.list(allowed)
                    response.headers[.accessControlAllowHeaders] = Self.allowedHeaders
                    response.headers[.accessControlMaxAge] = "600"
                }
            }
        } else {
            do {
                response = try await inner.respond(to: request, context: context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            } catch {
                response = try Problem.from(error).response(from: request, context: context)
            }
            if response.headers[Problem.unroutedMark] != nil {
                // The router's own 404: no route serves the path with this method (a handler's
                // 404 has no mark). The route table says which it is, only then.
                let allowed = routes.methods(for: request.uri.path)
                if allowed.isEmpty || allowed.contains(request.method) {
                    response = try notFound(request, context)
                } else {
                    var problem = Problem(
                        .methodNotAllowed, "methodNotAllowed",
                        "\(request.uri.path) answers \(Self.list(allowed)), not \(request.method)")
                    problem.headers[.allow] = Self.list(allowed)
                    response = try problem.response(from: request, context: context)
                }
            }
        }
        if let origin {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = "ETag"
        }
        if !corsOrigins.isEmpty { response.headers[values: .vary].append("Origin") }
        return response
    }

    private func notFound(_ request: Request, _ context: ServerContext) throws -> Response {
        try Problem(.notFound, "notFound", "no route serves \(request.uri.path)")
            .response(from: request, context: context)
    }

    /// Methods as an `Allow` value, in a stable order.
    static func list(_ methods: Set<HTTPRequest.Method>) -> String {
        methods.map(\.rawValue).sorted().joined(separator: ", ")
    }
}

/// The paths the router serves and the methods each answers, read from the router once it has
/// every route: `HEAD` wherever `GET` is served (the router makes those), and `OPTIONS`
/// everywhere.
struct RouteTable: Sendable {
    private let entries: [(path: RouterPath, methods: Set<HTTPRequest.Method>)]

    init(_ routes: [Router<ServerContext>.RouteDescription]) {
        var byPath: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in routes {
            byPath[route.path.description, default: (route.path, [.options])].methods.insert(route.method)
            if route.method == .get { byPath[route.path.description]?.methods.insert(.head) }
        }
        entries = byPath.keys.sorted().compactMap { byPath[$0] }
    }

    /// The methods of the route that serves a path, the way the router picks it: a literal
    /// segment before a parameter, a parameter before `**` (none: no route serves it). So
    /// `/v1/epub/profiles/active` answers what its own route answers, not a profile's methods.
    func methods(for path: String) -> Set<HTTPRequest.Method> {
        let segments = Array(path.split(separator: "/", omittingEmptySubsequences: false).dropFirst())
        var best: (rank: [Int], methods: Set<HTTPRequest.Method>)?
        for entry in entries {
            guard let rank = Self.rank(entry.path, segments) else { continue }
            if let current = best, !current.rank.lexicographicallyPrecedes(rank) { continue }
            best = (rank, entry.methods)
        }
        return best?.methods ?? []
    }

    /// How closely a route's path matches the segments, component by component (3: the same
    /// text, 2: a parameter, 1: `**`); `nil` when it does not match.
    private static func rank(_ path: RouterPath, _ segments: [Substring]) -> [Int]? {
        var rank: [Int] = []
        var index = 0
        for element in path.components {
            if element.description == "**" { return index < segments.count ? rank + [1] : nil }
            guard index < segments.count, !segments[index].isEmpty, element ~= segments[index] else {
                return nil
            }
            rank.append(element == segments[index] ? 3 : 2)
            index += 1
        }
        return index == segments.count ? rank : nil
    }
}
