import Logging

/// How a server runs: its database, where it listens, what it accepts, and whom it lets call
/// from a browser. `readingprefs-server serve` builds one from its options.
///
/// ```swift
/// var configuration = ServerConfiguration(database: .sqlite(path: "prefs.sqlite"))
/// configuration.corsOrigins = ["https://reader.example"]
/// let (app, _) = try await buildApplication(configuration)
/// try await app.runService()
/// ```
public struct ServerConfiguration: Sendable {
    /// The database.
    public var database: ReadingServer.DatabaseChoice
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port (`0`: any free port).
    public var port = 8080
    /// How many of a user's document writes that wait at once share one transaction, at most.
    public var writeGroupLimit = ReadingServer.defaultWriteGroupLimit
    /// The largest request body accepted, in bytes (a sync push may be larger: 64 MiB).
    public var maxBodyBytes = ReadingServer.defaultMaxBodyBytes
    /// The web origins (`https://reader.example`) allowed to call the API from a browser: CORS
    /// preflights are answered for them, without a token, and their answers say they may read
    /// them. None by default.
    public var corsOrigins: [String] = []
    /// The origins (`https://reader.example`) allowed to embed the settings page in a frame
    /// (its `Content-Security-Policy` `frame-ancestors`). None by default.
    public var frameAncestors: [String] = []
    /// The font families the app offers readers (`--fonts`): the settings form's font setting
    /// suggests them, keeping a reader's own (Specs/Server.md §8.2). None by default.
    public var fonts: [String] = []
    /// The most bytes of settings and CSS answers kept between requests (32 MiB; `0` keeps none,
    /// for measuring what the cache is worth).
    public var answerCacheBytes = ReadingServer.defaultAnswerCacheBytes
    /// The most connections to PostgreSQL this instance opens (twice the processors, at least
    /// four); requests beyond them wait in the pool's queue, in order.
    public var databaseConnections = ReadingServer.defaultDatabaseConnections
    /// How long a connection may take to send a request's head once it began one, or a new
    /// connection its first (10 seconds): a client that sends half a head is closed, with 408.
    public var requestHeadTimeout = GuardedHTTP1Channel.defaultRequestHeadTimeout
    /// How long a kept-alive connection may wait for its next request (60 seconds); an event
    /// stream is not idle: it stays open by its heartbeat.
    public var idleTimeout = GuardedHTTP1Channel.defaultIdleTimeout
    /// Where the instance's `LISTEN` connection goes, when the database address is a pooler in
    /// transaction mode (which cannot carry a listener, SRV-0005): PostgreSQL itself, or a
    /// pooler in session mode. `nil`: the database's address.
    public var listenerDatabaseURL: String?
    /// The most event streams a user holds at once, on every instance together (16).
    public var streamsPerUser = EventStreams.defaultPerUser
    /// The time between an event stream's heartbeats (15 seconds).
    public var heartbeat = LiveEvents.defaultHeartbeat
    /// Whether to add the load benchmark's baseline routes under `/v1/bench`.
    public var baselines = false
    /// The logger.
    public var logger = Logger(label: "readingprefs-server")

    /// A configuration with the defaults: `127.0.0.1:8080`, 1 MiB bodies, no other origin.
    ///
    /// - Parameter database: The database.
    public init(database: ReadingServer.DatabaseChoice) { self.database = database }
}
