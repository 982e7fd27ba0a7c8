import Foundation
import Logging
import ReadingPreferencesSQL

/// What the event streams of an instance share (Specs/Server.md §9): the publisher that tells
/// them, the tickets, the streams' leases, the devices, and the sync log whose cursor they
/// announce.
struct LiveEvents: Sendable {
    let publisher: EventPublisher
    let tickets: EventTickets
    let streams: EventStreams
    let devices: Devices
    let replica: SQLSyncLog
    /// The most streams a user holds at once, on every instance together.
    let streamsPerUser: Int

    /// The time between heartbeats unless told otherwise: 15 seconds, well under the minute
    /// proxies commonly close a quiet connection after.
    static let defaultHeartbeat = Duration.seconds(15)

    init(
        database: any ServerDatabase, replica: SQLSyncLog, heartbeat: Duration, streamsPerUser: Int,
        logger: Logger
    ) {
        devices = Devices(database: database)
        tickets = EventTickets(database: database)
        streams = EventStreams(database: database, instance: "in-" + Accounts.randomHex(bytes: 8))
        publisher = EventPublisher(streams: streams, devices: devices, heartbeat: heartbeat, logger: logger)
        self.replica = replica
        self.streamsPerUser = streamsPerUser
    }
}
