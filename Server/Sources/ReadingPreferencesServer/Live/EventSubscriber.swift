import Foundation

/// One open event stream's mailbox (Specs/Server.md §9.1): what the stream should tell its
/// client next, kept as state rather than as a queue, so a stream whose client reads slowly
/// holds one pending announcement however many changes come (a poke, not the data: the
/// client reads what it needs once told).
///
/// The publisher writes (``announce(_:)``, ``poke()``, ``heartbeat()``, ``close()``); the stream
/// takes what is pending (``take()``) each time it is woken, and ends when closed.
final class EventSubscriber: @unchecked Sendable {
    /// What the stream has to say next.
    struct Pending: Equatable {
        /// The highest sequence announced since the last take.
        var sequence: Int64?
        /// Whether the stream must read its cursor again and send an event whatever it finds
        /// (the instance's listener came back: a notice may have been missed).
        var poke = false
        /// Whether a heartbeat is due.
        var heartbeat = false
    }

    let id = UUID()
    let userID: String
    /// The device whose token opened the stream, if any: revoking it ends the stream.
    let deviceID: String?
    /// The stream's slot among its user's (``EventStreams``), whose lease the publisher renews.
    let slot: String
    /// The wake-ups: one pending at most, since what to say is in ``Pending``.
    let wakeups: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let lock = NSLock()
    private var pending = Pending()

    init(userID: String, deviceID: String?, slot: String) {
        self.userID = userID
        self.deviceID = deviceID
        self.slot = slot
        (wakeups, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The user's cursor reached `sequence`.
    func announce(_ sequence: Int64) {
        lock.withLock { pending.sequence = max(pending.sequence ?? sequence, sequence) }
        continuation.yield()
    }

    /// Read the cursor again and tell the client, whatever it is.
    func poke() {
        lock.withLock { pending.poke = true }
        continuation.yield()
    }

    /// A heartbeat is due.
    func heartbeat() {
        lock.withLock { pending.heartbeat = true }
        continuation.yield()
    }

    /// Ends the stream (shutdown, revocation, the client gone): the wake-ups end.
    func close() { continuation.finish() }

    /// What is pending, which is then cleared.
    func take() -> Pending {
        lock.withLock {
            defer { pending = Pending() }
            return pending
        }
    }
}
