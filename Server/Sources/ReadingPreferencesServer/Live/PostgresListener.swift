import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// The instance's one `LISTEN` connection to PostgreSQL (Specs/Server.md §9.3, SRV-0005): a
/// service with a connection of its own, outside the pool (a pooled connection is lent for one
/// query at a time; a listener must stay the same session for as long as it listens).
///
/// It listens on the cursor and revocation channels and hands every notification to the
/// publisher. When the connection is lost (a restart, a failover, `pg_terminate_backend`), it
/// opens another after a pause that doubles from 100 ms up to 5 s, and once it listens again
/// every open stream is poked: a notification sent while nobody listened is lost, and the
/// streams' clients read again by cursor, so nothing is missed.
final class PostgresListener: Service, @unchecked Sendable {
    let configuration: PostgresConnection.Configuration
    let publisher: EventPublisher
    let logger: Logger
    private let lock = NSLock()
    private var listeningHook: (@Sendable () -> Void)?

    /// Told, for tests, each time the listener listens (again).
    var onListening: (@Sendable () -> Void)? {
        get { lock.withLock { listeningHook } }
        set { lock.withLock { listeningHook = newValue } }
    }

    /// What every listener's session name starts with (`pg_stat_activity.application_name`).
    static let applicationNamePrefix = "readingprefs-listener"

    /// The name this listener's session gives PostgreSQL: the prefix and an id of the instance,
    /// so that an operator (or a test) can tell one instance's listener from another's.
    let applicationName: String

    init(configuration: PostgresConnection.Configuration, publisher: EventPublisher, logger: Logger) {
        let instance = UUID().uuidString.prefix(8).lowercased()
        applicationName = "\(Self.applicationNamePrefix) \(instance)"
        var configuration = configuration
        configuration.options.additionalStartupParameters.append(("application_name", applicationName))
        self.configuration = configuration
        self.publisher = publisher
        self.logger = logger
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var pause = Duration.milliseconds(100)
            var connections = 0
            while !Task.isCancelled {
                connections += 1
                let listened = Flag()
                do {
                    let connection = try await PostgresConnection.connect(
                        configuration: self.configuration, id: connections, logger: self.logger)
                    do {
                        try await self.listen(on: connection, again: connections > 1, listened: listened)
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                    try? await connection.close()
                } catch  where !Task.isCancelled {
                    if listened.isSet { pause = .milliseconds(100) }
                    self.logger.warning(
                        "the PostgreSQL listener (\(self.applicationName)) lost its connection (\(error)); trying again in \(pause)"
                    )
                }
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
            }
        }
    }

    /// Listens on both channels until the connection fails; once both listen, every stream is
    /// poked (a notice may have been sent while nobody listened).
    private func listen(on connection: PostgresConnection, again: Bool, listened: Flag) async throws {
        let (ready, readiness) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for channel in [LiveNotice.cursorChannel, LiveNotice.revokedChannel] {
                group.addTask {
                    try await connection.listen(on: channel) { notifications in
                        readiness.yield()
                        for try await notification in notifications {
                            if let notice = LiveNotice(channel: channel, payload: notification.payload) {
                                self.publisher.receive([notice])
                            }
                        }
                    }
                    throw ListenerEnded()
                }
            }
            group.addTask {
                var listening = 0
                for await _ in ready {
                    listening += 1
                    if listening == 2 { break }
                }
                listened.set()
                if again {
                    self.logger.notice("the PostgreSQL listener (\(self.applicationName)) listens again")
                }
                await self.publisher.resynchronize()
                self.onListening?()
                // Stays until the group ends.
                while true { try await Task.sleep(for: .seconds(3600)) }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// Whether something happened, told across tasks.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    /// A notification sequence that ended without an error: the connection went.
    struct ListenerEnded: Error {}
}
