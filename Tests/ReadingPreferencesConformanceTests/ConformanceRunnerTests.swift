import Foundation
import ReadingPreferences
import ReadingPreferencesConformance
import Testing

/// The runner itself: it passes what conforms, and it can fail, saying what differed (Specs/README.md §1).
@Suite("The conformance runner")
struct ConformanceRunnerTests {
    let runner = ConformanceRunner()

    private func results(_ file: String) -> [ConformanceResult] {
        runner.loadCases(file: ConformancePaths.fixture(file), label: file).map { runner.run($0) }
    }

    /// Runs one case written as JSON text.
    private func run(_ json: String) -> ConformanceResult {
        let entries = ConformanceRunner.cases(in: Data(json.utf8), label: "inline.json")
        #expect(entries.count == 1)
        return entries.first.map { runner.run($0) } ?? ConformanceResult(name: "", failures: ["no case"])
    }

    @Test("a conforming vector file passes every case, with the example of Specs/README.md §3 among them")
    func passingFile() {
        let results = results("passing.json")
        #expect(results.count == 3)
        for result in results { #expect(result.passed, "\(result.line)") }
        #expect(results.first?.line == "PASS word spacing activates by turning publisher styles off")
    }

    @Test("a malformed case fails with a message naming the file and the member")
    func malformedCase() {
        let results = results("malformed.json")
        #expect(results.map(\.passed) == [true, false])
        let line = results.last?.line ?? ""
        #expect(line.hasPrefix(#"FAIL malformed.json[1]: edits[1].op: unknown op "sett""#), "\(line)")
    }

    @Test("a file that is not JSON is one failed case naming the file and the byte offset")
    func invalidJSON() {
        let results = results("not-json.json")
        #expect(results.count == 1)
        #expect(
            results.first?.line == "FAIL not-json.json: invalid JSON: unexpected character '}' at byte 44")
    }

    @Test("a path that does not exist is one failed case")
    func missingPath() {
        let report = runner.run(paths: [ConformancePaths.fixture("no-such-file.json")])
        #expect(report.summary == "0 passed, 1 failed")
        #expect(report.results.first?.failures == ["no such file or folder"])
    }

    @Test("an unknown configurable fails with a message listing the known ones")
    func unknownConfigurable() {
        let results = results("configurables.json")
        #expect(
            results.first?.line
                == #"FAIL a configurable nobody declares: configurable: unknown configurable "comics" (expected "epub", "pdf", "audio" or "tts")"#
        )
    }

    @Test(
        "pdf, audio and tts cases run, with css, layout and the environment ignored where they do not apply")
    func everyConfigurableRuns() {
        let results = results("configurables.json").dropFirst()
        #expect(results.count == 3)
        for result in results { #expect(result.passed, "\(result.line)") }
    }

    @Test("wrong expectations fail, each difference named by member and key")
    func wrongExpectations() {
        let result = results("wrong-expectation.json")
        #expect(result.count == 1)
        let failures = result.first?.failures ?? []
        let expected = [
            #"edits[1] (set theme "dark"): expected error unsupportedValue, but the edit succeeded"#,
            "edits[2] (increment theme): unexpected error wrongKind (theme: this operation does not apply to this kind of setting)",
            "preferences.fontSize: expected 1.2, got 1.1",
            "preferences.scroll: expected true, got not stored",
            #"preferences.theme: not expected, got "dark""#,
            #"keyOrder: expected ["theme","fontSize"], got ["fontSize","theme"]"#,
            "settings.fontSize: expected 1.2, got 1.1",
            "settings.noSuchSetting: no such setting",
            "effective.wordSpacing: expected true, got false (needsStylesheet(default), requiresPreference(publisherStyles, false), noValue)",
            #"formatted.fontSize: expected "120%", got "110%""#,
            #"layout.stylesheets: expected "default", got "rtl""#,
            #"layout.htmlDir: expected null, got "rtl""#,
            #"layout.language: expected "en", got "ar""#,
            #"css.--USER__appearance: expected absent, got "readium-night-on""#,
            "diagnostics: missing {fontSize, typeMismatch}",
        ]
        #expect(failures == expected)
    }

    @Test("numbers compare exactly: 1.3 is not the sum of three 0.1 increments done naively")
    func exactNumbers() {
        let result = run(
            #"{"name": "n", "configurable": "epub", "preferences": {"fontSize": 1.3000000000000003},"#
                + #" "expect": {"preferences": {"fontSize": 1.3}, "settings": {"fontSize": 1.3}}}"#)
        #expect(
            result.failures == [
                "preferences.fontSize: expected 1.3, got 1.3000000000000003",
                "settings.fontSize: expected 1.3, got 1.3000000000000003",
            ])
    }

    @Test("stored strings compare exactly, but resolved colors compare in canonical form")
    func colorComparison() {
        let result = run(
            ##"{"name": "c", "configurable": "epub", "edits": [{"op": "set", "key": "textColor", "value": "red"}],"##
                + ##" "expect": {"preferences": {"textColor": "#ff0000"}, "settings": {"textColor": "red"},"##
                + ##" "effectiveValues": {"textColor": "#F00"}}}"##)
        #expect(result.failures == [##"preferences.textColor: expected "#ff0000", got "#FF0000""##])
    }

    @Test("an edit that fails with another code than expected fails the case")
    func wrongErrorCode() {
        let result = run(
            #"{"name": "e", "configurable": "epub","#
                + #" "edits": [{"op": "set", "key": "fontSize", "value": "big", "expectError": "unsupportedValue"}]}"#
        )
        #expect(
            result.failures == [
                #"edits[0] (set fontSize "big"): expected error unsupportedValue, got typeMismatch (fontSize: the value has the wrong JSON type)"#
            ])
    }

    @Test("an expected error passes when the preferences are left exactly as they were")
    func expectedError() {
        let result = run(
            #"{"name": "e", "configurable": "epub", "preferences": {"theme": "sepia", "fontSize": 1.50},"#
                + #" "edits": [{"op": "set", "key": "theme", "value": "purple", "expectError": "unsupportedValue"},"#
                + #" {"op": "activate", "key": "nope", "expectError": "unknownKey"}],"#
                + #" "expect": {"keyOrder": ["theme", "fontSize"]}}"#)
        #expect(result.passed, "\(result.line)")
    }

    /// Malformed members and the message that names them.
    static let malformedCases: [(json: String, message: String)] = [
        (#"{"name": "x"}"#, #"configurable: missing (one of "epub", "pdf", "audio" or "tts")"#),
        (#"{"configurable": 3}"#, "configurable: expected a string, got number 3"),
        (#"{"configurable": "epub", "edits": {}}"#, "edits: expected an array, got object"),
        (#"{"configurable": "epub", "edits": [3]}"#, "edits[0]: expected an object, got number 3"),
        (
            #"{"configurable": "epub", "edits": [{"key": "theme"}]}"#,
            "edits[0].op: missing (one of \"set\", \"clear\", \"clearAll\", \"toggle\", \"toggleValue\", \"increment\", \"decrement\", \"adjustBy\" or \"activate\")"
        ),
        (
            #"{"configurable": "epub", "edits": [{"op": "set", "key": "theme"}]}"#,
            "edits[0].value: missing (set needs a value; null clears)"
        ),
        (
            #"{"configurable": "epub", "edits": [{"op": "toggleValue", "key": "theme"}]}"#,
            "edits[0].value: missing (toggleValue needs a value)"
        ),
        (
            #"{"configurable": "epub", "edits": [{"op": "increment"}]}"#,
            "edits[0].key: missing (increment needs a key)"
        ),
        (
            #"{"configurable": "epub", "edits": [{"op": "adjustBy", "key": "fontSize", "amount": "1"}]}"#,
            #"edits[0].amount: expected a number, got string "1""#
        ),
        (
            #"{"configurable": "epub", "edits": [{"op": "adjustBy", "key": "fontSize"}]}"#,
            "edits[0].amount: missing (adjustBy needs an amount)"
        ),
        (
            #"{"configurable": "epub", "edits": [{"op": "set", "key": "a", "value": 1, "activate": "no"}]}"#,
            #"edits[0].activate: expected true or false, got string "no""#
        ),
        (
            #"{"configurable": "epub", "edits": [{"op": "clear", "key": "a", "expectError": "nope"}]}"#,
            #"edits[0].expectError: unknown error code "nope" (expected one of typeMismatch, unsupportedValue, notANumber, unknownKey, wrongKind, notActivatable)"#
        ),
        (
            #"{"configurable": "epub", "publication": {"layout": "fluid"}}"#,
            #"publication.layout: expected "reflowable" or "fixed", got "fluid""#
        ),
        (
            #"{"configurable": "epub", "publication": {"languages": ["en", 1]}}"#,
            "publication.languages[1]: expected a string, got number 1"
        ),
        (
            #"{"configurable": "epub", "publication": {"readingProgression": "ttb"}}"#,
            #"publication.readingProgression: expected "ltr", "rtl" or "auto", got "ttb""#
        ),
        (
            #"{"configurable": "epub", "environment": {"appearance": "dim"}}"#,
            #"environment.appearance: expected "light" or "dark", got "dim""#
        ),
        (
            #"{"configurable": "epub", "environment": {"forceScroll": 1}}"#,
            "environment.forceScroll: expected true or false, got number 1"
        ),
        (#"{"configurable": "epub", "preferences": []}"#, "preferences: expected an object, got array"),
        (
            #"{"configurable": "epub", "fonts": [{"alternates": []}]}"#,
            "fonts[0].name: missing (the family name)"
        ),
        (
            #"{"configurable": "epub", "overrides": {"--USER__view": 1}}"#,
            "overrides.--USER__view: expected a string or null, got number 1"
        ),
        (
            #"{"configurable": "epub", "rsProperties": {"--RS__x": null}}"#,
            "rsProperties.--RS__x: expected a string, got null null"
        ),
        (
            #"{"configurable": "epub", "expect": {"effective": {"fontSize": "yes"}}}"#,
            #"expect.effective.fontSize: expected true or false, got string "yes""#
        ),
        (
            #"{"configurable": "epub", "expect": {"css": {"--USER__view": 1}}}"#,
            "expect.css.--USER__view: expected a string or null, got number 1"
        ),
        (
            #"{"configurable": "epub", "expect": {"layout": {"stylesheets": "cjk"}}}"#,
            #"expect.layout.stylesheets: expected "default", "rtl", "cjkHorizontal" or "cjkVertical", got "cjk""#
        ),
        (
            #"{"configurable": "epub", "expect": {"layout": {"htmlDir": "auto"}}}"#,
            #"expect.layout.htmlDir: expected "ltr", "rtl" or null, got string "auto""#
        ),
        (
            #"{"configurable": "epub", "expect": {"diagnostics": [{"key": "a", "code": "bad"}]}}"#,
            #"expect.diagnostics[0].code: unknown diagnostic code "bad" (expected one of typeMismatch, unsupportedValue, outOfRange, unknownKey, duplicateKey, renamedKey)"#
        ),
        (
            #"{"configurable": "epub", "expect": {"keyOrder": "fontSize"}}"#,
            #"expect.keyOrder: expected an array, got string "fontSize""#
        ),
        (#"{"configurable": "epub", "expect": []}"#, "expect: expected an object, got array"),
    ]

    @Test("a malformed member fails the case with its path", arguments: malformedCases)
    func malformedMember(_ json: String, _ message: String) {
        let result = run(json)
        #expect(result.name == "inline.json")
        #expect(result.failures == [message])
    }

    @Test("null members count as missing and unknown members are ignored")
    func nullAndUnknownMembers() {
        let result = run(
            #"{"name": "n", "configurable": "epub", "source": "Specs/README.md §3", "notes": [1, 2], "publication": null,"#
                + #" "defaults": null, "preferences": null, "environment": null, "edits": null, "fonts": null,"#
                + #" "expect": {"preferences": {}, "settings": null, "layout": {"stylesheets": "default"}}}"#)
        #expect(result.passed, "\(result.line)")
    }

    @Test("folders are searched recursively, in sorted order, and labelled relative to the folder")
    func folderOrder() {
        let labels = runner.loadCases(at: [ConformancePaths.fixtures]).map(\.label)
        #expect(labels.first == "configurables.json[0]")
        #expect(labels.contains("nested/a-first.json"))
        let nested = labels.filter { $0.hasPrefix("nested/") }
        #expect(nested == ["nested/a-first.json", "nested/b-second.json"])
        #expect(labels == labels.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test("the report counts passes and failures, and a failed read counts as a failure")
    func reportCounts() {
        let report = runner.run(paths: [ConformancePaths.fixtures])
        #expect(report.summary == "9 passed, 4 failed")
        #expect(!report.allPassed)
        #expect(ConformanceReport(results: []).allPassed)
    }

    @Test("a case built in code runs like one read from JSON")
    func caseInCode() {
        var expectation = ConformanceExpectation()
        expectation.settings = ["fontSize": 1.1]
        expectation.formatted = [.init(key: "fontSize", value: "110%")]
        let testCase = ConformanceCase(
            name: "in code", configurable: "epub", edits: [.init(.increment(key: "fontSize"))],
            expectation: expectation)
        #expect(runner.run(testCase).line == "PASS in code")
    }
}
