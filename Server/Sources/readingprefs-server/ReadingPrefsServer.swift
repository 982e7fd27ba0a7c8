// readingprefs-server: the reading back end (Specs/README.md, Server/README.md).
//
//   readingprefs-server [serve] [--port N] [--host H] [--database-url postgres://...] [--data-dir DIR]
//                       [--write-group-limit N] [--max-body-bytes N] [--cors-origin ORIGIN ...]
//                       [--frame-ancestors ORIGIN ...] [--fonts FAMILY ...] [--database-connections N]
//                       [--request-head-timeout S] [--idle-timeout S] [--streams-per-user N]
//   readingprefs-server add-user NAME [--allow-taken-name] [--database-url ...] [--data-dir DIR]
//
// With no database address, the server keeps an embedded SQLite database in DIR (default
// ./readingprefs-data) and prints where.
import ArgumentParser
import Foundation
import Hummingbird
import ReadingPreferencesServer

/// Writes a line to standard output at once (a pipe would otherwise hold it).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Where the data lives: PostgreSQL, or an embedded SQLite file.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "A PostgreSQL database: postgres://USER:PASSWORD@HOST:PORT/DB (sslmode= in the query).")
    var databaseURL: String?

    @Option(help: "Without --database-url: the folder of the embedded SQLite database.")
    var dataDir = "readingprefs-data"

    /// The database these options name; the SQLite folder is created when missing.
    func choice() throws -> ReadingServer.DatabaseChoice {
        if let databaseURL { return .postgres(url: databaseURL) }
        let folder = URL(fileURLWithPath: dataDir, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create \(folder.path): \(error.localizedDescription)")
        }
        return .sqlite(path: folder.appendingPathComponent("readingprefs.sqlite").path)
    }
}

@main
struct ReadingPrefsServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readingprefs-server",
        abstract: "The reading back end: preferences per user, settings and CSS per book, sync for devices.",
        subcommands: [Serve.self, AddUser.self], defaultSubcommand: Serve.self)
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answers the HTTP contract (Server/openapi.json) on HOST:PORT.")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The port (0: any free port).")
    var port = 8080

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(
        help:
            "At most N of a user's document writes waiting at once share one transaction (1: each in its own)."
    )
    var writeGroupLimit = ReadingServer.defaultWriteGroupLimit

    @Option(help: "The largest request body accepted, in bytes (a sync push may be larger: 64 MiB).")
    var maxBodyBytes = ReadingServer.defaultMaxBodyBytes

    @Option(help: "The most connections to PostgreSQL (default: twice the processors, at least 4).")
    var databaseConnections = ReadingServer.defaultDatabaseConnections

    @Option(help: "The most bytes of settings and CSS answers kept between requests (0: none).")
    var answerCacheBytes = ReadingServer.defaultAnswerCacheBytes

    @Option(help: "A web origin allowed to call the API from a browser (repeatable; none by default).")
    var corsOrigin: [String] = []

    @Option(help: "An origin allowed to embed the settings page in a frame (repeatable; none by default).")
    var frameAncestors: [String] = []

    @Option(
        help: ArgumentHelp(
            "Fonts the app offers readers, in the settings page's font list (repeatable, or separated by commas).",
            valueName: "FAMILY"))
    var fonts: [String] = []

    @Option(
        help: ArgumentHelp(
            "Seconds a request's head may take from its first byte (a new connection's, from connecting).",
            discussion: "A connection that has not sent a whole head by then is answered 408 and closed."))
    var requestHeadTimeout: Double = 10

    @Option(help: "Seconds a kept-alive connection may wait for its next request before it is closed.")
    var idleTimeout: Double = 60

    @Option(help: "The most event streams (GET /v1/events) one account holds at once, on every instance.")
    var streamsPerUser = ServerConfiguration(database: .sqlite(path: "")).streamsPerUser

    @Option(
        help: ArgumentHelp(
            "Where the instance's LISTEN connection goes (default: --database-url).",
            discussion:
                "Give PostgreSQL itself (or a pooler in session mode) when --database-url is a pooler "
                + "in transaction mode, which cannot carry a listener."))
    var listenerDatabaseURL: String?

    @Flag(help: "Add the load benchmark's baseline routes under /v1/bench.")
    var benchmarkBaselines = false

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port \(port) is not a port (0 to 65535)")
        }
        guard (1...1000).contains(writeGroupLimit) else {
            throw ValidationError("--write-group-limit \(writeGroupLimit) is not a number from 1 to 1000")
        }
        guard (1...1000).contains(databaseConnections) else {
            throw ValidationError(
                "--database-connections \(databaseConnections) is not a number from 1 to 1000")
        }
        guard (0...(1 << 40)).contains(answerCacheBytes) else {
            throw ValidationError("--answer-cache-bytes \(answerCacheBytes) is not a number from 0 to 2^40")
        }
        guard (0.1...3600).contains(requestHeadTimeout) else {
            throw ValidationError(
                "--request-head-timeout \(requestHeadTimeout) is not a number of seconds from 0.1 to 3600")
        }
        guard (0.1...86400).contains(idleTimeout) else {
            throw ValidationError(
                "--idle-timeout \(idleTimeout) is not a number of seconds from 0.1 to 86400")
        }
        if listenerDatabaseURL != nil, database.databaseURL == nil {
            throw ValidationError(
                "--listener-database-url goes with --database-url (SQLite needs no listener)")
        }
        guard (1...10_000).contains(streamsPerUser) else {
            throw ValidationError("--streams-per-user \(streamsPerUser) is not a number from 1 to 10000")
        }
        guard (1024...(64 << 20)).contains(maxBodyBytes) else {
            throw ValidationError("--max-body-bytes \(maxBodyBytes) is not a number from 1024 to 67108864")
        }
        for origin in frameAncestors where origin != "'self'" {
            guard let url = URL(string: origin), let scheme = url.scheme, ["http", "https"].contains(scheme),
                url.host != nil, url.path.isEmpty, url.query == nil, PageController.isSafeSource(origin)
            else {
                throw ValidationError(
                    "--frame-ancestors \(origin) is not an origin such as https://reader.example, or 'self'")
            }
        }
        for font in Self.families(fonts) where font.utf8.contains(0) {
            throw ValidationError("--fonts \(font.debugDescription) is not a font family name")
        }
        for origin in corsOrigin {
            guard let url = URL(string: origin), let scheme = url.scheme, ["http", "https"].contains(scheme),
                url.host != nil, url.path.isEmpty, url.query == nil
            else {
                throw ValidationError(
                    "--cors-origin \(origin) is not an origin such as https://reader.example")
            }
        }
    }

    /// The families of `--fonts`, each given alone or several separated by commas, trimmed, in
    /// order, each once.
    static func families(_ options: [String]) -> [String] {
        var families: [String] = []
        for option in options {
            for name in option.split(separator: ",") {
                let family = name.trimmingCharacters(in: .whitespaces)
                if !family.isEmpty, !families.contains(family) { families.append(family) }
            }
        }
        return families
    }

    func run() async throws {
        var configuration = ServerConfiguration(database: try database.choice())
        configuration.host = host
        configuration.port = port
        configuration.writeGroupLimit = writeGroupLimit
        configuration.maxBodyBytes = maxBodyBytes
        configuration.answerCacheBytes = answerCacheBytes
        configuration.databaseConnections = databaseConnections
        configuration.corsOrigins = corsOrigin
        configuration.frameAncestors = frameAncestors
        configuration.fonts = Self.families(fonts)
        configuration.baselines = benchmarkBaselines
        configuration.requestHeadTimeout = .milliseconds(Int64(requestHeadTimeout * 1000))
        configuration.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
        configuration.streamsPerUser = streamsPerUser
        configuration.listenerDatabaseURL = listenerDatabaseURL
        say("readingprefs-server: \(configuration.database.description)")
        let host = host
        let requested = port
        let (app, _) = try await buildApplication(configuration) { channel in
            let port = channel.localAddress?.port ?? requested
            say("readingprefs-server: listening on http://\(host):\(port)")
        }
        try await app.runService()
    }
}

struct AddUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-user", abstract: "Makes an account and prints its id and bearer token (shown once)."
    )

    @Argument(help: "A name for people.")
    var name: String

    @Flag(help: "Make the account even when another has this name.")
    var allowTakenName = false

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let server = try await ReadingServer.open(try database.choice())
        do {
            let (userID, token) = try await server.addUser(named: name, allowingTakenName: allowTakenName)
            await server.close()
            say("user \(userID)")
            say("token \(token)")
        } catch {
            await server.close()
            throw CommandFailure("cannot add the user: \(error)")
        }
    }
}

/// A failure the command reports in a line, with exit status 1 (no usage: the command was right).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
