import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReadingPreferences
import Testing

@testable import ReadingPreferencesServer

/// HTTP as clients expect it: unknown paths and methods, `HEAD`, `OPTIONS`, CORS, the body limit,
/// every rejected key, and the contract served as the file.
@Suite("HTTP conventions")
struct HTTPConventionTests {
    static let origin = "https://reader.example"

    /// Runs `body` against the product's application on SQLite, with one user, web readers on
    /// ``origin`` allowed and a 4 KiB body limit.
    func withApplication(_ body: @Sendable (Client, _ token: String) async throws -> Void) async throws {
        let (app, server) = try await TestDatabase.sqlite.application { configuration in
            configuration.corsOrigins = [Self.origin]
            configuration.maxBodyBytes = 4096
        }
        try await app.test(.router) { client in
            let token = try await server.addUser(named: "reader").token
            try await body(Client(client: client), token)
        }
        await server.close()
    }

    @Test("a path no route serves is 404 problem+json, with or without a token")
    func unknownPath() async throws {
        try await withApplication { client, token in
            for uri in ["/", "/v1", "/v1/v1/sync/push", "/nothing/at/all", "/v1/epub/preferences"] {
                for token in [nil, token] {
                    let answer = try await client.send(.get, uri, token: token)
                    #expect(answer.status == .notFound, "\(uri)")
                    #expect(answer.headers[.contentType] == "application/problem+json")
                    #expect(answer.code == "notFound")
                }
            }
        }
    }

    @Test("a known path asked with another method is 405 with Allow, never 500")
    func wrongMethod() async throws {
        try await withApplication { client, token in
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.delete, "/healthz", "GET, HEAD, OPTIONS"),
                (.post, "/openapi.json", "GET, HEAD, OPTIONS"),
                (.delete, "/v1/epub/preferences/shared", "GET, HEAD, OPTIONS, PATCH, PUT"),
                (.get, "/v1/sync/push", "OPTIONS, POST"),
                (.put, "/v1/epub/publications/urn%3Ax/settings", "GET, HEAD, OPTIONS"),
                (.trace, "/v1/export", "GET, HEAD, OPTIONS"),
                // The route the router picks: `active` is its own route, not a profile's id.
                (.patch, "/v1/epub/profiles/active", "OPTIONS, PUT"),
                (.put, "/v1/epub/profiles/0bbb8bd6efdf", "DELETE, OPTIONS, PATCH"),
            ]
            for (method, uri, allow) in cases {
                let answer = try await client.send(method, uri, token: token)
                #expect(answer.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(answer.headers[.allow] == allow, "\(method) \(uri)")
                #expect(answer.code == "methodNotAllowed")
            }
        }
    }

    @Test("HEAD answers wherever GET does, with its headers and no body; OPTIONS is 204 with Allow")
    func headAndOptions() async throws {
        try await withApplication { client, token in
            let head = try await client.send(.head, "/healthz", token: nil)
            #expect(head.status == .ok)
            #expect(head.body.isEmpty)
            #expect(try await client.send(.head, "/v1/export", token: nil).status == .unauthorized)
            _ = try await client.send(
                .put, "/v1/epub/preferences/shared", token: token, body: #"{"fontSize": 1.5}"#,
                headers: [.ifNoneMatch: "*"])
            let get = try await client.send(.get, "/v1/epub/preferences/shared", token: token)
            let headDocument = try await client.send(.head, "/v1/epub/preferences/shared", token: token)
            #expect(headDocument.status == .ok)
            #expect(headDocument.etag == get.etag)
            #expect(headDocument.body.isEmpty)
            let options = try await client.send(.options, "/v1/epub/profiles", token: nil)
            #expect(options.status == .noContent)
            #expect(options.headers[.allow] == "GET, HEAD, OPTIONS, POST")
        }
    }

    @Test(
        "CORS: a preflight from an allowed origin needs no token; answers to it expose ETag; others get nothing"
    )
    func cors() async throws {
        try await withApplication { client, token in
            let preflight = try await client.send(
                .options, "/v1/epub/preferences/shared", token: nil,
                headers: [.origin: Self.origin, .accessControlRequestMethod: "PUT"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == Self.origin)
            #expect(preflight.headers[.accessControlAllowMethods] == "GET, HEAD, OPTIONS, PATCH, PUT")
            #expect(
                preflight.headers[.accessControlAllowHeaders]
                    == "Authorization, Content-Type, If-Match, If-None-Match")
            let answer = try await client.send(
                .get, "/v1/epub/profiles", token: token, headers: [.origin: Self.origin])
            #expect(answer.status == .ok)
            #expect(answer.headers[.accessControlAllowOrigin] == Self.origin)
            #expect(answer.headers[.accessControlExposeHeaders] == "ETag")
            #expect(answer.headers[values: .vary].contains("Origin"))
            // An error answer to that origin is readable by the page too.
            let refused = try await client.send(
                .get, "/v1/export", token: nil, headers: [.origin: Self.origin])
            #expect(refused.status == .unauthorized)
            #expect(refused.headers[.accessControlAllowOrigin] == Self.origin)
            let other = try await client.send(
                .options, "/v1/epub/preferences/shared", token: nil,
                headers: [.origin: "https://elsewhere.example", .accessControlRequestMethod: "PUT"])
            #expect(other.headers[.accessControlAllowOrigin] == nil)
            #expect(other.headers[.accessControlAllowMethods] == nil)
        }
    }

    @Test("GET /openapi.json answers the contract file byte for byte, without a token")
    func contract() async throws {
        try await withApplication { client, _ in
            let answer = try await client.send(.get, "/openapi.json", token: nil)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/json")
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("openapi.json")
            #expect(Data(answer.body.utf8) == (try Data(contentsOf: file)))
            #expect(answer.json?.objectValue?["openapi"] == "3.1.0")
        }
    }

    @Test("a body over --max-body-bytes is 413 and says the limit; a 422 names every rejected key")
    func limitsAndRejections() async throws {
        try await withApplication { client, token in
            let large = #"{"note": ""# + String(repeating: "x", count: 5000) + #""}"#
            let tooLarge = try await client.send(
                .put, "/v1/epub/preferences/shared", token: token, body: large, headers: [.ifNoneMatch: "*"])
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.json?.objectValue?["limit"] == 4096)
            #expect(tooLarge.json?.objectValue?["detail"]?.stringValue?.contains("4096") == true)
            let rejected = try await client.send(
                .put, "/v1/epub/preferences/shared", token: token,
                body: #"{"fontSize": "big", "x-app": 1, "theme": "purple"}"#, headers: [.ifNoneMatch: "*"])
            #expect(rejected.status == .unprocessableContent)
            let errors = rejected.json?.objectValue?["errors"]?.arrayValue ?? []
            #expect(errors.compactMap { $0.objectValue?["key"]?.stringValue } == ["fontSize", "theme"])
            #expect(
                errors.compactMap { $0.objectValue?["code"]?.stringValue } == [
                    "typeMismatch", "unsupportedValue",
                ])
            #expect(rejected.code == "typeMismatch")
            // Nothing was stored.
            #expect(
                try await client.send(.get, "/v1/epub/preferences/shared", token: token).status == .notFound)
        }
    }

    @Test("add-user refuses a name another account has, unless told otherwise")
    func takenName() async throws {
        let server = try await TestDatabase.sqlite.open()
        _ = try await server.addUser(named: "reader", allowingTakenName: false)
        await #expect(throws: ServerError.self) {
            _ = try await server.addUser(named: "reader", allowingTakenName: false)
        }
        _ = try await server.addUser(named: "reader", allowingTakenName: true)
        await server.close()
    }
}
