import Foundation
import ReadingPreferences
import Testing

@testable import ReadingPreferencesServer

/// Specs/Server.md §4.10 and §9.5: connections that hold without sending are closed; a user's
/// streams are bounded; streams end when their client goes and at shutdown, leaving nothing.
@Suite("Connection limits and the end of streams")
struct ConnectionLimitTests {
    @Test("a request head sent half is answered 408 and closed after the limit, not before")
    func halfHead() async throws {
        try await LiveServer.with(.sqlite, { $0.requestHeadTimeout = .milliseconds(500) }) { live in
            let connection = try await RawConnection.open(port: live.port)
            defer { connection.close() }
            let started = ContinuousClock.now
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            try await connection.waitForClose(within: liveLimit)
            #expect(ContinuousClock.now - started >= .milliseconds(450))
            #expect(connection.received.hasPrefix("HTTP/1.1 408 "))
        }
    }

    @Test(
        "a connection that sends nothing is closed after the head's limit; one kept alive after the idle limit"
    )
    func idle() async throws {
        try await LiveServer.with(
            .sqlite,
            {
                $0.requestHeadTimeout = .milliseconds(300)
                $0.idleTimeout = .milliseconds(600)
            }
        ) { live in
            let silent = try await RawConnection.open(port: live.port)
            defer { silent.close() }
            try await silent.waitForClose(within: liveLimit)

            let kept = try await RawConnection.open(port: live.port)
            defer { kept.close() }
            try await kept.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try await kept.wait(within: liveLimit) { $0.contains("\"ok\"") })
            let answered = ContinuousClock.now
            try await kept.waitForClose(within: liveLimit)
            // Not closed at once: it waited for a next request (the idle timer started when the
            // answer left, a little before it arrived here; a loaded machine delays both).
            #expect(ContinuousClock.now - answered >= .milliseconds(300))
            #expect(!kept.received.contains("408"))
        }
    }

    @Test("a stream outlives both limits: it stays open by its heartbeat")
    func streamStays() async throws {
        try await LiveServer.with(
            .sqlite,
            {
                $0.requestHeadTimeout = .milliseconds(200)
                $0.idleTimeout = .milliseconds(200)
                $0.heartbeat = .milliseconds(300)
            }
        ) { live in
            let token = try await live.server.addUser(named: "reader").token
            let stream = try await live.stream(token: token)
            defer { stream.close() }
            // Four heartbeats: well past both limits.
            #expect(try await stream.wait(within: liveLimit) { SSE.heartbeats(in: $0) >= 4 })
            #expect(!stream.isClosed)
        }
    }

    @Test(
        "a user holds at most the limit of streams, on every instance together: beyond it 429 with Retry-After",
        arguments: TestDatabase.available)
    func cap(database: TestDatabase) async throws {
        try await LiveServer.with(database, { $0.streamsPerUser = 2 }) { live in
            try await LiveServer.with(database, { $0.streamsPerUser = 2 }) { other in
                let token = try await live.server.addUser(named: "reader").token
                let bob = try await live.server.addUser(named: "bob").token
                let first = try await live.stream(token: token)
                defer { first.close() }
                // SQLite is one instance; on PostgreSQL the second stream goes to the other one.
                let second = try await (database == .postgres ? other : live).stream(token: token)
                defer { second.close() }

                let refused = try await live.request("GET", "/v1/events", token: token)
                #expect(refused.status == 429)
                #expect(refused.headers["retry-after"] == "15")
                #expect(refused.body.contains("tooManyStreams"))
                // Another user is not counted with this one.
                let bobs = try await live.stream(token: bob)
                defer { bobs.close() }

                // A stream that ends gives its slot back (Bob's and one of this user's stay).
                let gone = Counts(live.server.live.publisher)
                let open = live.server.live.publisher.openStreams
                first.close()
                #expect(try await gone.reach(open - 1))
                let third = try await live.stream(token: token)
                #expect(!third.isClosed)
                third.close()
            }
        }
    }

    @Test(
        "a client that goes away frees its stream: no subscriber, no lease left",
        arguments: TestDatabase.available)
    func clientGone(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let token = try await live.server.addUser(named: "reader").token
            let counts = Counts(live.server.live.publisher)
            var streams: [RawConnection] = []
            for _ in 0..<3 {
                streams.append(try await live.stream(token: token))
            }
            #expect(live.server.live.publisher.openStreams == 3)
            for stream in streams { stream.close() }
            #expect(try await counts.reach(0))
            let leases = try await live.server.database.query(
                "SELECT stream_id FROM event_streams WHERE instance_id = ?",
                [live.server.live.streams.instance])
            #expect(leases.isEmpty)
        }
    }

    @Test(
        "a graceful shutdown with open streams ends them and returns promptly, without an error",
        arguments: TestDatabase.available)
    func shutdown(database: TestDatabase) async throws {
        let live = try await LiveServer.start(database)
        let token = try await live.server.addUser(named: "reader").token
        var streams: [RawConnection] = []
        for _ in 0..<4 {
            streams.append(try await live.stream(token: token))
        }
        let started = ContinuousClock.now
        try await live.stop()
        // Promptly: not after a graceful-shutdown timeout (the time itself is the benchmark's, on
        // a machine that runs nothing else).
        #expect(ContinuousClock.now - started < .seconds(10))
        for stream in streams {
            try await stream.waitForClose(within: liveLimit)
            // The stream ended cleanly: its last chunk was written.
            #expect(stream.received.hasSuffix("0\r\n\r\n"))
        }
    }
}

/// The number of streams open on an instance, awaited as it changes.
final class Counts: @unchecked Sendable {
    private let publisher: EventPublisher
    private let counts: AsyncStream<Int>

    init(_ publisher: EventPublisher) {
        self.publisher = publisher
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        counts = stream
        publisher.onCount = { continuation.yield($0) }
    }

    /// Whether the count reaches `value` within the live tests' limit.
    func reach(_ value: Int) async throws -> Bool {
        if publisher.openStreams == value { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await count in self.counts where count == value { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: liveLimit)
                return self.publisher.openStreams == value
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
