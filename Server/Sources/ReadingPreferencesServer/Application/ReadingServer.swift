import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import ReadingPreferencesSQL
import ServiceLifecycle

/// The reading back end (Specs/Server.md §1): the library's store on PostgreSQL or an embedded SQLite
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

        /// The database for people, without a password: `SQLite database at PATH`, or
        /// `PostgreSQL database DB on HOST:PORT as USER (sslmode MODE)`.
        public var description: String {
            switch self {
            case .sqlite(let path): return "embedded SQLite database at \(path)"
            case .postgres(let url):
                guard let address = PostgresAddress(url) else {
                    return "PostgreSQL database (address not readable)"
                }
                return
                    "PostgreSQL database \(address.database ?? address.username) on \(address.host):\(address.port) "
                    + "as \(address.username) (sslmode \(address.sslMode))"
            }
        }
    }

    let database: any ServerDatabase
    /// What the controllers share: the users' documents, replicas and write path.
    let data: UserData
    /// The users and their tokens.
    let accounts: Accounts
    /// The event streams, their tickets and leases, and the devices (Specs/Server.md §9).
    let live: LiveEvents
    /// The PostgreSQL client, run as a service of the application (or by ``open``).
    private let client: PostgresClient?
    /// The instance's `LISTEN` connection to PostgreSQL, a service of the application.
    let listener: PostgresListener?
    /// The client's run loop when ``open`` started it (tools and tests without an application).
    private let clientTask: Task<Void, Never>?

    /// How many of a user's document writes that wait at once run in one transaction, at most,
    /// unless told otherwise.
    public static let defaultWriteGroupLimit = 32

    /// The most connections to PostgreSQL an instance opens unless told otherwise: twice the
    /// processors it runs on, at least four. More connections than the processors can run make
    /// every request wait on the operating system's scheduler rather than in the pool's queue,
    /// which is first come, first served: on two processors, sixteen connections answered a
    /// hundredth of the settings requests three to five times slower than four did, and fewer
    /// requests a second (`Benchmarks/README.md`).
    public static var defaultDatabaseConnections: Int {
        max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The most bytes of settings and CSS answers kept between requests unless told otherwise.
    public static let defaultAnswerCacheBytes = 32 << 20

    /// Opens the database, creates or upgrades its tables, and prepares the routes: for tools
    /// and tests that use the server without an application (`add-user`). An application is
    /// built with ``buildApplication(_:authenticator:onServerRunning:)``, which runs the
    /// PostgreSQL client as one of its services and migrates before it serves.
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
        let prepared = try await prepare(
            choice, writeGroupLimit: writeGroupLimit, maxBodyBytes: maxBodyBytes, logger: logger)
        guard let client = prepared.client else {
            try await prepared.migrate()
            return prepared
        }
        // Migrations need the client running; it keeps running until `close()`. The first query
        // waits until `run()` has begun, so PostgresNIO never sees a lease before its run loop
        // (it would warn that `run()` hasn't been called yet).
        let (started, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            signal.finish()
            await client.run()
        }
        for await _ in started {}
        await Task.yield()
        let server = ReadingServer(prepared, clientTask: task)
        do {
            try await server.migrate()
        } catch {
            task.cancel()
            throw error
        }
        return server
    }

    /// The server on a database, with nothing running yet and no table made: the PostgreSQL
    /// client runs as one of ``services``, and ``migrate()`` comes before serving.
    static func prepare(
        _ choice: DatabaseChoice, writeGroupLimit: Int, maxBodyBytes: Int,
        answerCacheBytes: Int = defaultAnswerCacheBytes,
        databaseConnections: Int = defaultDatabaseConnections,
        heartbeat: Duration = LiveEvents.defaultHeartbeat, streamsPerUser: Int = EventStreams.defaultPerUser,
        listenerURL: String? = nil, logger: Logger
    ) async throws -> ReadingServer {
        switch choice {
        case .sqlite(let path):
            return ReadingServer(
                database: try await SQLiteDatabase.open(path: path), client: nil, listening: nil,
                clientTask: nil,
                writeGroupLimit: writeGroupLimit, maxBodyBytes: maxBodyBytes,
                answerCacheBytes: answerCacheBytes, heartbeat: heartbeat, streamsPerUser: streamsPerUser,
                logger: logger)
        case .postgres(let url):
            guard let address = PostgresAddress(url) else {
                throw ServerError.usage(
                    "\(url) is not a postgres://user:password@host:port/database address "
                        + "(sslmode, if given: disable, allow, prefer, require, verify-ca or verify-full)")
            }
            var configuration = address.configuration
            configuration.options.maximumConnections = max(databaseConnections, 1)
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            let listening =
                try listenerURL.map { url in
                    guard let address = PostgresAddress(url) else {
                        throw ServerError.usage(
                            "\(url) is not a postgres://user:password@host:port/database address")
                    }
                    return address
                } ?? address
            return ReadingServer(
                database: PostgresDatabase(client: client, logger: logger), client: client,
                listening: try listening.connectionConfiguration(), clientTask: nil,
                writeGroupLimit: writeGroupLimit, maxBodyBytes: maxBodyBytes,
                answerCacheBytes: answerCacheBytes, heartbeat: heartbeat, streamsPerUser: streamsPerUser,
                logger: logger)
        }
    }

    /// Creates or upgrades the tables (hand-written migrations, under a schema lock).
    func migrate() async throws { try await Schema.migrate(database) }

    /// What runs beside the HTTP server: the PostgreSQL client, the closing of the database when
    /// the application shuts down gracefully, the event streams' publisher and the PostgreSQL
    /// listener. At a graceful shutdown the HTTP server stops first (each stream ends itself),
    /// then these, last first: the listener, the publisher, the database, the client.
    var services: [any Service] {
        (client.map { [$0] } ?? []) + [DatabaseCloser(server: self), live.publisher]
            + (listener.map { [$0] } ?? [])
    }

    /// The largest request body accepted unless told otherwise (1 MiB); a sync push may be
    /// larger (a replica file's limit, 64 MiB).
    public static let defaultMaxBodyBytes = UserData.defaultBodyLimit

    init(
        database: any ServerDatabase, client: PostgresClient? = nil,
        listening: PostgresConnection.Configuration? = nil, clientTask: Task<Void, Never>?,
        writeGroupLimit: Int = defaultWriteGroupLimit, maxBodyBytes: Int = defaultMaxBodyBytes,
        answerCacheBytes: Int = defaultAnswerCacheBytes, heartbeat: Duration = LiveEvents.defaultHeartbeat,
        streamsPerUser: Int = EventStreams.defaultPerUser,
        logger: Logger = Logger(label: "readingprefs-server")
    ) {
        self.database = database
        self.client = client
        self.clientTask = clientTask
        accounts = Accounts(database: database)
        let replica = SQLSyncLog(database: database)
        data = UserData(
            database: database, replica: replica, writeGroupLimit: writeGroupLimit,
            bodyLimit: maxBodyBytes, answerCacheBytes: answerCacheBytes)
        let live = LiveEvents(
            database: database, replica: replica, heartbeat: heartbeat, streamsPerUser: streamsPerUser,
            logger: logger)
        self.live = live
        listener = listening.map {
            PostgresListener(configuration: $0, publisher: live.publisher, logger: logger)
        }
        // SQLite (one instance) tells this instance's streams itself, at each commit; PostgreSQL
        // tells every instance's listener.
        database.announce { [publisher = live.publisher] notices in publisher.receive(notices) }
    }

    /// The same server with the client's run loop started by ``open``.
    private init(_ server: ReadingServer, clientTask: Task<Void, Never>) {
        database = server.database
        client = server.client
        listener = server.listener
        self.clientTask = clientTask
        accounts = server.accounts
        data = server.data
        live = server.live
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
    ///   - frameAncestors: The origins allowed to embed the settings page.
    ///   - fonts: The font families the settings form suggests (`--fonts`).
    /// - Returns: The router.
    public func router(
        authenticator: (any Authenticator)? = nil, baselines: Bool = false, frameAncestors: [String] = [],
        fonts: [String] = []
    ) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ProblemMiddleware())
        HealthController(health: Health(database: database)).addRoutes(to: router)
        PageController(frameAncestors: frameAncestors).addRoutes(to: router)
        let authentication = Authentication(authenticator: authenticator, accounts: accounts)
        let api = router.group("v1").add(middleware: BearerAuthentication(authentication: authentication))
        DocumentsController(data: data).addRoutes(to: api)
        PublicationsController(data: data, fonts: fonts).addRoutes(to: api)
        ProfilesController(data: data).addRoutes(to: api)
        SyncController(data: data, devices: live.devices).addRoutes(to: api)
        HistoryController(data: data).addRoutes(to: api)
        AccountController(data: data).addRoutes(to: api)
        DevicesController(devices: live.devices, bodyLimit: data.bodyLimit).addRoutes(to: api)
        EventsController(live: live, authentication: authentication).addRoutes(to: router, api: api)
        if baselines {
            BaselinesController(baselines: Baselines(database: database), bodyLimit: data.bodyLimit)
                .addRoutes(to: api)
        }
        return router
    }

    /// The server's responder: the router, inside what HTTP clients expect of every path (404,
    /// 405 with `Allow`, `OPTIONS`, CORS for `corsOrigins`).
    ///
    /// - Parameters:
    ///   - authenticator: How tokens map to users; the accounts table by default.
    ///   - baselines: Whether to add the benchmark's baseline routes.
    ///   - corsOrigins: The web origins allowed to call the API from a browser.
    ///   - frameAncestors: The origins allowed to embed the settings page.
    ///   - fonts: The font families the settings form suggests (`--fonts`).
    /// - Returns: The responder.
    public func responder(
        authenticator: (any Authenticator)? = nil, baselines: Bool = false, corsOrigins: [String] = [],
        frameAncestors: [String] = [], fonts: [String] = []
    ) -> some HTTPResponder<ServerContext> {
        let router = router(
            authenticator: authenticator, baselines: baselines, frameAncestors: frameAncestors, fonts: fonts)
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
        makeApplication(configuration, authenticator: authenticator, onServerRunning: onServerRunning)
    }

    /// ``application(_:authenticator:onServerRunning:)``, of its concrete type.
    func makeApplication(
        _ configuration: ServerConfiguration, authenticator: (any Authenticator)?,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) -> Application<some HTTPResponder<ServerContext>> {
        Application(
            responder: responder(
                authenticator: authenticator, baselines: configuration.baselines,
                corsOrigins: configuration.corsOrigins, frameAncestors: configuration.frameAncestors,
                fonts: configuration.fonts),
            server: .init { responder in
                GuardedHTTP1Channel(
                    responder: responder, requestHeadTimeout: configuration.requestHeadTimeout,
                    idleTimeout: configuration.idleTimeout)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port)),
            services: services,
            onServerRunning: onServerRunning, logger: configuration.logger)
    }
}

/// Builds the application of a configuration: the HTTP server, the PostgreSQL client as one of
/// its services (graceful shutdown drains them), the tables created or upgraded before anything
/// is served, and the database closed last. What `readingprefs-server serve` runs, and what the
/// tests drive.
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
/// - Returns: The application, and the server it serves (for accounts: its tables exist once the
///   application runs, its migrations coming before it serves).
/// - Throws: When the database cannot be opened (a migration that fails stops the application).
public func buildApplication(
    _ configuration: ServerConfiguration, authenticator: (any Authenticator)? = nil,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) async throws -> (application: some ApplicationProtocol, server: ReadingServer) {
    let server = try await ReadingServer.prepare(
        configuration.database, writeGroupLimit: configuration.writeGroupLimit,
        maxBodyBytes: configuration.maxBodyBytes, answerCacheBytes: configuration.answerCacheBytes,
        databaseConnections: configuration.databaseConnections, heartbeat: configuration.heartbeat,
        streamsPerUser: configuration.streamsPerUser, listenerURL: configuration.listenerDatabaseURL,
        logger: configuration.logger)
    var application = server.makeApplication(
        configuration, authenticator: authenticator, onServerRunning: onServerRunning)
    // The tables are made or upgraded once the client runs, before anything is served.
    application.beforeServerStarts { try await server.migrate() }
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
