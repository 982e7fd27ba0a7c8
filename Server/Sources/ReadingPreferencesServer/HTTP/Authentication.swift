import Foundation
import Hummingbird

/// A request's context: Hummingbird's, and who the request says it is.
public struct ServerContext: RequestContext {
    /// Hummingbird's part of the context.
    public var coreContext: CoreRequestContextStorage
    /// The request's bearer token and the user it opens; set by ``BearerAuthentication`` for
    /// every `/v1` route.
    var identity: RequestIdentity?

    /// A context for a new request, with no identity yet.
    ///
    /// - Parameter source: Where the request came from.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        identity = nil
    }

    /// The user of the request (401 without a known token).
    func user() async throws -> String {
        guard let identity else { throw Authentication.missingToken }
        return try await identity.user()
    }

    /// Who the request's token is: the user, and the device when it is a device's token.
    func tokenIdentity() async throws -> TokenIdentity {
        guard let identity else { throw Authentication.missingToken }
        return try await identity.identity()
    }
}

/// How a token maps to one user: the accounts table by default; pluggable for a server that
/// keeps its accounts elsewhere.
public protocol Authenticator: Sendable {
    /// The user a bearer token opens, or `nil`.
    func user(forToken token: String) async throws -> String?
}

extension Accounts: Authenticator {}

/// How a token is looked up: in the accounts table (with the versions of the user's documents a
/// route is about to read, in one query: the accounts repository's concern), or by a pluggable
/// authenticator, beside which the devices' tokens made here are still looked up in the table.
struct Authentication: Sendable {
    /// A pluggable authenticator, or `nil` for the accounts table.
    let authenticator: (any Authenticator)?
    /// The accounts table, which also holds the devices' tokens.
    let accounts: Accounts
    /// The devices, whose "last seen" a request notes.
    let devices: Devices

    init(authenticator: (any Authenticator)?, accounts: Accounts) {
        self.authenticator = authenticator
        self.accounts = accounts
        devices = Devices(database: accounts.database)
    }

    static let missingToken = Problem(
        .unauthorized, "unauthorized", "this route needs Authorization: Bearer <token>")
    static let unknownToken = Problem(.unauthorized, "unauthorized", "the token is not known")

    /// The bearer token of a request (401 without one). Tokens are read from this header only,
    /// never from a URL.
    static func token(of request: Request) throws -> String {
        guard let header = request.headers[.authorization] else { throw missingToken }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, isBearer(parts[0]) else { throw unknownToken }
        return String(
            parts[1].drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// Whether a scheme is `Bearer`, in any case (byte by byte, without making a lowercased copy).
    private static func isBearer(_ scheme: Substring) -> Bool {
        scheme.utf8.count == 6 && zip(scheme.utf8, "bearer".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    /// Who a token is (401 for an unknown token).
    func identity(forToken token: String) async throws -> TokenIdentity {
        if let authenticator {
            if let userID = try await authenticator.user(forToken: token) {
                return TokenIdentity(userID: userID)
            }
            if let device = try await accounts.identity(forToken: token, devicesOnly: true) { return device }
            throw Self.unknownToken
        }
        guard let found = try await accounts.identity(forToken: token) else { throw Self.unknownToken }
        return found
    }

    /// Who a token is and the versions of that user's documents at `scopes` (by scope), in one
    /// query with the accounts table; beside a pluggable authenticator the versions are `nil`,
    /// for the caller to read.
    func identity(forToken token: String, versionsAt scopes: [String]) async throws -> (
        identity: TokenIdentity, versions: [String: String]?
    ) {
        guard authenticator == nil else { return (try await identity(forToken: token), nil) }
        guard let found = try await accounts.identity(forToken: token, versionsAt: scopes) else {
            throw Self.unknownToken
        }
        return (found.identity, found.versions)
    }
}

/// A request's token, and who it is once looked up: a route asks for the user when it needs
/// it, either alone or with the versions of the documents it reads (settings and CSS, which
/// then answer from one query).
final class RequestIdentity: @unchecked Sendable {
    let token: String
    let authentication: Authentication
    private let lock = NSLock()
    private var found: TokenIdentity?

    init(token: String, authentication: Authentication) {
        self.token = token
        self.authentication = authentication
    }

    /// Who the token is (401 for an unknown token); looked up once per request.
    func identity() async throws -> TokenIdentity {
        if let known = lock.withLock({ found }) { return known }
        let identity = try await authentication.identity(forToken: token)
        lock.withLock { found = identity }
        return identity
    }

    /// The user (401 for an unknown token).
    func user() async throws -> String { try await identity().userID }

    /// The user and the versions of the user's documents at `scopes`, in one query when the
    /// accounts table is the authenticator (see ``Authentication/identity(forToken:versionsAt:)``).
    func user(versionsAt scopes: [String]) async throws -> (userID: String, versions: [String: String]?) {
        let (identity, versions) = try await authentication.identity(forToken: token, versionsAt: scopes)
        lock.withLock { found = identity }
        return (identity.userID, versions)
    }

    /// Who the token was found to be, if it was looked up.
    var looked: TokenIdentity? { lock.withLock { found } }
}

/// The one authentication of every `/v1` route: `Authorization: Bearer <token>`, and a missing
/// or unknown token is 401 whatever else is wrong with the request.
///
/// The middleware reads the token and gives the route a ``RequestIdentity``; the route looks
/// the user up when it needs it (most at once; settings and CSS together with the versions of
/// their documents). Whatever the route answers, the token has been looked up before the answer
/// leaves: an error thrown before it was (a path naming no configurable, say) becomes 401 when
/// the token is unknown.
struct BearerAuthentication: RouterMiddleware {
    typealias Context = ServerContext
    let authentication: Authentication

    func handle(
        _ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response
    )
        async throws -> Response
    {
        let identity = RequestIdentity(
            token: try Authentication.token(of: request), authentication: authentication)
        var context = context
        context.identity = identity
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            _ = try await identity.user()
            throw error
        }
        _ = try await identity.user()
        // A device's "last seen", at most once a minute (Specs/Server.md §3.4).
        if let found = identity.looked { try? await authentication.devices.noteSeen(found) }
        return response
    }
}
