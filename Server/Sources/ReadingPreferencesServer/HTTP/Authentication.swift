import Foundation
import Hummingbird

/// A request's context: Hummingbird's, and the user its token opened.
public struct ServerContext: RequestContext {
    /// Hummingbird's part of the context.
    public var coreContext: CoreRequestContextStorage
    /// The authenticated user; set by ``BearerAuthentication`` for every `/v1` route.
    public var userID: String?

    /// A context for a new request, with no user yet.
    ///
    /// - Parameter source: Where the request came from.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        userID = nil
    }

    /// The user, or a 401 when the route forgot its authentication (it never does).
    func user() throws -> String {
        guard let userID else { throw Problem(.unauthorized, "unauthorized", "no account for this request") }
        return userID
    }
}

/// How a token maps to one user: the accounts table by default; pluggable for a server that
/// keeps its accounts elsewhere.
public protocol Authenticator: Sendable {
    /// The user a bearer token opens, or `nil`.
    func user(forToken token: String) async throws -> String?
}

extension Accounts: Authenticator {}

/// Every `/v1` route needs `Authorization: Bearer <token>`; an unknown or missing token is 401.
struct BearerAuthentication: RouterMiddleware {
    typealias Context = ServerContext
    let authenticator: any Authenticator

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    )
        async throws -> Response
    {
        guard let header = request.headers[.authorization] else {
            throw Problem(.unauthorized, "unauthorized", "this route needs Authorization: Bearer <token>")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
            let userID = try await authenticator.user(
                forToken: String(parts[1]).trimmingCharacters(in: .whitespaces))
        else {
            throw Problem(.unauthorized, "unauthorized", "the token is not known")
        }
        var context = context
        context.userID = userID
        return try await next(request, context)
    }
}
