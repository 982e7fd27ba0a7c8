import Foundation
import ReadingPreferences
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

/// Specs/Server.md §9.4: the library's event stream and continuous sync, against a live server
/// (`URLSession`, with `FoundationNetworking` on Linux).
@Suite("Devices kept in sync by the server's events")
struct LiveSyncTests {
    @Test(
        "ServerTransport.events opens, then announces each change as it comes",
        arguments: TestDatabase.available)
    func events(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let token = try await live.server.addUser(named: "reader").token
            let server = ServerTransport(url: live.base, token: token)
            let (seen, saw) = AsyncStream.makeStream(of: ServerEvent.self)
            let reading = Task {
                for try await event in server.events() { saw.yield(event) }
            }
            defer { reading.cancel() }
            #expect(await first(of: seen) == .opened)
            _ = try await live.request(
                "PATCH", "/v1/epub/preferences/shared", token: token, body: #"{"theme":"dark"}"#)
            let change = await first(of: seen)
            #expect(
                change
                    == .changed(
                        ServerChange(
                            cursor: "c1", configurables: ["epub"],
                            scopes: [SyncScope("epub/shared")].compactMap { $0 })))
        }
    }

    @Test(
        "a refused stream throws a refusal; resuming after a cursor sends what changed since",
        arguments: TestDatabase.available)
    func refusedAndResumed(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let token = try await live.server.addUser(named: "reader").token
            do {
                for try await _ in ServerTransport(url: live.base, token: "rp_unknown").events() {}
                Issue.record("an unknown token opened a stream")
            } catch let error as ServerEventError {
                #expect(error.isRefusal)
                #expect(error.status == 401)
            }
            _ = try await live.request(
                "PATCH", "/v1/epub/preferences/shared", token: token, body: #"{"theme":"dark"}"#)
            _ = try await live.request(
                "PATCH", "/v1/epub/preferences/shared", token: token, body: #"{"theme":"sepia"}"#)
            var events: [ServerEvent] = []
            for try await event in ServerTransport(url: live.base, token: token).events(resumingAfter: "c1") {
                events.append(event)
                if events.count == 2 { break }
            }
            #expect(events.first == .opened)
            if case .changed(let change) = events.last {
                #expect(change.cursor == "c2")
            } else {
                Issue.record("no change after the cursor: \(events)")
            }
        }
    }

    @Test(
        "a device syncing continuously receives another device's edit without asking",
        arguments: TestDatabase.available)
    func continuous(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let token = try await live.server.addUser(named: "reader").token
            let phone = try Device("phone", server: live.base, token: token, replica: ReplicaID("phone"))
            let tablet = try Device("tablet", server: live.base, token: token, replica: ReplicaID("tablet"))
            let (events, told) = AsyncStream.makeStream(of: LiveSyncEvent.self)
            let watching = Task {
                try await tablet.store.syncContinuously(
                    with: tablet.transport, options: SyncOptions(replica: tablet.replica)
                ) { told.yield($0) }
            }
            // Connected, then the sync made on connecting.
            var connected = false
            for await event in events {
                if case .connected = event { connected = true }
                if case .synced = event { break }
            }
            #expect(connected)
            try await phone.store.apply(.set(key: "fontSize", value: 1.7))
            try await phone.sync()
            var received: SyncReport?
            while received == nil, let event = await first(of: events) {
                if case .synced(let report) = event, !report.changes.isEmpty { received = report }
            }
            #expect(received?.changes.map(\.key) == ["fontSize"])
            #expect(try await tablet.shared()["fontSize"] == .number(JSONNumber(1.7)))
            watching.cancel()
            try await watching.value
        }
    }

    @Test(
        "continuous sync stops with a refusal when its device is revoked", arguments: TestDatabase.available)
    func revokedDevice(database: TestDatabase) async throws {
        try await LiveServer.with(database) { live in
            let account = try await live.server.addUser(named: "reader").token
            let device = try await ServerTransport(url: live.base, token: account)
                .registerDevice(named: "Kobo Clara", deviceClass: "eink")
            let kobo = try Device("kobo", server: live.base, token: device.token)
            let (events, told) = AsyncStream.makeStream(of: LiveSyncEvent.self)
            let watching = Task {
                try await kobo.store.syncContinuously(with: kobo.transport) { told.yield($0) }
            }
            for await event in events {
                if case .synced = event { break }
            }
            #expect(
                try await live.request("DELETE", "/v1/devices/\(device.id)", token: account).status == 204)
            do {
                try await watching.value
                Issue.record("the revoked device went on")
            } catch let error as ServerEventError {
                #expect(error.isRefusal)
            }
        }
    }
}
