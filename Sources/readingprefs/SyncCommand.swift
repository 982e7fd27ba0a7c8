import Foundation
import ReadingPreferences
import ReadingPreferencesStore

/// `readingprefs sync --root DIR (--mirror DIR | --server URL --token T [--register NAME]
/// [--watch]) [--replica ID]`: one sync of a store's folder with a mirror folder (Specs/Sync.md)
/// or a reading back end (Specs/Server.md §6), through the store, so its pending edits are
/// written first and every configurable under the root syncs; with `--watch`, a sync at each
/// change the server announces (Specs/Server.md §9.4) until Ctrl-C.
enum SyncCommand {
    static func run(_ tokens: [String]) async throws(ToolError) -> Int32 {
        let arguments = try Arguments.parse(
            tokens, command: "sync",
            spec: OptionSpec(
                valued: ["root", "mirror", "server", "token", "replica", "register", "class", "first"],
                flags: ["new-replica", "json", "watch"],
                placeholders: [
                    "root": "DIR", "mirror": "DIR", "server": "URL", "token": "TOKEN", "replica": "ID",
                    "register": "NAME", "class": "CLASS", "first": "keep-mine|take-theirs|merge",
                ]))
        if arguments.wantsHelp {
            Console.out(Usage.text(for: .sync))
            return 0
        }
        try arguments.requirePositionals(0, 0, command: "sync", usage: "no arguments")
        guard let root = arguments.values["root"] else {
            throw .usage("sync needs --root DIR (the folder the store keeps its files in)")
        }
        var transport = try transport(arguments)
        var options = SyncOptions()
        if let text = arguments.values["replica"] {
            guard let replica = ReplicaID(text) else {
                throw .usage(
                    "--replica \(text.isEmpty ? "''" : text) is not a replica id: use 1 to 64 lower-case letters, "
                        + "digits and hyphens, starting with a letter or digit (for example: phone, tablet-2)"
                )
            }
            options.replica = replica
        }
        options.newReplica = arguments.flags.contains("new-replica")
        if let text = arguments.values["first"] {
            guard let choice = FirstJoinChoice(argument: text) else {
                throw .usage(
                    "--first \(text.isEmpty ? "''" : text) is not a choice: use keep-mine, take-theirs or merge"
                )
            }
            options.firstJoin = choice
        }
        let json = arguments.flags.contains("json")
        var device: ServerTransport.RegisteredDevice?
        if let name = arguments.values["register"] {
            guard let server = transport as? ServerTransport else {
                throw .usage("--register NAME goes with --server URL --token TOKEN (a reading back end)")
            }
            device = try await register(name, arguments: arguments, replica: options.replica, with: server)
            transport = ServerTransport(url: server.url, token: device?.token ?? server.token)
        } else if arguments.values["class"] != nil {
            throw .usage("--class CLASS goes with --register NAME")
        }
        let store = PreferencesStore<EPUB>(storage: FileStorage(root: URL(fileURLWithPath: root)))
        if arguments.flags.contains("watch") {
            guard let server = transport as? ServerTransport else {
                throw .usage(
                    "--watch goes with --server URL --token TOKEN (a reading back end announces changes)")
            }
            return try await SyncWatch.run(store, with: server, options: options, json: json)
        }
        let report: SyncReport
        do {
            report = try await store.sync(with: transport, options: options)
        } catch let error as FirstJoinError {
            FirstJoinMessage.print(error)
            if json {
                Console.out(
                    FirstJoinMessage.json(error).jsonString(options: JSONEncodingOptions(prettyPrinted: true))
                )
            }
            return 1
        } catch let error as SyncError {
            if case .usage(let message) = error { throw .usage(message) }
            throw .failure("sync failed: \(error)")
        } catch {
            throw .failure("sync failed: \(error)")
        }
        for problem in await store.problems { Console.error("readingprefs: warning: \(problem.message)") }
        for problem in report.problems { Console.error("readingprefs: warning: \(problem)") }
        if json {
            var object = Self.json(report)
            if let device, case .object(var members) = object {
                members["device"] = ["id": .string(device.id), "token": .string(device.token)]
                object = .object(members)
            }
            Console.out(object.jsonString(options: JSONEncodingOptions(prettyPrinted: true)))
            return 0
        }
        printReport(report)
        return 0
    }

    /// What a sync sent, then what it received, each per key, and the counts.
    static func printReport(_ report: SyncReport) {
        if let outcome = report.firstJoin { FirstJoinMessage.print(outcome) }
        for document in report.removedDocuments { Console.out(document.description) }
        for change in report.sent { Console.out("sent " + line(change)) }
        for change in report.changes { Console.out(line(change)) }
        if !report.sent.isEmpty { Console.out("\(report.sent.count) key(s) sent") }
        Console.out("\(report.changes.count) key(s) changed (replica \(report.replica?.rawValue ?? "-"))")
    }

    /// `--register NAME [--class CLASS]`: a device and its own token, made with the account's
    /// token and printed (the token is shown once); the sync then uses the device's token.
    private static func register(
        _ name: String, arguments: Arguments, replica: ReplicaID?, with server: ServerTransport
    ) async throws(ToolError) -> ServerTransport.RegisteredDevice {
        let deviceClass = arguments.values["class"]
        if let deviceClass, !ReplicaID.isValid(deviceClass) {
            throw .usage(
                "--class \(deviceClass.isEmpty ? "''" : deviceClass) is not a device class: use 1 to 64 lower-case "
                    + "letters, digits and hyphens (phone, tablet, eink, desktop, web)")
        }
        let device: ServerTransport.RegisteredDevice
        do {
            device = try await server.registerDevice(named: name, deviceClass: deviceClass, replica: replica)
        } catch {
            throw .failure("cannot register the device: \(error)")
        }
        // Before anything else: the token is shown once.
        Console.error(
            "readingprefs: registered device \(device.id) (\(name)); its token, shown once, follows")
        if !arguments.flags.contains("json") {
            Console.out("device \(device.id)")
            Console.out("token \(device.token)")
        }
        return device
    }

    /// `scope key old → new`, with `(none)` and `(removed)`.
    static func line(_ change: SyncChange) -> String {
        "\(change.scope?.description ?? change.configurable) \(change.key) "
            + "\(change.oldValue?.jsonString() ?? "(none)") → \(change.newValue?.jsonString() ?? "(removed)")"
    }

    /// `--json`: `{"replica", "sent": [...], "received": [...], "removedDocuments": [...],
    /// "problems": [...]}`, each change `{"scope", "key", "old"?, "new"?}` (absent: none).
    static func json(_ report: SyncReport) -> JSONValue {
        func change(_ change: SyncChange) -> JSONValue {
            var object: JSONObject = [
                "scope": .string(change.scope?.description ?? change.configurable),
                "key": .string(change.key),
            ]
            if let old = change.oldValue { object["old"] = old }
            if let new = change.newValue { object["new"] = new }
            return .object(object)
        }
        return [
            "replica": report.replica.map { .string($0.rawValue) } ?? .null,
            "sent": .array(report.sent.map(change)),
            "received": .array(report.changes.map(change)),
            "removedDocuments": .array(
                report.removedDocuments.map {
                    [
                        "scope": .string($0.scope.description), "keys": .number(JSONNumber($0.keys)),
                        "cause": .string($0.cause.rawValue),
                    ]
                }),
            "problems": .array(report.problems.map { .string($0.description) }),
            "firstJoin": report.firstJoin.map(FirstJoinMessage.json) ?? .null,
        ]
    }

    /// The mirror folder, or the server with its token: exactly one of them.
    private static func transport(_ arguments: Arguments) throws(ToolError) -> any ReplicaTransport {
        let mirror = arguments.values["mirror"]
        let server = arguments.values["server"]
        switch (mirror, server) {
        case (let mirror?, nil):
            guard arguments.values["token"] == nil else {
                throw .usage("--token goes with --server URL, not with --mirror")
            }
            return MirrorFolder(url: URL(fileURLWithPath: mirror))
        case (nil, let server?):
            guard let url = URL(string: server), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else {
                throw .usage(
                    "--server \(server) is not a server address: use http://HOST:PORT or https://HOST")
            }
            guard let token = arguments.values["token"], !token.isEmpty else {
                throw .usage(
                    "sync --server needs --token TOKEN (the account's token, from readingprefs-server add-user)"
                )
            }
            return ServerTransport(url: url, token: token)
        case (nil, nil):
            throw .usage(
                "sync needs --mirror DIR (a folder the devices share, outside the store's folder) "
                    + "or --server URL --token TOKEN (a reading back end)")
        case (.some, .some):
            throw .usage("sync takes --mirror DIR or --server URL, not both")
        }
    }
}
