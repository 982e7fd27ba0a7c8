import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReadingPreferences
import Testing

@testable import ReadingPreferencesServer

/// Per-key preconditions of the edits route (Specs/Server.md §5.4): an edit that says the value it
/// replaces conflicts only with a change of that key.
@Suite("Edits say the value they replace")
struct EditExpectationTests {
    static func edits(_ ops: String) -> String { #"{"edits": "# + ops + "}" }

    @Test("a change of another key since the client read is no conflict", arguments: TestDatabase.available)
    func otherKey(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            // Another device changes the line height after the page read the form.
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"lineHeight":1.6}"#)
            let answer = try await client.send(
                .post, "/v1/epub/publications/b/edits", token: alice,
                body: Self.edits(#"[{"key": "fontSize", "op": "increment", "expect": null}]"#))
            #expect(answer.status == .ok, "\(answer.body)")
            let stored = try await client.send(.get, "/v1/epub/preferences/shared", token: alice).json?
                .objectValue
            #expect(stored?["fontSize"] == .number(JSONNumber(1.1)))
            #expect(stored?["lineHeight"] == .number(JSONNumber(1.6)))
        }
    }

    @Test(
        "a change of the same key is 412 naming the key, what was expected and what is stored; nothing is written",
        arguments: TestDatabase.available)
    func sameKey(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"fontSize":1.4}"#)
            let answer = try await client.send(
                .post, "/v1/epub/publications/b/edits", token: alice,
                body: Self.edits(
                    #"[{"key": "theme", "op": "set", "value": "dark"}, {"key": "fontSize", "op": "increment", "expect": 1.2}]"#
                ))
            #expect(answer.status == .preconditionFailed)
            #expect(answer.code == "preconditionFailed")
            let changed = try #require(answer.json?.objectValue?["changed"]?.arrayValue)
            #expect(
                changed == [
                    .object([
                        "key": "fontSize", "expected": .number(JSONNumber(1.2)),
                        "stored": .number(JSONNumber(1.4)),
                    ])
                ])
            let stored = try await client.send(.get, "/v1/epub/preferences/shared", token: alice).json?
                .objectValue
            #expect(stored?["theme"] == nil && stored?["fontSize"] == .number(JSONNumber(1.4)))
            // The value now stored, expected: it applies.
            let again = try await client.send(
                .post, "/v1/epub/publications/b/edits", token: alice,
                body: Self.edits(#"[{"key": "fontSize", "op": "increment", "expect": 1.4}]"#))
            #expect(again.status == .ok)
        }
    }

    @Test("expect on clearAll, which names no key, is 400", arguments: TestDatabase.available)
    func clearAll(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let answer = try await client.send(
                .post, "/v1/epub/publications/b/edits", token: alice,
                body: Self.edits(#"[{"op": "clearAll", "expect": null}]"#))
            #expect(answer.status == .badRequest)
            #expect(answer.code == "invalidEdits")
        }
    }
}

@Suite("What web readers and their tools are told")
struct WebReaderAnswerTests {
    @Test(
        "a body that says it is not JSON is 415, on every route that reads one",
        arguments: TestDatabase.available)
    func unsupportedMediaType(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let plain: HTTPFields = [.contentType: "text/plain", .ifNoneMatch: "*"]
            for (method, uri) in [
                (HTTPRequest.Method.patch, "/v1/epub/preferences/shared"),
                (.put, "/v1/epub/preferences/shared"),
                (.post, "/v1/epub/publications/b/edits"), (.post, "/v1/epub/profiles"),
                (.post, "/v1/sync/push"),
            ] {
                let answer = try await client.send(
                    method, uri, token: alice, body: #"{"fontSize":1.2}"#,
                    headers: plain)
                #expect(answer.status == .unsupportedMediaType, "\(method) \(uri)")
                #expect(answer.code == "unsupportedMediaType")
            }
            // JSON, a merge patch, or no content type at all: read.
            for type in ["application/json", "application/merge-patch+json; charset=utf-8", nil] {
                let answer = try await client.send(
                    .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"fontSize":1.2}"#,
                    headers: type.map { [.contentType: $0] } ?? [:])
                #expect(answer.status == .ok, "\(type ?? "none")")
            }
        }
    }

    @Test(
        "a 422 says what each rejected setting accepts, as the command line does",
        arguments: TestDatabase.available)
    func rejectedSaysExpected(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            let answer = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice,
                body: #"{"theme":"purple","fontSize":"big"}"#)
            #expect(answer.status == .unprocessableContent)
            let errors = try #require(answer.json?.objectValue?["errors"]?.arrayValue)
            let theme = try #require(errors.first { $0.objectValue?["key"] == "theme" }?.objectValue)
            #expect(theme["expected"] == #"one of "light", "dark", "sepia""#)
            #expect(theme["allowed"] == ["light", "dark", "sepia"])
            let size = try #require(errors.first { $0.objectValue?["key"] == "fontSize" }?.objectValue)
            #expect(size["expected"] == "a number from 0.1 to 5")
            #expect(size["allowed"] == nil)
            #expect(answer.json?.objectValue?["detail"]?.stringValue?.contains("(expected one of") == true)
        }
    }

    @Test(
        "the CSS route answers the stylesheet variant, dir, lang and what is not in effect",
        arguments: TestDatabase.available)
    func cssLayout(database: TestDatabase) async throws {
        try await withServer(database) { client, alice, _, _ in
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice,
                body: #"{"theme":"sepia","imageFilter":"invert"}"#)
            let answer = try await client.send(
                .get, "/v1/epub/publications/b/css?language=ar", token: alice)
            let css = try #require(answer.json?.objectValue)
            #expect(css["stylesheets"] == "rtl" && css["dir"] == "rtl" && css["lang"] == "ar")
            #expect(css["properties"]?.objectValue?["--USER__invertImages"] == "readium-invert-on")
            #expect(css["notInEffect"] == ["--USER__invertImages"])
            let etag = try #require(answer.etag)
            let again = try await client.send(
                .get, "/v1/epub/publications/b/css?language=ar", token: alice, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            // The same preferences in a Japanese book: another layout, another tag.
            let japanese = try await client.send(
                .get, "/v1/epub/publications/b/css?language=ja&readingProgression=rtl", token: alice)
            #expect(japanese.json?.objectValue?["stylesheets"] == "cjkVertical")
            #expect(japanese.json?.objectValue?["dir"] == .null)
            #expect(japanese.etag != etag)
        }
    }

    @Test("the form has the catalogue's groups in order and the settings for another layout apart")
    func formGroups() async throws {
        try await withServer(.sqlite) { client, alice, _, _ in
            let form = try await client.send(.get, "/v1/epub/publications/b/form?language=en", token: alice)
            let sections = try #require(form.json?.objectValue?["sections"]?.arrayValue)
            #expect(
                sections.compactMap { $0.objectValue?["id"]?.stringValue } == [
                    "theme", "text", "spacing", "layout", "notForThisPublication",
                ])
        }
    }

    @Test("the form offers the fonts the server is given, keeping the reader's own")
    func fonts() async throws {
        let (app, server) = try await TestDatabase.sqlite.application {
            $0.fonts = ["Literata", "OpenDyslexic"]
        }
        try await app.test(.router) { raw in
            let client = Client(client: raw)
            let alice = try await server.addUser(named: "alice").token
            _ = try await client.send(
                .patch, "/v1/epub/preferences/shared", token: alice, body: #"{"fontFamily":"My Own Font"}"#)
            let form = try await client.send(.get, "/v1/epub/publications/b/form", token: alice)
            let rows = (form.json?.objectValue?["sections"]?.arrayValue ?? []).flatMap {
                $0.objectValue?["rows"]?.arrayValue ?? []
            }
            let row = try #require(rows.first { $0.objectValue?["key"] == "fontFamily" }?.objectValue)
            let options =
                row["control"]?.objectValue?["suggestions"]?.objectValue?["options"]?.arrayValue ?? []
            #expect(
                options.compactMap { $0.objectValue?["label"]?.stringValue } == [
                    "Default", "Literata", "OpenDyslexic", "My Own Font",
                ])
        }
        await server.close()
    }

    @Test("the page's files, its module script and its icon are served with the page's headers")
    func assets() async throws {
        try await withServer(.sqlite) { client, _, _, _ in
            for name in ["settings.js", "form.js", "conflicts.js", "settings.css", "passage.svg"] {
                let answer = try await client.send(.get, "/settings/assets/\(name)", token: nil)
                #expect(answer.status == .ok, "\(name)")
                #expect(answer.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            }
            #expect(
                try await client.send(.get, "/settings/assets/nothing.js", token: nil).status == .notFound)
            let icon = try await client.send(.get, "/favicon.ico", token: nil)
            #expect(icon.status == .ok && icon.headers[.contentType] == "image/x-icon")
            let page = try await client.send(.get, "/settings/epub?title=The%20Time%20Machine", token: nil)
            #expect(page.body.contains(#"<script type="module" src="/settings/assets/settings.js">"#))
            #expect(page.body.contains(#"<link rel="icon" href="/favicon.ico""#))
            // The class and the rule context the page passes on are checked as the API checks them.
            let context =
                "/settings/epub?deviceClass=eink&appearance=dark&time=21:30&collection=manga&readiumCSS=2"
            #expect(try await client.send(.get, context, token: nil).status == .ok)
            for (query, code) in [
                ("deviceClass=E%20INK", "invalidIdentifier"), ("appearance=dusk", "invalidRuleContext"),
                ("time=25:00", "invalidRuleContext"), ("readiumCSS=3", "unknownReadiumCSS"),
            ] {
                let refused = try await client.send(.get, "/settings/epub?" + query, token: nil)
                #expect(refused.status == .badRequest && refused.code == code, "\(query)")
            }
        }
    }
}
