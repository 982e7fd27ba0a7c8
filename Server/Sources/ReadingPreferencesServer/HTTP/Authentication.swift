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

/// How a request proves whose it is: the bearer token of its `Authorization` header, mapped to
/// a user by the authenticator. With the accounts table as the authenticator, a route that reads
/// documents can look the token up in the same query as the documents (one round trip).
struct Authentication: Sendable {
    let authenticator: any Authenticator
    /// The accounts table, when it is the authenticator.
    let accounts: Accounts?

    init(authenticator: (any Authenticator)?, accounts: Accounts) {
        self.authenticator = authenticator ?? accounts
        self.accounts = authenticator == nil ? accounts : nil
    }

    /// The bearer token of a request (401 without one).
    static func token(of request: Request) throws -> String {
        guard let header = request.headers[.authorization] else {
            throw Problem(.unauthorized, "unauthorized", "this route needs Authorization: Bearer <token>")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, isBearer(parts[0]) else { throw unknownToken }
        return String(Backend.trimmed(parts[1]) { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
    }

    /// Whether a scheme is `Bearer`, in any case (byte by byte, without making a lowercased copy).
    private static func isBearer(_ scheme: Substring) -> Bool {
        scheme.utf8.count == 6 && zip(scheme.utf8, "bearer".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    static let unknownToken = Problem(.unauthorized, "unauthorized", "the token is not known")

    /// The user of a request (401 without a known token).
    func user(of request: Request) async throws -> String {
        guard let userID = try await authenticator.user(forToken: try Self.token(of: request)) else {
            throw Self.unknownToken
        }
        return userID
    }

    /// The user of a request and the versions of the user's documents at `scopes` (by scope),
    /// in one query when the accounts table is the authenticator; otherwise the versions are
    /// `nil`, for the caller to read.
    func user(of request: Request, versionsAt scopes: [String]) async throws -> (
        userID: String, versions: [String: String]?
    ) {
        guard let accounts else { return (try await user(of: request), nil) }
        guard let found = try await accounts.user(forToken: try Self.token(of: request), versionsAt: scopes)
        else {
            throw Self.unknownToken
        }
        return (found.userID, found.versions)
    }

    /// Runs `check` (a route's reading of its path) after the token when it fails: a request
    /// without a known token is 401, whatever else is wrong with it.
    func checked<T>(_ request: Request, _ check: () throws -> T) async throws -> T {
        do {
            return try check()
        } catch {
            _ = try await user(of: request)
            throw error
        }
    }
}

/// Every `/v1` route but the two that read with the token (settings and CSS) is behind this
/// middleware: `Authorization: Bearer <token>`; an unknown or missing token is 401.
struct BearerAuthentication: RouterMiddleware {
    typealias Context = ServerContext
    let authentication: Authentication

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    )
        async throws -> Response
    {
        var context = context
        context.userID = try await authentication.user(of: request)
        return try await next(request, context)
    }
}
