// readingprefs-server: the reading back end (SPEC 14).
//
//   readingprefs-server [serve] [--port N] [--host H] [--database-url postgres://...] [--data-dir DIR]
//                       [--write-group-limit N]
//   readingprefs-server add-user NAME [--database-url ...] [--data-dir DIR]
//
// With no database address, the server keeps an embedded SQLite database in DIR (default
// ./readingprefs-data) and prints where.
import Foundation
import Hummingbird
import ReadingPreferencesServer

struct Options {
    var command = "serve"
    var positionals: [String] = []
    var port = 8080
    var host = "127.0.0.1"
    var databaseURL: String?
    var dataDirectory = "readingprefs-data"
    var baselines = false
    var writeGroupLimit = ReadingServer.defaultWriteGroupLimit
}

/// Writes a line to standard output at once (a pipe would otherwise hold it).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("readingprefs-server: \(message)\n".utf8))
    exit(status)
}

let usage = """
    Usage: readingprefs-server [serve] [--port N] [--host ADDRESS] [--database-url postgres://USER:PASSWORD@HOST:PORT/DB] [--data-dir DIR]
                               [--write-group-limit N]
           readingprefs-server add-user NAME [--database-url URL] [--data-dir DIR]

    serve (the default) answers the routes of SPEC 14 on HOST:PORT (127.0.0.1:8080). Without
    --database-url it keeps an embedded SQLite database in DIR (./readingprefs-data).
    add-user makes an account and prints its id and bearer token (shown once).
    --write-group-limit N: at most N of a user's document writes waiting at once share one
    transaction (default \(ReadingServer.defaultWriteGroupLimit); 1: each in its own).
    --benchmark-baselines adds the load benchmark's baseline routes under /v1/bench.
    """

var options = Options()
var arguments = Array(CommandLine.arguments.dropFirst())
if let first = arguments.first, !first.hasPrefix("-") {
    options.command = first
    arguments.removeFirst()
}
var index = 0
while index < arguments.count {
    let argument = arguments[index]
    func value() -> String {
        index += 1
        guard index < arguments.count else { fail("\(argument) needs a value\n\(usage)") }
        return arguments[index]
    }
    switch argument {
    case "--port":
        let text = value()
        guard let port = Int(text), (0...65535).contains(port) else {
            fail("--port \(text) is not a port (0 to 65535)")
        }
        options.port = port
    case "--host": options.host = value()
    case "--database-url": options.databaseURL = value()
    case "--data-dir": options.dataDirectory = value()
    case "--benchmark-baselines": options.baselines = true
    case "--write-group-limit":
        let text = value()
        guard let limit = Int(text), (1...1000).contains(limit) else {
            fail("--write-group-limit \(text) is not a number from 1 to 1000")
        }
        options.writeGroupLimit = limit
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        if argument.hasPrefix("-") { fail("unknown option \(argument)\n\(usage)") }
        options.positionals.append(argument)
    }
    index += 1
}

let choice: ReadingServer.DatabaseChoice
if let url = options.databaseURL {
    choice = .postgres(url: url)
} else {
    let folder = URL(fileURLWithPath: options.dataDirectory, isDirectory: true)
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
        fail("cannot create \(folder.path): \(error.localizedDescription)", status: 1)
    }
    choice = .sqlite(path: folder.appendingPathComponent("readingprefs.sqlite").path)
}

let server: ReadingServer
do {
    server = try await ReadingServer.open(choice, writeGroupLimit: options.writeGroupLimit)
} catch {
    fail("cannot open the database: \(error)", status: 1)
}

switch options.command {
case "serve":
    guard options.positionals.isEmpty else { fail("serve takes no arguments\n\(usage)") }
    if case .sqlite(let path) = choice { say("readingprefs-server: embedded SQLite database at \(path)") }
    let host = options.host
    let requested = options.port
    let app = server.application(host: host, port: requested, baselines: options.baselines) { channel in
        let port = channel.localAddress?.port ?? requested
        say("readingprefs-server: listening on http://\(host):\(port)")
    }
    do {
        try await app.runService()
    } catch {
        fail("\(error)", status: 1)
    }
    await server.close()
case "add-user":
    guard options.positionals.count == 1, let name = options.positionals.first else {
        fail("add-user takes one NAME\n\(usage)")
    }
    do {
        let (userID, token) = try await server.addUser(named: name)
        say("user \(userID)")
        say("token \(token)")
    } catch {
        fail("cannot add the user: \(error)", status: 1)
    }
    await server.close()
default:
    fail("unknown command \(options.command)\n\(usage)")
}
