import Foundation
import Testing

@testable import ReadingPreferences

@Suite("copyFirstValidValue: the first candidate that decodes and validates wins (Specs/Settings.md §5)")
struct CopyFirstValidValueTests {
    @Test("candidates are tried in order; undecodable and missing ones are skipped")
    func firstValid() throws {
        let missing = try Preferences(json: #"{"theme":"dark"}"#)
        let undecodable = try Preferences(json: #"{"fontSize":"big"}"#)
        let valid = try Preferences(json: #"{"fontSize":1.5}"#)
        let later = try Preferences(json: #"{"fontSize":2.5}"#)
        #expect(
            EPUB.fontSize.firstValidValue(from: [missing, undecodable, valid, later], fallback: 1.0) == 1.5)
    }

    @Test("a coerced value is accepted, coerced")
    func coercionAllowed() throws {
        let outOfRange = try Preferences(json: #"{"fontSize":7}"#)
        let later = try Preferences(json: #"{"fontSize":2}"#)
        #expect(EPUB.fontSize.firstValidValue(from: [outOfRange, later], fallback: 1.0) == 5.0)
    }

    @Test("a value the validator rejects is skipped")
    func rejectedSkipped() throws {
        let rejected = try Preferences(json: #"{"mode":"spacious"}"#)
        let accepted = try Preferences(json: #"{"mode":"compact"}"#)
        #expect(TestSchema.mode.firstValidValue(from: [rejected, accepted], fallback: .regular) == .compact)
    }

    @Test("with no valid candidate the fallback wins")
    func fallback() throws {
        let candidates = [try Preferences(json: #"{"theme":"purple"}"#), Preferences()]
        #expect(EPUB.theme.firstValidValue(from: candidates, fallback: .sepia) == .sepia)
        #expect(EPUB.theme.firstValidValue(from: candidates, fallback: nil) == nil)
    }

    @Test("copying stores the canonical JSON of the winner, in place")
    func copyStoresCanonical() throws {
        var target = try Preferences(json: ##"{"backgroundColor":"#000","theme":"dark"}"##)
        let candidate = try Preferences(json: #"{"backgroundColor":"red"}"#)
        target.copyFirstValidValue(of: EPUB.backgroundColor, from: [candidate], fallback: nil)
        #expect(target.jsonString() == ##"{"backgroundColor":"#FF0000","theme":"dark"}"##)

        var sized = Preferences()
        sized.copyFirstValidValue(
            of: EPUB.fontSize, from: [try Preferences(json: #"{"fontSize":9}"#)], fallback: 1)
        #expect(sized.number("fontSize")?.doubleValue == 5.0)
    }

    @Test("copying with no winner and a nil fallback removes the key")
    func copyRemoves() throws {
        var target = try Preferences(json: #"{"theme":"dark","fontSize":1.2}"#)
        target.copyFirstValidValue(
            of: EPUB.theme, from: [try Preferences(json: #"{"theme":1}"#)], fallback: nil)
        #expect(target.jsonString() == #"{"fontSize":1.2}"#)
    }
}

/// Specs/Settings.md §5 `get`: decode the stored JSON with the coder; missing or undecodable is nil; not
/// validated.
@Suite("Preferences.get")
struct PreferencesGetTests {
    @Test("get decodes without validating, reads aliases, and is nil when missing or undecodable")
    func get() throws {
        let preferences: Preferences = ["fontSize": 9, "theme": "purple", "scroll": true, "textColor": "red"]
        #expect(preferences.get(EPUB.fontSize) == 9.0)
        #expect(preferences.get(EPUB.theme) == nil)
        #expect(preferences.get(EPUB.scroll) == true)
        #expect(preferences.get(EPUB.textColor) == RGBColor(red: 0xFF, green: 0, blue: 0))
        #expect(preferences.get(EPUB.lineHeight) == nil)
    }
}
