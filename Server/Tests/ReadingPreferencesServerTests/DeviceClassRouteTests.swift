import Foundation
import HTTPTypes
import ReadingPreferences
import Testing

@testable import ReadingPreferencesServer

/// The device-class layers over HTTP (Specs/Server.md §5.2–§5.4): class documents on the document
/// routes, `deviceClass` on the reading routes, the edits route's layers and moves, and this
/// device's layer refused.
@Suite("Device classes and this device over HTTP (Specs/Server.md §5.2–§5.4)")
struct DeviceClassRouteTests {
    static let settings = "/v1/epub/publications/book/settings"
    static let edits = "/v1/epub/publications/book/edits"

    /// A setting of a settings answer.
    static func setting(_ key: String, in answer: Answer) -> JSONObject? {
        answer.json?.objectValue?["settings"]?.arrayValue?.lazy.compactMap(\.objectValue)
            .first { $0["key"]?.stringValue == key }
    }

    /// The `errors[0].key` of a 422.
    static func member(of answer: Answer) -> String? {
        answer.json?.objectValue?["errors"]?.arrayValue?.first?.objectValue?["key"]?.stringValue
    }

    @Test(
        "a class document is a layer of the document routes; its id is checked as a profile's is",
        arguments: TestDatabase.available)
    func classDocuments(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, bob, _ in
            let created = try await client.send(
                .put, "/v1/epub/preferences/classes/eink", token: alice, body: #"{"fontSize":1.6}"#,
                headers: [.ifNoneMatch: "*"])
            #expect(created.status.code < 300)
            let read = try await client.send(.get, "/v1/epub/preferences/classes/eink", token: alice)
            #expect(read.status == .ok && read.json?.objectValue?["fontSize"] == .number(JSONNumber(1.6)))
            #expect(
                try await client.send(.get, "/v1/epub/preferences/classes/eink", token: bob).status
                    == .notFound)
            let bad = try await client.send(.get, "/v1/epub/preferences/classes/E%20Ink", token: alice)
            #expect(bad.status == .badRequest && bad.code == "invalidIdentifier")
        }
    }

    @Test(
        "the device layer is no document of the server: every route naming it is a 422 that says why",
        arguments: TestDatabase.available)
    func deviceLayerRefused(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            // Every method, whatever else the request lacks (a PUT without If-Match, a body that is
            // not JSON): the layer is what is wrong.
            for (method, body) in [
                (HTTPRequest.Method.get, nil), (.patch, #"{"fontSize":2}"#), (.put, #"{"fontSize":2}"#),
                (.put, "not JSON"), (.patch, "not JSON"),
            ] as [(HTTPRequest.Method, String?)] {
                let answer = try await client.send(
                    method, "/v1/epub/preferences/device", token: alice, body: body)
                #expect(answer.status == .unprocessableContent && answer.code == "deviceLayer")
                #expect(
                    answer.json?.objectValue?["detail"]?.stringValue?.contains("on the device only") == true)
            }
            let edit = try await client.send(
                .post, Self.edits, token: alice,
                body: #"{"edits":[{"key":"fontSize","op":"set","value":2}],"layer":"device"}"#)
            #expect(edit.status == .unprocessableContent && edit.code == "deviceLayer")
            #expect(Self.member(of: edit) == "layer")
            let move = try await client.send(
                .post, Self.edits, token: alice,
                body: #"{"edits":[{"op":"move","key":"fontSize","to":"device"}]}"#)
            #expect(move.status == .unprocessableContent && move.code == "deviceLayer")
            #expect(Self.member(of: move) == "edits[0].to")
            let history = try await client.send(.get, "/v1/epub/history?layer=device", token: alice)
            #expect(history.status == .unprocessableContent && history.code == "deviceLayer")
            let revert = try await client.send(
                .post, "/v1/epub/revert", token: alice,
                body: #"{"layer":"device","key":"fontSize","to":{"time":"2026-01-01T00:00:00Z"}}"#)
            #expect(revert.status == .unprocessableContent && revert.code == "deviceLayer")
        }
    }

    @Test(
        "deviceClass resolves the class between the base and the book, attributed to it, on every reading route",
        arguments: TestDatabase.available)
    func resolution(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"fontSize":1.2}"#)
            _ = try await client.send(
                .patch, "/v1/epub/preferences/classes/eink", token: alice,
                body: #"{"fontSize":1.6,"lineHeight":1.5}"#)
            let plain = try await client.send(.get, Self.settings, token: alice)
            #expect(Self.setting("fontSize", in: plain)?["value"] == .number(JSONNumber(1.2)))
            #expect(Self.setting("fontSize", in: plain)?["source"]?.stringValue == "shared")
            let eink = try await client.send(.get, Self.settings + "?deviceClass=eink", token: alice)
            #expect(Self.setting("fontSize", in: eink)?["value"] == .number(JSONNumber(1.6)))
            #expect(Self.setting("fontSize", in: eink)?["source"]?.stringValue == "deviceClass")
            #expect(Self.setting("fontSize", in: eink)?["class"]?.stringValue == "eink")
            #expect(eink.etag != plain.etag)
            // Another class resolves only its own document (here none).
            let phone = try await client.send(.get, Self.settings + "?deviceClass=phone", token: alice)
            #expect(Self.setting("fontSize", in: phone)?["value"] == .number(JSONNumber(1.2)))
            // The book beats the class.
            _ = try await client.send(
                .patch, "/v1/epub/preferences/publications/book", token: alice, body: #"{"fontSize":1.4}"#)
            let book = try await client.send(.get, Self.settings + "?deviceClass=eink", token: alice)
            #expect(Self.setting("fontSize", in: book)?["value"] == .number(JSONNumber(1.4)))
            #expect(Self.setting("lineHeight", in: book)?["source"]?.stringValue == "deviceClass")
            // A change of the class document is seen at once (a kept answer depends on it).
            _ = try await client.send(
                .patch, "/v1/epub/preferences/classes/eink", token: alice, body: #"{"lineHeight":1.8}"#)
            let changed = try await client.send(.get, Self.settings + "?deviceClass=eink", token: alice)
            #expect(Self.setting("lineHeight", in: changed)?["value"] == .number(JSONNumber(1.8)))
            let css = try await client.send(.get, "/v1/epub/publications/book/css", token: alice)
            let einkCSS = try await client.send(
                .get, "/v1/epub/publications/book/css?deviceClass=eink", token: alice)
            #expect(css.status == .ok && einkCSS.status == .ok && css.body != einkCSS.body)
            let merged = try await client.send(
                .get, "/v1/epub/publications/book/preferences?deviceClass=eink", token: alice)
            #expect(
                merged.json?.objectValue?["preferences"]?.objectValue?["lineHeight"]
                    == .number(JSONNumber(1.8)))
            let form = try await client.send(
                .get, "/v1/epub/publications/book/form?deviceClass=eink", token: alice)
            #expect(form.status == .ok && form.body.contains(#""deviceClass""#))
            let bad = try await client.send(.get, Self.settings + "?deviceClass=E%20Ink", token: alice)
            #expect(bad.status == .badRequest && bad.code == "invalidIdentifier")
            let empty = try await client.send(.get, Self.settings + "?deviceClass=", token: alice)
            #expect(empty.status == .badRequest && empty.code == "invalidIdentifier")
        }
    }

    @Test(
        "the edits route's layers: base (and allBooks), class with the query's class, book",
        arguments: TestDatabase.available)
    func editLayers(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            func stored(_ layer: String) async throws -> JSONObject? {
                try await client.send(.get, "/v1/epub/preferences/" + layer, token: alice).json?.objectValue
            }
            let toClass = try await client.send(
                .post, Self.edits + "?deviceClass=eink", token: alice,
                body: #"{"edits":[{"key":"fontSize","op":"set","value":1.7}],"layer":"class"}"#)
            #expect(toClass.status == .ok)
            #expect(try await stored("classes/eink")?["fontSize"] == .number(JSONNumber(1.7)))
            let noClass = try await client.send(
                .post, Self.edits, token: alice,
                body: #"{"edits":[{"key":"fontSize","op":"set","value":1.7}],"layer":"class"}"#)
            #expect(noClass.status == .unprocessableContent && noClass.code == "noDeviceClass")
            for (layer, value) in [("base", 1.1), ("allBooks", 1.3)] {
                let answer = try await client.send(
                    .post, Self.edits, token: alice,
                    body:
                        #"{"edits":[{"key":"theme","op":"set","value":"dark"},{"key":"fontSize","op":"set","value":\#(value)}],"layer":"\#(layer)"}"#
                )
                #expect(answer.status == .ok)
                #expect(try await stored("shared")?["fontSize"] == .number(JSONNumber(value)))
            }
            // An edit of the class that says the value it replaces (as the settings page sends it).
            let expected = try await client.send(
                .post, Self.edits + "?deviceClass=eink", token: alice,
                body: #"{"edits":[{"key":"lineHeight","op":"set","value":1.4,"expect":null}],"#
                    + #""layer":"class"}"#)
            #expect(expected.status == .ok)
            #expect(try await stored("classes/eink")?["lineHeight"] == .number(JSONNumber(1.4)))
            // The save rule writes a key back to the class that holds it.
            let ruled = try await client.send(
                .post, Self.edits + "?deviceClass=eink", token: alice,
                body: #"{"edits":[{"key":"fontSize","op":"set","value":1.9}]}"#)
            #expect(ruled.status == .ok)
            #expect(try await stored("classes/eink")?["fontSize"] == .number(JSONNumber(1.9)))
            #expect(try await stored("shared")?["fontSize"] == .number(JSONNumber(1.3)))
        }
    }

    @Test(
        "a move keeps the value, removes it below the target, in one request",
        arguments: TestDatabase.available)
    func moves(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            func stored(_ layer: String) async throws -> JSONObject? {
                try await client.send(.get, "/v1/epub/preferences/" + layer, token: alice).json?.objectValue
            }
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"fontSize":1.4}"#)
            let down = try await client.send(
                .post, Self.edits + "?deviceClass=eink", token: alice,
                body: #"{"edits":[{"op":"move","key":"fontSize","to":"class"}]}"#)
            #expect(down.status == .ok)
            #expect(try await stored("classes/eink")?["fontSize"] == .number(JSONNumber(1.4)))
            #expect(try await stored("shared")?["fontSize"] == nil)
            #expect(Self.setting("fontSize", in: down)?["source"]?.stringValue == "deviceClass")
            let up = try await client.send(
                .post, Self.edits + "?deviceClass=eink", token: alice,
                body: #"{"edits":[{"op":"move","key":"fontSize","to":"base"}]}"#)
            #expect(up.status == .ok)
            // Down to the base: the class, above it, keeps its own (Specs/Store.md §3.7).
            #expect(try await stored("shared")?["fontSize"] == .number(JSONNumber(1.4)))
            #expect(try await stored("classes/eink")?["fontSize"] == .number(JSONNumber(1.4)))
            let history = try await client.send(
                .get, "/v1/epub/history?layer=shared&key=fontSize", token: alice)
            let causes = history.json?.objectValue?["entries"]?.arrayValue?.compactMap {
                $0.objectValue?["cause"]?.stringValue
            }
            #expect(causes?.suffix(2) == ["move", "move"], "\(causes ?? [])")
            let noClass = try await client.send(
                .post, Self.edits, token: alice,
                body: #"{"edits":[{"op":"move","key":"fontSize","to":"class"}]}"#)
            #expect(noClass.status == .unprocessableContent && noClass.code == "noDeviceClass")
            let badTarget = try await client.send(
                .post, Self.edits, token: alice,
                body: #"{"edits":[{"op":"move","key":"fontSize","to":"moon"}]}"#)
            #expect(badTarget.status == .badRequest)
        }
    }

    @Test(
        "history without a layer takes deviceClass as the settings do: the class's changes are listed, and one is gone back to in the class",
        arguments: TestDatabase.available)
    func classHistory(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"fontSize":1.2}"#)
            for size in ["1.6", "1.8"] {
                let patched = try await client.send(
                    .patch, "/v1/epub/preferences/classes/eink", token: alice,
                    body: #"{"fontSize":\#(size)}"#)
                #expect(patched.status.code < 300)
            }
            func entries(_ query: String) async throws -> [JSONObject] {
                let answer = try await client.send(
                    .get, "/v1/epub/history?key=fontSize" + query, token: alice)
                #expect(answer.status == .ok, "\(query): \(answer.status)")
                return answer.json?.objectValue?["entries"]?.arrayValue?.compactMap(\.objectValue) ?? []
            }
            let layers = { (entries: [JSONObject]) in
                entries.map { "\($0["layer"]?.stringValue ?? "?")/\($0["layerID"]?.stringValue ?? "")" }
            }
            #expect(layers(try await entries("")) == ["shared/"])
            #expect(layers(try await entries("&deviceClass=phone")) == ["shared/"])
            let eink = try await entries("&deviceClass=eink&publication=book")
            #expect(layers(eink) == ["shared/", "deviceClass/eink", "deviceClass/eink"])
            let bad = try await client.send(.get, "/v1/epub/history?deviceClass=E%20Ink", token: alice)
            #expect(bad.status == .badRequest && bad.code == "invalidIdentifier")
            // Back to 1.6, in the class (the layer as the document routes name it).
            let entry = try #require(eink.first { $0["new"] == .number(JSONNumber(1.6)) }?["id"]?.stringValue)
            let revert = try await client.send(
                .post, "/v1/epub/revert", token: alice,
                body: #"{"layer":"classes/eink","key":"fontSize","to":{"entry":"\#(entry)"}}"#)
            #expect(revert.status == .ok)
            let stored = try await client.send(.get, "/v1/epub/preferences/classes/eink", token: alice)
            #expect(stored.json?.objectValue?["fontSize"] == .number(JSONNumber(1.6)))
            let shared = try await client.send(.get, "/v1/epub/preferences/shared", token: alice)
            #expect(shared.json?.objectValue?["fontSize"] == .number(JSONNumber(1.2)))
        }
    }
}
