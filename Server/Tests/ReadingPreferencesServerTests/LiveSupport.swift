import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ReadingPreferences
import ReadingPreferencesStore
import ServiceLifecycle
import Testing

@testable import ReadingPreferencesServer

/// How long a live test waits for what it expects before it fails: long enough for a loaded
/// machine, never a pause that stands in for the thing awaited.
let liveLimit = Duration.seconds(10)

/// A server application running in the test, on a free port of the loopback, until ``stop()``
/// (a graceful shutdown, as SIGTERM gives) or the end of ``LiveServer/with(_:_:_:)``.
struct LiveServer: Sendable {
    let server: ReadingServer
    let port: Int
    let group: ServiceGroup
    let running: Task<Void, any Error>

    var base: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// Runs `body` with a server built as `readingprefs-server serve` builds it, then stops it.
    static func with<T: Sendable>(
        _ database: TestDatabase, _ change: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (LiveServer) async throws -> T
    ) async throws -> T {
        let live = try await start(database, change)
        do {
            let value = try await body(live)
            try await live.stop()
            return value
        } catch {
            try? await live.stop()
            throw error
        }
    }

    /// Starts a server; ``stop()`` ends it.
    static func start(
        _ database: TestDatabase, _ change: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> LiveServer {
        var configuration = try database.configuration()
        configuration.logger.logLevel = .error
        change(&configuration)
        let (ports, port) = AsyncStream.makeStream(of: Int.self)
        let (application, server) = try await buildApplication(configuration) { channel in
            port.yield(channel.localAddress?.port ?? 0)
            port.finish()
        }
        let group = ServiceGroup(
            configuration: .init(
                services: [application], gracefulShutdownSignals: [], logger: configuration.logger))
        let running = Task { try await group.run() }
        var found: Int?
        for await value in ports {
            found = value
            break
        }
        guard let found, found > 0 else {
            running.cancel()
            throw LiveTestFailure("the server did not start")
        }
        return LiveServer(server: server, port: found, group: group, running: running)
    }

    /// Shuts the server down gracefully and waits for it to end.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// A request answered whole: its status, headers and body.
    func request(
        _ method: String, _ path: String, token: String? = nil, headers: [String: String] = [:],
        body: String? = nil
    ) async throws -> (status: Int, headers: [String: String], body: String) {
        let connection = try await RawConnection.open(port: port)
        defer { connection.close() }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let bytes = Array((body ?? "").utf8)
        if body != nil, headers["Content-Type"] == nil { head += "Content-Type: application/json\r\n" }
        head += "Content-Length: \(bytes.count)\r\n\r\n"
        try await connection.send(head + (body ?? ""))
        try await connection.waitForClose(within: liveLimit)
        return try HTTPText.parse(connection.received)
    }
}

extension LiveServer {
    /// Opens an event stream and waits until the server has opened it.
    func stream(token: String? = nil, ticket: String? = nil, lastEventID: String? = nil) async throws
        -> RawConnection
    {
        let stream = try await RawConnection.open(port: port)
        try await stream.send(SSE.request(token: token, ticket: ticket, lastEventID: lastEventID))
        guard try await stream.wait(within: liveLimit, until: { $0.contains(": open") }) else {
            stream.close()
            throw LiveTestFailure("the stream did not open: \(stream.received)")
        }
        return stream
    }

    /// Registers a device with the account's token: its id and token.
    func device(_ name: String, account: String) async throws -> (id: String, token: String) {
        let made = try await request("POST", "/v1/devices", token: account, body: #"{"name":"\#(name)"}"#)
        let answer = try JSONValue(json: made.body).objectValue
        guard made.status == 201, let id = answer?["id"]?.stringValue,
            let token = answer?["token"]?.stringValue
        else { throw LiveTestFailure("no device: \(made)") }
        return (id, token)
    }
}

/// A failure of the test's own harness.
struct LiveTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A response read from raw text (status line, headers, body; chunked bodies joined).
enum HTTPText {
    static func parse(_ text: String) throws -> (status: Int, headers: [String: String], body: String) {
        guard let split = text.range(of: "\r\n\r\n") else { throw LiveTestFailure("no head in: \(text)") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw LiveTestFailure("no status in: \(text)")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = String(text[split.upperBound...])
        if headers["transfer-encoding"] == "chunked" { body = dechunked(body) }
        return (status, headers, body)
    }

    /// The data of a chunked body read so far.
    static func dechunked(_ text: String) -> String {
        var bytes = Array(text.utf8)[...]
        var out: [UInt8] = []
        while let end = bytes.firstIndex(of: 0x0D), end + 1 < bytes.endIndex {
            let sizeText = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16), size > 0 else {
                break
            }
            let start = end + 2
            guard start + size <= bytes.endIndex else {
                out.append(contentsOf: bytes[start...])
                break
            }
            out.append(contentsOf: bytes[start..<(start + size)])
            bytes = bytes[min(start + size + 2, bytes.endIndex)...]
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A raw TCP connection to a test server: for streams read as they come, and for requests sent
/// half. What arrives is kept; a test waits for what it expects, with a time limit.
final class RawConnection: @unchecked Sendable {
    private let channel: any Channel
    private let inbox: Inbox

    private init(channel: any Channel, inbox: Inbox) {
        self.channel = channel
        self.inbox = inbox
    }

    static func open(port: Int) async throws -> RawConnection {
        let inbox = Inbox()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(inbox: inbox))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, inbox: inbox)
    }

    /// Everything received so far.
    var received: String { inbox.text }
    /// Whether the server closed the connection.
    var isClosed: Bool { inbox.closed }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    func close() { channel.close(promise: nil) }

    /// Waits until what was received satisfies `condition` (true), or the connection closes
    /// or the time runs out (false, with what was received).
    @discardableResult
    func wait(within limit: Duration, until condition: @Sendable (String) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while true {
            let (text, closed, generation) = inbox.snapshot
            if condition(text) { return true }
            if closed || ContinuousClock.now >= deadline { return false }
            await inbox.change(after: generation, deadline: deadline)
        }
    }

    /// Waits for the server to close the connection; fails the test when it does not in time.
    func waitForClose(within limit: Duration) async throws {
        let deadline = ContinuousClock.now + limit
        while true {
            let (_, closed, generation) = inbox.snapshot
            if closed { return }
            if ContinuousClock.now >= deadline {
                throw LiveTestFailure("the connection stayed open: \(received)")
            }
            await inbox.change(after: generation, deadline: deadline)
        }
    }

    /// Waits for the `count`-th `changed` event and answers the events read.
    func events(_ count: Int, within limit: Duration = liveLimit) async throws -> [(id: String, data: String)]
    {
        _ = try await wait(within: limit) { SSE.events(in: $0).count >= count }
        let events = SSE.events(in: received)
        guard events.count >= count else {
            throw LiveTestFailure("\(events.count) event(s) of \(count) came: \(received)")
        }
        return events
    }

    /// What the connection received, kept as it comes, and who waits for more.
    final class Inbox: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private var isClosed = false
        private var generation = 0
        private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
        var closed: Bool { lock.withLock { isClosed } }
        var snapshot: (String, Bool, Int) {
            lock.withLock { (String(decoding: bytes, as: UTF8.self), isClosed, generation) }
        }

        func append(_ buffer: ByteBuffer) {
            let new = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                bytes.append(contentsOf: buffer.readableBytesView)
                generation += 1
                defer { waiters.removeAll() }
                return Array(waiters.values)
            }
            for waiter in new { waiter.resume() }
        }

        func markClosed() {
            let new = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                isClosed = true
                generation += 1
                defer { waiters.removeAll() }
                return Array(waiters.values)
            }
            for waiter in new { waiter.resume() }
        }

        /// Returns once something arrives after `generation`, or at the deadline.
        func change(after generation: Int, deadline: ContinuousClock.Instant) async {
            let id = UUID()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await withCheckedContinuation { continuation in
                        let now = self.lock.withLock { () -> Bool in
                            if self.generation != generation { return true }
                            self.waiters[id] = continuation
                            return false
                        }
                        if now { continuation.resume() }
                    }
                }
                group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
                await group.next()
                group.cancelAll()
                // The timer lost or won: a waiter still kept is resumed so its task ends.
                let left = self.lock.withLock { self.waiters.removeValue(forKey: id) }
                left?.resume()
                await group.waitForAll()
            }
        }
    }

    private final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let inbox: Inbox
        init(inbox: Inbox) { self.inbox = inbox }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            inbox.append(unwrapInboundIn(data))
        }

        func channelInactive(context: ChannelHandlerContext) {
            inbox.markClosed()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

/// Server-Sent Events read from a stream's raw text (head included, chunked or not).
enum SSE {
    /// The `changed` events in the text so far: their ids and data.
    static func events(in text: String) -> [(id: String, data: String)] {
        let body: String
        if let split = text.range(of: "\r\n\r\n") {
            let head = text[..<split.lowerBound].lowercased()
            body =
                head.contains("transfer-encoding: chunked")
                ? HTTPText.dechunked(String(text[split.upperBound...])) : String(text[split.upperBound...])
        } else {
            return []
        }
        var events: [(String, String)] = []
        // The last piece is not whole yet.
        for block in body.components(separatedBy: "\n\n").dropLast() {
            let lines = block.split(separator: "\n")
            guard lines.contains("event: changed") else { continue }
            let id = lines.first { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) } ?? ""
            let data = lines.first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) } ?? ""
            events.append((id, data))
        }
        return events
    }

    /// How many heartbeat comments the text holds.
    static func heartbeats(in text: String) -> Int {
        text.components(separatedBy: ": heartbeat\n").count - 1
    }

    /// The head of a stream request.
    static func request(token: String? = nil, ticket: String? = nil, lastEventID: String? = nil) -> String {
        var head = "GET /v1/events\(ticket.map { "?ticket=\($0)" } ?? "") HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        head += "Accept: text/event-stream\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let lastEventID { head += "Last-Event-ID: \(lastEventID)\r\n" }
        return head + "\r\n"
    }
}

/// The first element of a stream, or `nil` when none comes within the limit.
func first<T: Sendable>(of stream: AsyncStream<T>, within limit: Duration = liveLimit) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask {
            for await element in stream { return element }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let found = await group.next() ?? nil
        group.cancelAll()
        return found
    }
}
