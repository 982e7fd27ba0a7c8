import Foundation
import Hummingbird
import NIOCore
import ReadingPreferences
import ReadingPreferencesSQL

/// What one open stream writes (Specs/Server.md §9.1), in the Server-Sent Events format:
///
/// ```text
/// event: changed
/// id: c42
/// data: {"cursor":"c42","configurables":["epub"],"scopes":["epub/shared"]}
///
/// ```
///
/// It starts with `retry:` (how long a client waits before it reconnects) and a comment, then,
/// when it resumes from a `Last-Event-ID` and the cursor moved since, one event. Afterwards it
/// writes an event each time its subscriber is told of a change (several changes told before it
/// writes make one event, with every scope they touched), an event whatever changed when poked,
/// and a comment at each heartbeat. It ends when its subscriber is closed.
struct EventStream {
    let live: LiveEvents
    let subscriber: EventSubscriber

    /// How long a client waits before it reconnects, in milliseconds (`retry:`).
    static let retry = 2000

    func run(resuming resume: String?, writer: inout any ResponseBodyWriter) async throws {
        try await writer.write(ByteBuffer(string: "retry: \(Self.retry)\n: open\n\n"))
        // Read after subscribing: a change committed from here on is announced to the subscriber.
        var last = try await live.replica.cursor(of: subscriber.userID)
        if let resume, resume != last {
            try await writer.write(try await event(from: resume, to: last))
        }
        for await _ in subscriber.wakeups {
            let pending = subscriber.take()
            if pending.poke {
                let now = (try? await live.replica.cursor(of: subscriber.userID)) ?? last
                try await writer.write(try await event(from: last, to: now))
                last = now
            } else if let sequence = pending.sequence, sequence > SQLSyncLog.sequence(of: last) ?? 0 {
                let now = SQLSyncLog.cursor(at: sequence)
                try await writer.write(try await event(from: last, to: now))
                last = now
            } else if pending.heartbeat {
                try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
            }
        }
    }

    /// The event of a move of the cursor, naming the scopes changed between the two (none when
    /// they cannot be read: the event is a poke either way).
    private func event(from old: String, to new: String) async throws -> ByteBuffer {
        let scopes = (try? await live.replica.scopes(of: subscriber.userID, after: old, through: new)) ?? []
        var configurables: [String] = []
        for scope in scopes where !configurables.contains(scope.configurable) {
            configurables.append(scope.configurable)
        }
        let data: JSONValue = .object([
            "cursor": .string(new), "configurables": .array(configurables.map { .string($0) }),
            "scopes": .array(scopes.map { .string($0.description) }),
        ])
        return ByteBuffer(string: "event: changed\nid: \(new)\ndata: \(data.jsonString())\n\n")
    }
}
