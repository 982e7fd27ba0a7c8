import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import ReadingPreferencesSQL
import ServiceLifecycle

/// The reading back end (SPEC 14): the library's store on PostgreSQL or an embedded SQLite
/// database, behind Hummingbird routes, and a sync replica that devices sync through.
///
/// ```swift
/// let server = try await ReadingServer.open(.sqlite(path: "prefs.sqlite"))
/// let app = server.application(port: 8080)
/// try await app.runService()
/// ```
public struct ReadingServer: Sendable {
    /// Where the server keeps its tables.
    public enum DatabaseChoice: Sendable {
        /// An embedded SQLite file (created when missing).
        case sqlite(path: String)
        /// A PostgreSQL database, `postgres://user:password@host:port/database`.
        case postgres(url: String)
    }

    let database: any ServerDatabase
    let backend: Backend
    /// The users and their tokens.
    let accounts: Accounts
    /// The PostgreSQL client's run loop, for as long as the server is open.
    private let clientTask: Task<Void, Never>?

    /// How many of a user's document writes that wait at once run in one transaction, at most,
    /// unless told otherwise.
    public static let defaultWriteGroupLimit = 32

    /// Opens the database, creates or upgrades its tables, and prepares the routes.
    ///
    /// - Parameters:
    ///   - choice: The database.
    ///   - writeGroupLimit: How many of a user's document writes (`PUT`, `PATCH`) that wait at
    ///     once share one transaction, at most; `1` runs each in its own. Each write is checked,
    ///     validated and stamped on its own either way.
    ///   - maxBodyBytes: The largest request body accepted (a sync push may be larger).
    ///   - logger: The logger.
    /// - Returns: The server.
    /// - Throws: When the database cannot be opened or its tables made.
    public static func open(
        _ choice: DatabaseChoice, writeGroupLimit: Int = defaultWriteGroupLimit,
        maxBodyBytes: Int = defaultMaxBodyBytes,
        logger: Logger = Logger(label: "readingprefs-server")
    )
        async throws -> ReadingServer
    {
        switch choice {
        case .sqlite(let path):
            let database = try await SQLiteDatabase.open(path: path)
            try await Schema.migrate(database)
            return ReadingServer(
                database: database, clientTask: nil, writeGroupLimit: writeGroupLimit,
                maxBodyBytes: maxBodyBytes)
        case .postgres(let url):
            guard let address = PostgresAddress(url) else {
                throw ServerError.usage("\(url) is not a postgres://user:password@host:port/database address")
            }
            let client = PostgresClient(configuration: address.configuration, backgroundLogger: logger)
            // Migrations need the client running; it keeps running for the application.
            let task = Task { await client.run() }
            let database = PostgresDatabase(client: client, logger: logger)
            do {
                try await Schema.migrate(database)
            } catch {
                task.cancel()
                throw error
            }
            return ReadingServer(
                database: database, clientTask: task, writeGroupLimit: writeGroupLimit,
                maxBodyBytes: maxBodyBytes)
        }
    }

    /// The largest request body accepted unless told otherwise (1 MiB); a sync push may be
    /// larger (a replica file's limit, 64 MiB).
    public static let defaultMaxBodyBytes = Backend.defaultBodyLimit

    init(
        database: any ServerDatabase, clientTask: Task<Void, Never>?,
        writeGroupLimit: Int = defaultWriteGroupLimit, maxBodyBytes: Int = defaultMaxBodyBytes
    ) {
        self.database = database
        self.clientTask = clientTask
        accounts = Accounts(database: database)
        backend = Backend(
            database: database, replica: SQLSyncLog(database: database), writeGroupLimit: writeGroupLimit,
            bodyLimit: maxBodyBytes)
    }

    /// Stops the database client.
    public func close() async {
        clientTask?.cancel()
        if let sqlite = database as? SQLiteDatabase { try? await sqlite.close() }
    }

    /// Adds an account and returns its id and bearer token (shown once; only its hash is kept).
    ///
    /// - Parameters:
    ///   - name: A name for people.
    ///   - allowingTakenName: Whether another account may already have the name.
    /// - Returns: The account's id and token.
    /// - Throws: When the database fails.
    public func addUser(named name: String, allowingTakenName: Bool = true) async throws -> (
        userID: String, token: String
    ) {
        if !allowingTakenName, try await accounts.isTaken(name) {
            throw ServerError.usage(
                "an account named \(name) exists already: choose another name, or pass --allow-taken-name")
        }
        return try await accounts.addUser(named: name)
    }

    /// The router with every route of the HTTP contract (`Server/openapi.json`), and the load
    /// benchmark's baselines when asked. `HEAD` is answered wherever `GET` is.
    ///
    /// - Parameters:
    ///   - authenticator: How tokens map to users; the accounts table by default.
    ///   - baselines: Whether to add the benchmark's baseline routes under `/v1/bench`.
    /// - Returns: The router.
    public func router(authenticator: (any Authenticator)? = nil, baselines: Bool = false) -> Router<
        ServerContext
    > {
        let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ProblemMiddleware())
        let database = database
        router.get("/healthz") { _, _ in Backend.json(.object(["status": "ok"])) }
        router.get("/readyz") { _, _ in
            do {
                _ = try await database.query("SELECT 1 AS ready", [])
                return Backend.json(.object(["status": "ready"]))
            } catch {
                throw Problem(.serviceUnavailable, "notReady", "the database does not answer: \(error)")
            }
        }
        router.get("/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_json)))
        }
        let authentication = Authentication(authenticator: authenticator, accounts: accounts)
        let api = router.group("v1").add(middleware: BearerAuthentication(authentication: authentication))
        DocumentRoutes.add(to: api, backend: backend)
        // Settings and CSS check the token in the query that reads their documents.
        PublicationRoutes.add(
            to: api, reads: router.group("v1"), backend: backend, authentication: authentication)
        ProfileRoutes.add(to: api, backend: backend)
        SyncRoutes.add(to: api, backend: backend)
        AccountRoutes.add(to: api, backend: backend)
        if baselines { BaselineRoutes.add(to: api, backend: backend) }
        return router
    }

    /// The server's responder: the router, inside what HTTP clients expect of every path (404,
    /// 405 with `Allow`, `OPTIONS`, CORS for `corsOrigins`).
    ///
    /// - Parameters:
    ///   - authenticator: How tokens map to users; the accounts table by default.
    ///   - baselines: Whether to add the benchmark's baseline routes.
    ///   - corsOrigins: The web origins allowed to call the API from a browser.
    /// - Returns: The responder.
    public func responder(
        authenticator: (any Authenticator)? = nil, baselines: Bool = false, corsOrigins: [String] = []
    ) -> some HTTPResponder<ServerContext> {
        let router = router(authenticator: authenticator, baselines: baselines)
        return HTTPConventions(
            inner: router.buildResponder(), routes: RouteTable(router.routes), corsOrigins: Set(corsOrigins))
    }

    /// The application serving the routes on a port (`0`: any free port, told to
    /// `onServerRunning`); the database is closed when it shuts down (`SIGTERM`, `SIGINT`).
    ///
    /// - Parameters:
    ///   - configuration: Where to listen, the origins to allow, the benchmark's routes.
    ///   - authenticator: How tokens map to users; the accounts table by default.
    ///   - onServerRunning: Called with the listening channel once the server runs.
    /// - Returns: The application; run it with `runService()`.
    public func application(
        _ configuration: ServerConfiguration, authenticator: (any Authenticator)? = nil,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            responder: responder(
                authenticator: authenticator, baselines: configuration.baselines,
                corsOrigins: configuration.corsOrigins),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port)),
            services: [DatabaseCloser(server: self)],
            onServerRunning: onServerRunning, logger: configuration.logger)
    }
}

/// Opens the database of a configuration (creating or upgrading its tables before anything is
/// served) and builds the application: what `readingprefs-server serve` runs, and what the tests
/// drive.
///
/// ```swift
/// let app = try await buildApplication(ServerConfiguration(database: .sqlite(path: "prefs.sqlite")))
/// try await app.runService()
/// ```
///
/// - Parameters:
///   - configuration: The database, the address and the limits.
///   - authenticator: How tokens map to users; the accounts table by default.
///   - onServerRunning: Called with the listening channel once the server runs.
/// - Returns: The application and the server it serves (for accounts).
/// - Throws: When the database cannot be opened or its tables made.
public func buildApplication(
    _ configuration: ServerConfiguration, authenticator: (any Authenticator)? = nil,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) async throws -> (application: some ApplicationProtocol, server: ReadingServer) {
    let server = try await ReadingServer.open(
        configuration.database, writeGroupLimit: configuration.writeGroupLimit,
        maxBodyBytes: configuration.maxBodyBytes, logger: configuration.logger)
    let application = server.application(
        configuration, authenticator: authenticator, onServerRunning: onServerRunning)
    return (application, server)
}

/// Closes the server's database when the application shuts down gracefully.
struct DatabaseCloser: Service {
    let server: ReadingServer

    func run() async throws {
        // Waits for the graceful shutdown (or cancellation), then closes.
        try? await gracefulShutdown()
        await server.close()
    }
}
