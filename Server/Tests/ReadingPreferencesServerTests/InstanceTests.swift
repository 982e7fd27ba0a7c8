import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ReadingPreferences
import ReadingPreferencesStore
import Testing

@testable import ReadingPreferencesServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Several instances, and devices that die mid-push")
struct InstanceTests {
    @Test(
        "two server instances on one PostgreSQL database: concurrent edits of one user's document lose nothing",
        .enabled(
            if: TestDatabase.postgresURL != nil, "READINGPREFS_TEST_DATABASE_URL names no PostgreSQL database"
        )
    )
    func twoInstances() async throws {
        let (firstApp, first) = try await TestDatabase.postgres.application()
        let (secondApp, second) = try await TestDatabase.postgres.application()
        try await firstApp.test(.router) { one in
            try await secondApp.test(.router) { two in
                let token = try await first.addUser(named: "reader").token
                let clients = [Client(client: one), Client(client: two)]
                let statuses = await withTaskGroup(of: Int.self) { group in
                    for request in 0..<24 {
                        group.addTask {
                            let answer = try? await clients[request % 2].send(
                                .patch, "/v1/epub/preferences/shared", token: token,
                                body: #"{"key-\#(request)":\#(request)}"#)
                            return Int(answer?.status.code ?? 0)
                        }
                    }
                    return await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
                let document = try await clients[1].send(.get, "/v1/epub/preferences/shared", token: token)
                let object = try #require(document.json?.objectValue)
                #expect((0..<24).allSatisfy { object["key-\($0)"] != nil }, "\(document.body)")
                // Every change reached the changes feed once, with distinct sequence numbers.
                let changes = try await clients[0].send(.get, "/v1/sync/changes?limit=100", token: token)
                #expect(changes.json?.objectValue?["entries"]?.arrayValue?.count == 24)
            }
        }
        await first.close()
        await second.close()
    }

    @Test(
        "48 merge patches of one document at once, without If-Match, all apply: none is refused as a conflict",
        arguments: TestDatabase.available)
    func concurrentPatches(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let statuses = await withTaskGroup(of: Int.self) { group in
                for request in 0..<48 {
                    group.addTask {
                        let answer = try? await client.send(
                            .patch, "/v1/epub/preferences/shared", token: alice,
                            body:
                                ##"{"key-\##(request)":\##(request),"textColor":"#0000\##(hex([UInt8(request)]))"}"##
                        )
                        return Int(answer?.status.code ?? 0)
                    }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses.sorted())")
            let document = try await client.send(.get, "/v1/epub/preferences/shared", token: alice)
            let object = try #require(document.json?.objectValue)
            #expect((0..<48).allSatisfy { object["key-\($0)"] != nil }, "\(document.body)")
        }
    }

    @Test(
        "a push cut off mid-body applies nothing, and the server goes on", arguments: TestDatabase.available)
    func pushCutOff(database: TestDatabase) async throws {
        try await withLiveServer(database) { url, token, _ in
            let port = try #require(url.port)
            let now = UInt64(Date().timeIntervalSince1970 * 1000)
            let replica = ReplicaID.random(prefix: "dying").rawValue
            let body = """
                {"replica":"\(replica)","entries":[{"scope":"epub/shared","key":"fontSize","value":1.4,\
                "stamp":{"time":\(now),"counter":0,"replica":"\(replica)"}}]}
                """
            // The request announces the whole body, sends half of it, and the device dies.
            let head =
                "POST /v1/sync/push HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            try sendAndDrop(port: port, Array((head + String(body.prefix(body.count / 2))).utf8))
            var request = URLRequest(url: url.appendingPathComponent("v1/sync/state"))
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let state = try await fetch(request)
            #expect(try ReplicaState.read(state).state.entryCount == 0)
            var health = URLRequest(url: url.appendingPathComponent("healthz"))
            health.httpMethod = "GET"
            #expect(!(try await fetch(health)).isEmpty)
        }
    }

    /// Opens a connection, writes bytes, and closes it at once.
    func sendAndDrop(port: Int, _ bytes: [UInt8]) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    }
}

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The body of a request's answer.
func fetch(_ request: URLRequest) async throws -> Data {
    try await withCheckedThrowingContinuation { continuation in
        URLSession.shared.dataTask(with: request) { data, _, error in
            if let error {
                continuation.resume(throwing: error)
            } else {
                continuation.resume(returning: data ?? Data())
            }
        }.resume()
    }
}
