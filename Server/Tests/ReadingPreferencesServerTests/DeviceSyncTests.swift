import Foundation
import Hummingbird
import HummingbirdTesting
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A device: a store on its own folder, syncing with the server through the library's
/// `ServerTransport`, with a clock that may be off.
struct Device: Sendable {
    let name: String
    let folder: URL
    let store: PreferencesStore<EPUB>
    let transport: ServerTransport
    let skew: TimeInterval

    /// The replica id the device asks for at its first sync (a random one otherwise).
    let replica: ReplicaID?

    init(_ name: String, server: URL, token: String, skew: TimeInterval = 0, replica: ReplicaID? = nil) throws
    {
        self.name = name
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rps-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Its edits take their stamps from its own clock, as its syncs do.
        store = PreferencesStore<EPUB>(
            storage: FileStorage(root: folder), options: .init(now: { Date().addingTimeInterval(skew) }))
        transport = ServerTransport(url: server, token: token)
        self.skew = skew
        self.replica = replica
    }

    /// Syncs; `firstJoin` is what its first sync does when the server holds other documents
    /// (Specs/Sync.md §5.9).
    @discardableResult
    func sync(newReplica: Bool = false, firstJoin: FirstJoinChoice? = nil) async throws -> SyncReport {
        var options = SyncOptions(replica: replica, newReplica: newReplica, firstJoin: firstJoin)
        let skew = skew
        options.now = { Date().addingTimeInterval(skew) }
        return try await store.sync(with: transport, options: options)
    }

    func shared() async throws -> Preferences {
        try await PreferencesStore<EPUB>(storage: FileStorage(root: folder)).storedPreferences(in: .shared)
    }
}

/// Runs a test against a live server (a real port, so `URLSession` reaches it).
func withLiveServer(
    _ database: TestDatabase, _ body: @Sendable (URL, _ token: String, ReadingServer) async throws -> Void
) async throws {
    let (app, server) = try await database.application()
    do {
        try await app.test(.live) { client in
            // The tables exist once the application runs (its migrations come first).
            let token = try await server.addUser(named: "reader").token
            let port = try #require(client.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)")), token, server)
        }
    } catch {
        // A failing test closes its database too, so the failure is reported, not a crash.
        await server.close()
        throw error
    }
    await server.close()
}

@Suite("Devices sync through the server")
struct DeviceSyncTests {
    @Test(
        "two devices converge, a removal stays removed, and a device an hour slow loses no later edit",
        arguments: TestDatabase.available)
    func twoDevices(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, token, _ in
            let phone = try Device("phone", server: url, token: token)
            let tablet = try Device("tablet", server: url, token: token, skew: -3600)

            try await phone.store.apply(.set(key: "fontSize", value: 1.4))
            try await phone.store.apply(.set(key: "theme", value: "dark"))
            try await phone.sync()
            try await tablet.sync()
            #expect(try await tablet.shared()["fontSize"] == 1.4)
            #expect(try await tablet.shared()["theme"] == "dark")

            // A removal on the tablet reaches the phone, and stays removed after more syncs.
            try await tablet.store.apply(.clear(key: "fontSize"))
            try await tablet.sync()
            try await phone.sync()
            #expect(try await phone.shared()["fontSize"] == nil)
            try await phone.sync()
            try await tablet.sync()
            #expect(try await tablet.shared()["fontSize"] == nil)
            #expect(try await phone.shared()["fontSize"] == nil)

            // The tablet's clock is an hour slow; its edit, made after it read the phone's, wins.
            try await tablet.store.apply(.set(key: "theme", value: "sepia"))
            try await tablet.sync()
            try await phone.sync()
            #expect(try await phone.shared()["theme"] == "sepia")
            #expect(try await tablet.shared() == phone.shared())
        }
    }

    @Test("two users with a device called phone both sync, and never meet", arguments: TestDatabase.available)
    func replicasPerUser(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, token, server in
            let other = try await server.addUser(named: "second reader").token
            let alice = try Device("phone", server: url, token: token, replica: ReplicaID("phone"))
            let bob = try Device("phone", server: url, token: other, replica: ReplicaID("phone"))
            try await alice.store.apply(.set(key: "fontSize", value: 1.4))
            try await bob.store.apply(.set(key: "fontSize", value: 2))
            #expect(try await alice.sync().replica == ReplicaID("phone"))
            #expect(try await bob.sync().replica == ReplicaID("phone"))
            try await alice.sync()
            try await bob.sync()
            #expect(try await alice.shared()["fontSize"] == 1.4)
            #expect(try await bob.shared()["fontSize"] == 2)
            // A second device of Alice's sees her value, not Bob's.
            let tablet = try Device("tablet", server: url, token: token, replica: ReplicaID("tablet"))
            try await tablet.sync()
            #expect(try await tablet.shared()["fontSize"] == 1.4)
        }
    }

    @Test(
        "a store whose replica id the server refuses is told what to do, and syncs with --new-replica",
        arguments: [TestDatabase.sqlite])
    func refusedReplica(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, _, server in
            let (userID, token) = try await server.addUser(named: "reader with a taken id")
            let device = try Device(
                "phone", server: url, token: token, replica: SQLSyncLog.replicaID(for: userID))
            try await device.store.apply(.set(key: "fontSize", value: 1.4))
            do {
                try await device.sync()
                Issue.record("a device syncing as the server's own replica was not refused")
            } catch let error as SyncError {
                #expect("\(error)".contains("--new-replica"), "\(error)")
            }
            let renamed = try await device.sync(newReplica: true)
            #expect(renamed.replica != SQLSyncLog.replicaID(for: userID))
            // The edit was stamped by the refused sync; it is published under the new id now.
            #expect(renamed.problems.contains { "\($0)".contains("now syncs as replica") }, "\(renamed)")
            let other = try Device("tablet", server: url, token: token)
            try await other.sync()
            #expect(try await other.shared()["fontSize"] == 1.4)
        }
    }

    @Test(
        "the later edit wins, not the later sync: B edits after A, A syncs last; a web edit after both wins too",
        arguments: TestDatabase.available)
    func laterEditWins(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, token, server in
            // A's clock is a second behind, so its edits are older than anything made after them
            // on B or the server, however close in time.
            let a = try Device("a", server: url, token: token, skew: -1)
            let b = try Device("b", server: url, token: token)
            try await a.sync()
            try await b.sync()
            try await a.store.apply(.set(key: "fontSize", value: 1.2))
            // B's edit is made after A's: each edit takes its stamp when it is made.
            try await b.store.apply(.set(key: "fontSize", value: 1.8))
            try await b.sync()
            try await a.sync()
            try await b.sync()
            #expect(try await a.shared()["fontSize"] == 1.8)
            #expect(try await b.shared()["fontSize"] == 1.8)

            // A device edit, then a later web edit (PATCH): the device syncing afterwards loses.
            try await a.store.apply(.set(key: "theme", value: "sepia"))
            var request = URLRequest(url: url.appendingPathComponent("v1/epub/preferences/shared"))
            request.httpMethod = "PATCH"
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.setValue("application/merge-patch+json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"theme":"dark"}"#.utf8)
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            try await a.sync()
            #expect(try await a.shared()["theme"] == "dark")
            _ = server
        }
    }

    @Test("a wrong token is a transport error, and nothing local changes", arguments: [TestDatabase.sqlite])
    func wrongToken(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, _, _ in
            let device = try Device("phone", server: url, token: "rp_wrong")
            try await device.store.apply(.set(key: "fontSize", value: 1.4))
            await #expect(throws: SyncError.self) { try await device.sync() }
            #expect(try await device.shared()["fontSize"] == 1.4)
        }
    }

    @Test(
        "3 to 5 devices with random edits, removals and skewed clocks converge (seeded)",
        arguments: [TestDatabase.sqlite])
    func manyDevices(database: TestDatabase) async throws {
        for seed in UInt64(1)...6 {
            try await withLiveServer(database) { url, token, _ in
                var random = SeededRandom(seed: seed)
                let count = 3 + Int(random.next() % 3)
                var devices: [Device] = []
                for index in 0..<count {
                    let skew = TimeInterval(Int(random.next() % 7201) - 3600)
                    devices.append(try Device("d\(index)", server: url, token: token, skew: skew))
                }
                let keys = ["fontSize", "theme", "lineHeight", "pageTurnAnimation"]
                for _ in 0..<24 {
                    let device = devices[Int(random.next() % UInt64(count))]
                    let key = keys[Int(random.next() % UInt64(keys.count))]
                    switch random.next() % 4 {
                    case 0: try await device.store.apply(.clear(key: key), allowingUnknownKeys: true)
                    // A device's first sync merges key by key (Specs/Sync.md §5.9): the rule checked.
                    case 1: try await device.sync(firstJoin: .merge)
                    default:
                        let value: JSONValue
                        switch key {
                        case "fontSize": value = .number(JSONNumber(1.0 + Double(random.next() % 10) / 10))
                        case "theme": value = .string(["dark", "sepia", "light"][Int(random.next() % 3)])
                        case "lineHeight": value = .number(JSONNumber(1.2 + Double(random.next() % 5) / 10))
                        default: value = .string("curl-\(random.next() % 100)")
                        }
                        try await device.store.apply(.set(key: key, value: value), allowingUnknownKeys: true)
                    }
                }
                // Two rounds of syncs in order bring every device to the same documents.
                for _ in 0..<2 { for device in devices { try await device.sync(firstJoin: .merge) } }
                let first = try await devices[0].shared()
                for device in devices.dropFirst() {
                    #expect(try await device.shared() == first, "seed \(seed): \(device.name) differs")
                }
            }
        }
    }
}

/// A small seeded generator (SplitMix64), so a failing case names its seed.
struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
