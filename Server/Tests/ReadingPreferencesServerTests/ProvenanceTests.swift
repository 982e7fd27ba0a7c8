import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReadingPreferences
import ReadingPreferencesSQL
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

/// Provenance, history and revert through the server (Specs/Server.md §5.8): devices that name
/// themselves, the settings route saying who set a value, the history route listing both devices'
/// changes, a revert through the route winning on every device; and a push that meets a damaged
/// document sets it aside.
@Suite("Provenance, history and revert through the server")
struct ProvenanceTests {
    /// The user id a token belongs to, to reach that user's rows alone (other tests share a
    /// PostgreSQL database).
    static func user(of token: String, on server: ReadingServer) async throws -> String {
        try #require(
            try await server.database.query(
                "SELECT user_id FROM tokens WHERE token_hash = ?", [Accounts.hash(token)]
            ).first?["user_id"])
    }

    @Test(
        "two devices named Kobo Clara and iPhone: provenance, history and a revert through the server",
        arguments: TestDatabase.available)
    func twoNamedDevices(database: TestDatabase) async throws {
        let (app, server) = try await database.application()
        do {
            try await app.test(.live) { http in
                let client = Client(client: http)
                let token = try await server.addUser(named: "reader").token
                let port = try #require(http.port)
                let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
                let kobo = try Device("kobo", server: url, token: token, replica: ReplicaID("kobo"))
                let iphone = try Device("iphone", server: url, token: token, replica: ReplicaID("iphone"))
                try await kobo.store.device.setName("Kobo Clara")
                try await iphone.store.device.setName("iPhone")

                try await kobo.store.apply(.set(key: "fontSize", value: 1.2))
                try await kobo.sync()
                try await Task.sleep(nanoseconds: 5_000_000)
                try await iphone.store.apply(.set(key: "fontSize", value: 1.6))
                // Its first sync, with a value of its own: the later edit wins (Specs/Sync.md §5.9).
                try await iphone.sync(firstJoin: .merge)
                try await kobo.sync()

                // Each device says who set the value, and when.
                for device in [kobo, iphone] {
                    let why = try #require(try await device.store.explanation(of: "fontSize"))
                    #expect(why.value == 1.6)
                    let winner = try #require(why.holders.first { $0.wins })
                    #expect(winner.provenance?.device.name == "iPhone")
                    #expect(winner.provenance?.device.id == ReplicaID("iphone"))
                }
                // So does the server, on the settings and form rows.
                let settings = try await client.send(
                    .get, "/v1/epub/publications/book/settings", token: token)
                let row = try #require(
                    settings.json?.objectValue?["settings"]?.arrayValue?.first {
                        $0.objectValue?["key"] == "fontSize"
                    }?.objectValue)
                let provenance = try #require(row["provenance"]?.objectValue)
                #expect(provenance["device"]?.objectValue?["name"] == "iPhone")
                #expect(provenance["cause"] == "sync")
                #expect(provenance["time"]?.stringValue?.hasSuffix("Z") == true)

                // The history lists both changes, with their devices, oldest first.
                let history = try await client.send(
                    .get, "/v1/epub/history?layer=shared&key=fontSize", token: token)
                #expect(history.status == .ok, "\(history.body)")
                let entries = try #require(history.json?.objectValue?["entries"]?.arrayValue)
                #expect(entries.compactMap { $0.objectValue?["new"] } == [1.2, 1.6])
                #expect(
                    entries.compactMap { $0.objectValue?["device"]?.objectValue?["name"]?.stringValue } == [
                        "Kobo Clara", "iPhone",
                    ])
                let older = try #require(entries.first?.objectValue?["id"]?.stringValue)

                // A revert through the route wins on both devices once they sync.
                let stale = try await client.send(
                    .post, "/v1/epub/revert", token: token,
                    body: #"{"layer": "shared", "key": "fontSize", "to": {"entry": "\#(older)"}}"#,
                    headers: [.ifMatch: "\"nope\""])
                #expect(stale.status == .preconditionFailed)
                let reverted = try await client.send(
                    .post, "/v1/epub/revert", token: token,
                    body: #"{"layer": "shared", "key": "fontSize", "to": {"entry": "\#(older)"}}"#)
                #expect(reverted.status == .ok, "\(reverted.body)")
                #expect(reverted.json?.objectValue?["changes"]?.arrayValue?.first?.objectValue?["new"] == 1.2)
                try await kobo.sync()
                try await iphone.sync()
                #expect(try await kobo.shared()["fontSize"] == 1.2)
                #expect(try await iphone.shared()["fontSize"] == 1.2)
                let after = try await client.send(
                    .get, "/v1/epub/history?layer=shared&key=fontSize", token: token)
                let last = after.json?.objectValue?["entries"]?.arrayValue?.last?.objectValue
                #expect(last?["cause"] == "revert")
                // Made through a route: named by the server replica, here and on the devices.
                #expect(last?["device"]?.objectValue?["name"] == .string(SQLSyncLog.replicaName))
                for device in [kobo, iphone] {
                    let why = try #require(try await device.store.explanation(of: "fontSize"))
                    let winner = try #require(why.holders.first { $0.wins })
                    #expect(winner.provenance?.device.name == SQLSyncLog.replicaName)
                }

                // An entry no history holds is 404; a body without `to` is 400.
                let unknown = try await client.send(
                    .post, "/v1/epub/revert", token: token,
                    body: #"{"layer": "shared", "to": {"entry": "1-0-nobody"}}"#)
                #expect(unknown.status == .notFound)
                #expect(unknown.code == "unknownEntry")
                let malformed = try await client.send(
                    .post, "/v1/epub/revert", token: token, body: #"{"layer": "shared"}"#)
                #expect(malformed.status == .badRequest)
            }
        } catch {
            await server.close()
            throw error
        }
        await server.close()
    }

    @Test(
        "a push that meets a damaged document sets it aside, reports it, and keeps it",
        arguments: TestDatabase.available)
    func damagedRowSetAside(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, server in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"theme": "dark"}"#)
            // Alice's row alone: other tests share a PostgreSQL database.
            let owner = try await Self.user(of: alice, on: server)
            // The damaged row: not JSON.
            let damaged = try await server.database.execute(
                "UPDATE reading_preferences SET json = ? WHERE user_id = ? AND scope = ?",
                ["{\"theme\": \"da", owner, "epub/shared"])
            #expect(damaged == 1)
            let push = try await client.send(
                .post, "/v1/sync/push", token: alice,
                body: #"""
                    {"replica": "phone", "name": "Phone", "entries": [{"scope": "epub/shared", "key": "fontSize", "value": 1.4,
                     "stamp": {"time": 1764000000000, "counter": 0, "replica": "phone"}}]}
                    """#)
            #expect(push.status == .ok, "\(push.body)")
            let aside = try #require(push.json?.objectValue?["setAside"]?.arrayValue?.first?.objectValue)
            #expect(aside["scope"] == "epub/shared")
            let movedTo = try #require(aside["movedTo"]?.stringValue)
            // Kept, byte for byte, where the answer says.
            let kept = try await server.database.query(
                "SELECT json FROM reading_preferences WHERE user_id = ? AND scope = ?", [owner, movedTo])
            #expect(kept.first?["json"] == "{\"theme\": \"da")
            // The document now holds what the push applied, never the damaged text read as empty.
            let shared = try await client.send(.get, "/v1/epub/preferences/shared", token: alice)
            #expect(shared.json == ["fontSize": 1.4])
        }
    }

    @Test(
        "a change the server stamped before its replica had a name is told as set on the web",
        arguments: TestDatabase.available)
    func unnamedServerRows(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, server in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"theme": "dark"}"#)
            let push = try await client.send(
                .post, "/v1/sync/push", token: alice,
                body: #"""
                    {"replica": "phone", "entries": [{"scope": "epub/shared", "key": "fontSize", "value": 1.4,
                     "stamp": {"time": 1764000000000, "counter": 0, "replica": "phone"}}]}
                    """#)
            #expect(push.status == .ok, "\(push.body)")
            let owner = try await Self.user(of: alice, on: server)
            // The rows as an earlier version wrote them: no device name.
            let rows = try await server.database.query(
                "SELECT CAST(seq AS TEXT) AS seq, entry FROM sync_history WHERE user_id = ?", [owner])
            #expect(rows.count == 2)
            for row in rows {
                let text = try #require(row["entry"])
                let seq = try #require(row["seq"])
                var entry = try #require(try JSONValue(json: text).objectValue)
                _ = entry.removeValue(forKey: "name")
                let updated = try await server.database.execute(
                    "UPDATE sync_history SET entry = ? WHERE user_id = ? AND seq = CAST(? AS BIGINT)",
                    [JSONValue.object(entry).jsonString(), owner, seq])
                #expect(updated == 1)
            }
            let history = try await client.send(.get, "/v1/epub/history?layer=shared", token: alice)
            let devices = try #require(history.json?.objectValue?["entries"]?.arrayValue).compactMap {
                $0.objectValue?["device"]?.objectValue
            }
            #expect(devices.count == 2)
            #expect(devices.first { $0["name"] == "the web" } != nil, "\(devices)")
            // A device's change keeps its own id, never the server's name.
            #expect(devices.first { $0["id"] == "phone" }?["name"] == nil, "\(devices)")
        }
    }
}
