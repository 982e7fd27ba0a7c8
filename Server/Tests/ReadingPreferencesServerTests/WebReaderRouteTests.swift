import Foundation
import HTTPTypes
import Hummingbird
import ReadingPreferences
import Testing

@testable import ReadingPreferencesServer

/// The routes web readers use (Specs/Server.md §5.6): the merged preferences in a Readium
/// dialect, an import through a merge patch in that dialect, and the settings form.
@Suite("The web readers' routes")
struct WebReaderRouteTests {
    static let mergePatchTS: HTTPFields = [.contentType: "application/merge-patch+json; dialect=readium-ts"]

    @Test(
        "a navigator's preferences imported through a merge patch come back in its dialect, its own members unchanged",
        arguments: TestDatabase.available)
    func importAndExport(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, bob, _ in
            let kept =
                #"{"fontWeight":700,"darkenFilter":true,"columnCount":3,"optimalLineLength":65.0,"maximalLineLength":null,"pageGutter":20.50}"#
            let imported = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: kept, headers: Self.mergePatchTS)
            #expect(imported.status == .ok, "\(imported.body)")
            // Stored in our JSON: translated, the navigator's own members kept, 3 columns aside,
            // the null maximal line length kept as null.
            let stored = try #require(imported.json?.objectValue?["preferences"]?.objectValue)
            #expect(stored["fontWeight"] == .number(JSONNumber(1.75)))
            #expect(stored["imageFilter"] == .string("darken"))
            #expect(stored["readium-ts:columnCount"] == .number(JSONNumber(3)))
            #expect(stored["maximalLineLength"] == nil)
            #expect(stored["readium-ts:null:maximalLineLength"] == .bool(true))
            // The answer says what was kept aside.
            let keptAside = try #require(imported.json?.objectValue?["keptAside"]?.arrayValue)
            #expect(keptAside.contains { $0.objectValue?["keptAs"] == .string("readium-ts:columnCount") })
            let answer = try await client.send(
                .get, "/v1/epub/publications/book-1/preferences?dialect=readium-ts", token: alice)
            #expect(answer.status == .ok)
            let preferences = try #require(answer.json?.objectValue?["preferences"]?.objectValue)
            #expect(preferences["fontWeight"] == .number(JSONNumber(700)))
            #expect(preferences["darkenFilter"] == .bool(true))
            #expect(preferences["columnCount"] == .number(JSONNumber(3)))
            #expect(preferences["maximalLineLength"] == .null)
            // The navigator's own numbers, byte for byte.
            #expect(answer.body.contains(#""optimalLineLength":65.0"#), "\(answer.body)")
            #expect(answer.body.contains(#""pageGutter":20.50"#), "\(answer.body)")
            // Conditional: 304 while nothing changed; another dialect is another tag.
            let etag = try #require(answer.etag)
            let again = try await client.send(
                .get, "/v1/epub/publications/book-1/preferences?dialect=readium-ts", token: alice,
                headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            let ours = try await client.send(
                .get, "/v1/epub/publications/book-1/preferences", token: alice, headers: [.ifNoneMatch: etag])
            #expect(ours.status == .ok)
            #expect(
                ours.json?.objectValue?["preferences"]?.objectValue?["fontWeight"]
                    == .number(JSONNumber(1.75)))
            // Bob sees nothing of it.
            let bobs = try await client.send(
                .get, "/v1/epub/publications/book-1/preferences?dialect=readium-ts", token: bob)
            #expect(bobs.json?.objectValue?["preferences"]?.objectValue?.isEmpty == true)
        }
    }

    @Test(
        "an import answers what it coerced and kept beside ours; a color keeps its case through PATCH and PUT",
        arguments: TestDatabase.available)
    func coercedAndColors(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let imported = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice,
                body: ##"{"wordSpacing":1.5,"backgroundColor":"#faf4e8"}"##, headers: Self.mergePatchTS)
            let answer = try #require(imported.json?.objectValue)
            let coerced = try #require(answer["coerced"]?.arrayValue?.first?.objectValue)
            #expect(coerced["key"] == .string("wordSpacing"))
            #expect(coerced["coercedTo"] == .number(JSONNumber(1)))
            #expect(answer["preferences"]?.objectValue?["readium-ts:wordSpacing"] == .number(JSONNumber(1.5)))
            #expect(answer["preferences"]?.objectValue?["backgroundColor"] == .string("#faf4e8"))
            let exported = try await client.send(
                .get, "/v1/epub/publications/book-1/preferences?dialect=readium-ts", token: alice)
            let preferences = try #require(exported.json?.objectValue?["preferences"]?.objectValue)
            #expect(preferences["wordSpacing"] == .number(JSONNumber(1.5)))
            #expect(preferences["backgroundColor"] == .string("#faf4e8"))
            // Ours too: a plain PATCH and a PUT keep the case.
            let plain = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: ##"{"textColor":"#abcdef"}"##)
            #expect(plain.json?.objectValue?["textColor"] == .string("#abcdef"))
            let current = try #require(plain.etag)
            let put = try await client.send(
                .put, "/v1/epub/preferences/shared", token: alice, body: ##"{"textColor":"#fedcba"}"##,
                headers: [.ifMatch: current])
            #expect(put.json?.objectValue?["textColor"] == .string("#fedcba"), "\(put.body)")
        }
    }

    @Test(
        "the CSS route writes for Readium CSS 2 with ?readiumCSS=2, and refuses another version",
        arguments: TestDatabase.available)
    func readiumCSS2(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"theme":"dark"}"#)
            let one = try await client.send(.get, "/v1/epub/publications/book-1/css", token: alice)
            #expect(
                one.json?.objectValue?["properties"]?.objectValue?["--USER__appearance"]
                    == .string("readium-night-on"))
            let two = try await client.send(
                .get, "/v1/epub/publications/book-1/css?readiumCSS=2", token: alice)
            let properties = try #require(two.json?.objectValue?["properties"]?.objectValue)
            #expect(properties["--USER__appearance"] == nil)
            #expect(properties["--USER__backgroundColor"] == .string("#000000"))
            #expect(one.etag != two.etag)
            let three = try await client.send(
                .get, "/v1/epub/publications/book-1/css?readiumCSS=3", token: alice)
            #expect(three.status == .badRequest)
            #expect(three.code == "unknownReadiumCSS")
        }
    }

    @Test(
        "what a dialect drops is listed with its reason; an unknown dialect is 400",
        arguments: TestDatabase.available)
    func droppedAndUnknown(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice,
                body: #"{"pageMargins":1.5,"theme":"dark"}"#)
            let answer = try await client.send(
                .get, "/v1/epub/publications/book-1/preferences?dialect=readium-ts", token: alice)
            let dropped = try #require(answer.json?.objectValue?["dropped"]?.arrayValue)
            #expect(dropped.compactMap { $0.objectValue?["key"]?.stringValue } == ["pageMargins"])
            #expect(dropped.first?.objectValue?["reason"]?.stringValue?.isEmpty == false)
            let colors = try #require(answer.json?.objectValue?["preferences"]?.objectValue)
            #expect(colors["backgroundColor"] == .string("#000000"))
            let unknown = try await client.send(
                .get, "/v1/epub/publications/book-1/preferences?dialect=readium-go", token: alice)
            #expect(unknown.status == .badRequest)
            #expect(unknown.code == "unknownDialect")
            let badPatch = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: "{}",
                headers: [.contentType: "application/merge-patch+json; dialect=nope"])
            #expect(badPatch.status == .badRequest)
        }
    }

    @Test(
        "the form: every row with its labels, the layer holding its value, reasons with text; ETag and 304",
        arguments: TestDatabase.available)
    func form(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/publications/book-1", token: alice, body: #"{"fontSize":1.4}"#)
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"imageFilter":"darken"}"#)
            let answer = try await client.send(
                .get, "/v1/epub/publications/book-1/form?language=en", token: alice)
            #expect(answer.status == .ok, "\(answer.body)")
            let sections = try #require(answer.json?.objectValue?["sections"]?.arrayValue)
            let rows = sections.flatMap { $0.objectValue?["rows"]?.arrayValue ?? [] }.compactMap(
                \.objectValue)
            let fontSize = try #require(rows.first { $0["key"] == .string("fontSize") })
            #expect(fontSize["source"] == .string("publication"))
            #expect(fontSize["title"]?.stringValue?.isEmpty == false)
            let filter = try #require(rows.first { $0["key"] == .string("imageFilter") })
            #expect(filter["effective"] == .bool(false) || filter["isEffective"] == .bool(false))
            let reasons = filter["reasons"]?.arrayValue ?? []
            #expect(reasons.contains { $0.objectValue?["text"]?.stringValue?.isEmpty == false })
            // The settings fingerprint: the settings route's tag, and 304 with it.
            let settings = try await client.send(
                .get, "/v1/epub/publications/book-1/settings?language=en", token: alice)
            #expect(answer.etag == settings.etag)
            let again = try await client.send(
                .get, "/v1/epub/publications/book-1/form?language=en", token: alice,
                headers: [.ifNoneMatch: try #require(answer.etag)])
            #expect(again.status == .notModified)
        }
    }
}
