import Foundation
import Logging
import ServiceLifecycle

/// The instance's event streams and what tells them (Specs/Server.md §9): a service of the
/// application, beside the HTTP server.
///
/// - Each open stream subscribes (``subscribe(userID:deviceID:slot:)``) and is told, through its
///   ``EventSubscriber``, of every notice about its user (``receive(_:)``): from the PostgreSQL
///   listener (``PostgresListener``), or from the SQLite client once a transaction commits.
/// - When the listener comes back after losing its connection, every stream is poked once
///   (``resynchronize()``): a notice sent meanwhile was lost, so each reads its cursor again.
/// - Every heartbeat (15 seconds) each stream writes a comment, this instance renews its
///   streams' leases, notes that their devices are there, and ends the streams of devices
///   revoked meanwhile (should a revocation's notice have been lost).
/// - At graceful shutdown every stream ends (each also ends itself then), and the instance
///   gives its leases back.
final class EventPublisher: Service, @unchecked Sendable {
    let streams: EventStreams
    let devices: Devices
    /// The time between heartbeats.
    let heartbeat: Duration
    let logger: Logger
    private let lock = NSLock()
    private var byUser: [String: [UUID: EventSubscriber]] = [:]
    private var count = 0
    private var countHook: (@Sendable (Int) -> Void)?

    /// Told, for tests, how many streams are open each time one opens or ends.
    var onCount: (@Sendable (Int) -> Void)? {
        get { lock.withLock { countHook } }
        set { lock.withLock { countHook = newValue } }
    }

    init(streams: EventStreams, devices: Devices, heartbeat: Duration, logger: Logger) {
        self.streams = streams
        self.devices = devices
        self.heartbeat = heartbeat
        self.logger = logger
    }

    /// How many streams are open on this instance.
    var openStreams: Int { lock.withLock { count } }

    /// How long a stream's lease lasts unless renewed.
    var leaseLength: Int64 { EventStreams.leaseLength(heartbeat: heartbeat) }

    /// A new stream's mailbox, told from now on of its user's notices.
    func subscribe(userID: String, deviceID: String?, slot: String) -> EventSubscriber {
        let subscriber = EventSubscriber(userID: userID, deviceID: deviceID, slot: slot)
        let (now, hook) = lock.withLock { () -> (Int, (@Sendable (Int) -> Void)?) in
            byUser[userID, default: [:]][subscriber.id] = subscriber
            count += 1
            return (count, countHook)
        }
        hook?(now)
        return subscriber
    }

    /// Forgets a stream that ended.
    func unsubscribe(_ subscriber: EventSubscriber) {
        let (now, hook) = lock.withLock { () -> (Int?, (@Sendable (Int) -> Void)?) in
            guard byUser[subscriber.userID]?.removeValue(forKey: subscriber.id) != nil else {
                return (nil, nil)
            }
            count -= 1
            if byUser[subscriber.userID]?.isEmpty == true { byUser[subscriber.userID] = nil }
            return (count, countHook)
        }
        subscriber.close()
        if let now { hook?(now) }
    }

    /// Tells the streams what the database announced.
    func receive(_ notices: [LiveNotice]) {
        for notice in notices {
            switch notice {
            case .advanced(let userID, let sequence):
                for subscriber in subscribers(of: userID) { subscriber.announce(sequence) }
            case .everyone:
                for subscriber in everySubscriber() { subscriber.poke() }
            case .revoked(let deviceID):
                for subscriber in everySubscriber() where subscriber.deviceID == deviceID {
                    subscriber.close()
                }
            }
        }
    }

    /// Every stream reads its cursor again and sends an event (the listener is back), and the
    /// streams of devices revoked meanwhile end.
    func resynchronize() async {
        for subscriber in everySubscriber() { subscriber.poke() }
        await endRevokedStreams()
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: self.heartbeat)
                await self.beat()
            }
        }
        for subscriber in everySubscriber() { subscriber.close() }
        do { try await streams.closeAll() } catch {
            logger.debug("the streams' leases were not given back: \(error)")
        }
    }

    /// A heartbeat: a comment on every stream, the leases renewed, the devices seen, the
    /// revoked devices' streams ended.
    private func beat() async {
        let all = everySubscriber()
        for subscriber in all { subscriber.heartbeat() }
        guard !all.isEmpty else { return }
        do {
            try await streams.renew(all.map(\.slot), lease: leaseLength)
            try await devices.noteSeen(Array(Set(all.compactMap(\.deviceID))))
        } catch {
            logger.warning("the event streams' leases were not renewed: \(error)")
        }
        await endRevokedStreams()
    }

    /// Ends the streams whose device no longer exists.
    private func endRevokedStreams() async {
        let all = everySubscriber()
        let held = Set(all.compactMap(\.deviceID))
        guard !held.isEmpty else { return }
        do {
            let existing = try await devices.existing(held)
            for subscriber in all {
                if let device = subscriber.deviceID, !existing.contains(device) { subscriber.close() }
            }
        } catch {
            logger.debug("the streams' devices were not checked: \(error)")
        }
    }

    private func subscribers(of userID: String) -> [EventSubscriber] {
        lock.withLock { byUser[userID].map { Array($0.values) } ?? [] }
    }

    private func everySubscriber() -> [EventSubscriber] {
        lock.withLock { byUser.values.flatMap(\.values) }
    }
}
