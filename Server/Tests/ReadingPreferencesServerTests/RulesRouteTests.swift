import Foundation
import HTTPTypes
import ReadingPreferences
import Testing

@testable import ReadingPreferencesServer

/// Profiles chosen by rules over HTTP (Specs/Server.md §4.9, §5.2, §5.3): the rules document on
/// the document routes, checked, and the reading routes evaluating it from the query's context.
@Suite("Profiles chosen by rules over HTTP (Specs/Server.md §4.9, §5.2, §5.3)")
struct RulesRouteTests {
    /// A profile named `name` with a font size, by its id.
    static func profile(
        _ name: String, fontSize: Double, client: Client, token: String
    ) async throws -> String {
        let created = try await client.send(
            .post, "/v1/epub/profiles", token: token, body: #"{"name":"\#(name)"}"#)
        let id = try #require(created.json?.objectValue?["id"]?.stringValue)
        _ = try await client.send(
            .patch, "/v1/epub/preferences/profiles/\(id)", token: token, body: #"{"fontSize":\#(fontSize)}"#)
        return id
    }

    @Test(
        "a malformed rules document is a 422 listing each malformed rule; nothing is written",
        arguments: TestDatabase.available)
    func malformed(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let body =
                #"{"rules":[{"profile":"night","when":{"appearance":"dusk"}},"#
                + #"{"profile":"day","when":{"appearance":"light"}},{"when":{"appearance":"dark"}}]}"#
            let answer = try await client.send(
                .put, "/v1/epub/preferences/rules", token: alice, body: body, headers: [.ifNoneMatch: "*"])
            #expect(answer.status == .unprocessableContent && answer.code == "invalidRules")
            let rules = answer.json?.objectValue?["errors"]?.arrayValue?.compactMap {
                $0.objectValue?["rule"]?.numberValue?.doubleValue
            }
            #expect(Set(rules ?? []) == [0, 2], "\(answer.body)")
            let patched = try await client.send(
                .patch, "/v1/epub/preferences/rules", token: alice, body: #"{"rules":[{"profile":"x"}]}"#)
            #expect(patched.status == .unprocessableContent)
            #expect(
                try await client.send(.get, "/v1/epub/preferences/rules", token: alice).status == .notFound)
        }
    }

    @Test(
        "the settings route chooses the profile the library's rules choose, for every context",
        arguments: TestDatabase.available)
    func sameAsTheLibrary(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"fontSize":1.0}"#)
            let sizes = [1.5, 1.6, 1.7, 1.8]
            var ids: [String] = []
            for (index, size) in sizes.enumerated() {
                ids.append(try await Self.profile("P\(index)", fontSize: size, client: client, token: alice))
            }
            let document: JSONValue = .object([
                "rules": .array([
                    ["profile": .string(ids[0]), "when": ["appearance": "dark", "deviceClass": "eink"]],
                    ["profile": .string(ids[1]), "when": ["time": ["from": "22:00", "to": "06:00"]]],
                    ["profile": .string(ids[2]), "when": ["collection": .array(["manga"])]],
                    ["profile": .string(ids[3]), "when": ["appearance": "dark"]],
                ])
            ])
            let written = try await client.send(
                .put, "/v1/epub/preferences/rules", token: alice,
                body: String(decoding: document.jsonData(), as: UTF8.self),
                headers: [.ifNoneMatch: "*"])
            #expect(written.status == .ok)
            let rules = try ProfileRules(json: try #require(document.objectValue?["rules"]))
            for appearance in [SystemAppearance.light, .dark] {
                for time in [nil, "23:30", "12:00"] as [String?] {
                    for collection in [nil, "manga"] as [String?] {
                        for deviceClass in [nil, "eink"] as [String?] {
                            var query = ["appearance=\(appearance.rawValue)"]
                            if let time { query.append("time=\(time)") }
                            if let collection { query.append("collection=\(collection)") }
                            if let deviceClass { query.append("deviceClass=\(deviceClass)") }
                            let context = ProfileRuleContext(
                                appearance: appearance,
                                minuteOfDay: time.flatMap(LocalTimeWindow.minuteOfDay),
                                deviceClass: deviceClass, collections: collection.map { [$0] } ?? [])
                            let chosen = rules.firstMatch(in: context)
                            let answer = try await client.send(
                                .get, "/v1/epub/publications/book/settings?" + query.joined(separator: "&"),
                                token: alice)
                            let setting = DeviceClassRouteTests.setting("fontSize", in: answer)
                            let expected = chosen.map { sizes[$0] } ?? 1.0
                            #expect(
                                setting?["value"] == .number(JSONNumber(expected)),
                                "\(query) chose \(chosen as Int?)")
                            let rule = setting?["chosenBy"]?.objectValue?["rule"]?.numberValue?.doubleValue
                            #expect(rule == chosen.map { Double($0 + 1) }, "\(query)")
                        }
                    }
                }
            }
            let bad = try await client.send(
                .get, "/v1/epub/publications/book/settings?time=25:00", token: alice)
            #expect(bad.status == .badRequest && bad.code == "invalidRuleContext")
        }
    }

    @Test(
        "a hand choice over HTTP beats the rules until {\"automatic\": true} returns the choice to them",
        arguments: TestDatabase.available)
    func handChoiceAndAutomatic(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"fontSize":1.0}"#)
            let night = try await Self.profile("Night", fontSize: 1.5, client: client, token: alice)
            _ = try await client.send(
                .put, "/v1/epub/preferences/rules", token: alice,
                body: #"{"rules":[{"profile":"\#(night)","when":{"appearance":"dark"}}]}"#,
                headers: [.ifNoneMatch: "*"])
            let dark = "/v1/epub/publications/book/settings?appearance=dark"
            func fontSize() async throws -> JSONValue? {
                DeviceClassRouteTests.setting(
                    "fontSize", in: try await client.send(.get, dark, token: alice))?["value"]
            }
            #expect(try await fontSize() == .number(JSONNumber(1.5)))
            // No profile, by hand: shared, whatever the rules say.
            let none = try await client.send(
                .put, "/v1/epub/profiles/active", token: alice, body: #"{"id":null}"#)
            #expect(none.json?.objectValue?["automatic"] == .bool(false))
            #expect(try await fontSize() == .number(JSONNumber(1.0)))
            let automatic = try await client.send(
                .put, "/v1/epub/profiles/active", token: alice, body: #"{"automatic":true}"#)
            #expect(automatic.status == .ok)
            #expect(automatic.json?.objectValue?["automatic"] == .bool(true))
            #expect(automatic.json?.objectValue?["id"] == .null)
            #expect(try await fontSize() == .number(JSONNumber(1.5)))
            for body in [#"{"automatic":false}"#, #"{"automatic":true,"id":null}"#, #"{}"#] {
                let refused = try await client.send(
                    .put, "/v1/epub/profiles/active", token: alice, body: body)
                #expect(refused.status == .badRequest && refused.code == "invalidProfile", "\(body)")
            }
        }
    }
}
