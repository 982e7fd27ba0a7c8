import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Editor progression: steps, increments and adjust (Specs/Settings.md §6)")
struct EditorProgressionTests {
    static let typeScaleSteps = [1.0, 1.067, 1.125, 1.2, 1.25, 1.333, 1.414, 1.5, 1.618]

    // MARK: Steps

    @Test("increments walk up every step and stop at the last one")
    func walkUp() throws {
        var editor = try EPUB.Editor.epub(#"{"typeScale":1.0}"#)
        var visited: [Double] = []
        for _ in 0..<(Self.typeScaleSteps.count + 1) {
            try editor.increment(.typeScale)
            visited.append(try #require(editor[.typeScale].value))
        }
        #expect(visited == Array(Self.typeScaleSteps.dropFirst()) + [1.618, 1.618])
    }

    @Test("decrements walk down every step and stop at the first one")
    func walkDown() throws {
        var editor = try EPUB.Editor.epub(#"{"typeScale":1.618}"#)
        var visited: [Double] = []
        for _ in 0..<(Self.typeScaleSteps.count + 1) {
            try editor.decrement(.typeScale)
            visited.append(try #require(editor[.typeScale].value))
        }
        #expect(visited == Array(Self.typeScaleSteps.reversed().dropFirst()) + [1.0, 1.0])
    }

    @Test(
        "a value between steps snaps to its neighbours",
        arguments: [
            (1.3, 1.333, 1.25),
            (1.1, 1.125, 1.067),
            (1.55, 1.618, 1.5),
        ])
    func betweenSteps(start: Double, up: Double, down: Double) throws {
        var incremented = try EPUB.Editor.epub(#"{"typeScale":\#(start)}"#)
        try incremented.increment(.typeScale)
        #expect(incremented[.typeScale].value == up)
        var decremented = try EPUB.Editor.epub(#"{"typeScale":\#(start)}"#)
        try decremented.decrement(.typeScale)
        #expect(decremented[.typeScale].value == down)
    }

    @Test("a value above the last step decrements to the last step, and increments to itself")
    func aboveLastStep() throws {
        var editor = try EPUB.Editor.epub(#"{"typeScale":1.9}"#)
        try editor.decrement(.typeScale)
        #expect(editor[.typeScale].value == 1.618)

        var kept = try EPUB.Editor.epub(#"{"typeScale":1.9}"#)
        try kept.increment(.typeScale)
        #expect(kept[.typeScale].value == 1.9)

        var test = try TestEditor.test(#"{"scale":2.8}"#)
        try test.decrement(.scale)
        #expect(test[.scale].value == 2.0)
    }

    @Test("a stored value outside the range steps from its coerced value")
    func steppedFromCoerced() throws {
        var up = try EPUB.Editor.epub(#"{"typeScale":2.5,"publisherStyles":false}"#)
        try up.increment(.typeScale)
        #expect(up.preferences.jsonString() == #"{"typeScale":2,"publisherStyles":false}"#)

        var down = try EPUB.Editor.epub(#"{"typeScale":2.5}"#)
        try down.decrement(.typeScale)
        #expect(down[.typeScale].value == 1.618)
    }

    @Test("a value below the first step increments to the first step, and decrements to itself")
    func belowFirstStep() throws {
        var editor = try TestEditor.test(#"{"scale":0.7}"#)
        try editor.increment(.scale)
        #expect(editor[.scale].value == 1.0)

        var kept = try TestEditor.test(#"{"scale":0.7}"#)
        try kept.decrement(.scale)
        #expect(kept[.scale].value == 0.7)
    }

    @Test(
        "steps are compared with a tolerance of 0.001",
        arguments: [
            (1.2005, true, 1.25),  // 1.2 is not above 1.2005
            (1.1995, true, 1.25),  // 1.2 is within the tolerance above 1.1995
            (1.2005, false, 1.125),  // 1.2 is within the tolerance below 1.2005
            (1.2015, false, 1.2),
            (1.1985, true, 1.2),
        ])
    func tolerance(start: Double, up: Bool, expected: Double) throws {
        var editor = try EPUB.Editor.epub(#"{"typeScale":\#(start)}"#)
        if up {
            try editor.increment(.typeScale)
        } else {
            try editor.decrement(.typeScale)
        }
        #expect(editor[.typeScale].value == expected)
    }

    @Test("an unset stepped setting starts from its effective value")
    func unsetStepped() throws {
        var editor = try EPUB.Editor.epub()
        #expect(editor[.typeScale].effectiveValue == 1.2)
        try editor.increment(.typeScale)
        #expect(editor[.typeScale].value == 1.25)

        var down = try TestEditor.test()
        try down.decrement(.scale)
        #expect(down[.scale].value == 1.0)
    }

    // MARK: Increments

    @Test("three increments of 0.1 from 1.0 store exactly 1.3")
    func threeIncrements() throws {
        var editor = try TestEditor.test(#"{"size":1.0}"#)
        for _ in 0..<3 { try editor.increment(.size) }
        let stored = try #require(editor.preferences.number("size"))
        #expect(stored.doubleValue == 1.3)
        #expect(stored.text == "1.3")

        var epub = try EPUB.Editor.epub()
        for _ in 0..<3 { try epub.increment(.fontSize) }
        #expect(epub.preferences.number("fontSize")?.text == "1.3")
    }

    @Test("ten increments and ten decrements of 0.1 come back to exactly 1.0")
    func roundTrip() throws {
        var editor = try TestEditor.test(#"{"size":1.0}"#)
        for _ in 0..<10 { try editor.increment(.size) }
        #expect(editor.preferences.number("size")?.text == "2")
        for _ in 0..<10 { try editor.decrement(.size) }
        #expect(editor.preferences.number("size")?.text == "1")
    }

    @Test(
        "adjust(by:) rounds to the digits of the start and the amount",
        arguments: [
            (1.25, 0.1, 1.35, "1.35"),
            (0.35, 0.3, 0.65, "0.65"),
            (1.0, 0.2, 1.2, "1.2"),
            (0.7, 0.1, 0.8, "0.8"),
            (2.3, -0.1, 2.2, "2.2"),
        ])
    func adjustRounds(start: Double, amount: Double, expected: Double, text: String) throws {
        var editor = try TestEditor.test(#"{"size":\#(start)}"#)
        try editor.adjust(.size, by: amount)
        let stored = try #require(editor.preferences.number("size"))
        #expect(stored.doubleValue == expected)
        #expect(stored.text == text)
    }

    @Test("adjust(by:) ignores steps")
    func adjustIgnoresSteps() throws {
        var editor = try EPUB.Editor.epub(#"{"typeScale":1.2,"publisherStyles":false}"#)
        try editor.adjust(.typeScale, by: 0.01)
        #expect(editor.preferences.number("typeScale")?.text == "1.21")
    }

    @Test("incrementing an unset preference writes the effective value plus the increment")
    func unsetIncrement() throws {
        var editor = try TestEditor.test()
        try editor.increment(.size)
        #expect(editor.preferences.jsonString() == #"{"size":1.1}"#)

        var defaults = SettingValueTable<TestSchema>()
        defaults[.size] = 1.5
        var withDefault = try TestEditor.test(defaults: defaults)
        try withDefault.decrement(.size)
        #expect(withDefault.preferences.jsonString() == #"{"size":1.4}"#)

        var epub = try EPUB.Editor.epub()
        try epub.increment(.pageMargins)
        #expect(epub.preferences.jsonString() == #"{"pageMargins":1.3}"#)
    }

    @Test("an increment from an undecodable stored value starts from the effective value")
    func undecodableStart() throws {
        var editor = try TestEditor.test(#"{"size":"big"}"#)
        try editor.increment(.size)
        #expect(editor.preferences.jsonString() == #"{"size":1.1}"#)
    }

    @Test("decrement at the lower bound stays at the bound, increment at the upper bound too")
    func bounds() throws {
        var low = try TestEditor.test(#"{"size":0.1}"#)
        try low.decrement(.size)
        #expect(low.preferences.number("size")?.text == "0.1")

        var high = try TestEditor.test(#"{"size":5}"#)
        try high.increment(.size)
        #expect(high.preferences.number("size")?.doubleValue == 5.0)

        var percent = try TestEditor.test(#"{"opacity":0}"#)
        try percent.decrement(.opacity)
        #expect(percent.preferences.number("opacity")?.doubleValue == 0)
    }

    @Test("an increment that would pass a bound stops at it")
    func incrementSaturates() throws {
        var editor = try TestEditor.test(#"{"opacity":0.95}"#)
        try editor.increment(.opacity)
        #expect(editor.preferences.number("opacity")?.doubleValue == 1.0)
    }

    @Test("adjust(by:) saturates at both bounds", arguments: [(100.0, 5.0), (-100.0, 0.1)])
    func adjustSaturates(amount: Double, bound: Double) throws {
        var editor = try TestEditor.test(#"{"size":2.5}"#)
        try editor.adjust(.size, by: amount)
        #expect(editor.preferences.number("size")?.doubleValue == bound)
    }

    @Test("an Int range increments by 1 and stores an integer")
    func intRange() throws {
        var editor = try TestEditor.test(#"{"count":2}"#)
        try editor.increment(.count)
        #expect(editor.preferences.number("count")?.text == "3")
        #expect(editor[.count].value == 3)
        try editor.decrement(.count)
        try editor.decrement(.count)
        #expect(editor.preferences.number("count")?.text == "1")
        try editor.decrement(.count)
        #expect(editor.preferences.number("count")?.text == "1")
    }

    @Test("an Int stored with a zero fraction increments to an integer without fraction")
    func intFromZeroFraction() throws {
        var editor = try TestEditor.test(#"{"count":2.0}"#)
        try editor.increment(.count)
        #expect(editor.preferences.number("count")?.text == "3")

        var unset = try TestEditor.test()
        try unset.increment(.count)
        #expect(unset.preferences.jsonString() == #"{"count":3}"#)
    }

    @Test("an increment starts from the stored value coerced into the range")
    func coercedStart() throws {
        var up = try TestEditor.test(#"{"size":9.0}"#)
        try up.increment(.size)
        #expect(up.preferences.number("size")?.doubleValue == 5.0)

        var down = try TestEditor.test(#"{"size":9.0}"#)
        try down.decrement(.size)
        #expect(down.preferences.number("size")?.text == "4.9")

        var epub = try EPUB.Editor.epub(#"{"fontSize":9.0}"#)
        try epub.decrement(.fontSize)
        #expect(epub.preferences.number("fontSize")?.text == "4.9")
    }

    // MARK: Update

    @Test("update transforms the stored value when there is one")
    func updateStored() throws {
        var editor = try TestEditor.test(#"{"size":1.5}"#)
        try editor.update(.size) { $0 * 2 }
        #expect(editor[.size].value == 3.0)
    }

    @Test("update transforms the effective value when nothing is stored")
    func updateEffective() throws {
        var editor = try TestEditor.test()
        try editor.update(.size) { $0 * 2 }
        #expect(editor[.size].value == 2.0)

        var defaults = EPUB.Defaults()
        defaults[.pageMargins] = 1.5
        var epub = try EPUB.Editor.epub(defaults: defaults)
        try epub.update(.pageMargins) { $0 + 1 }
        #expect(epub[.pageMargins].value == 2.5)

        var lineHeight = try EPUB.Editor.epub()
        try lineHeight.update(.lineHeight) { $0 + 0.5 }
        #expect(lineHeight[.lineHeight].value == 1.7)
    }

    @Test("update validates its result like set")
    func updateValidates() throws {
        var editor = try TestEditor.test(#"{"size":1.5}"#)
        try editor.update(.size) { $0 * 100 }
        #expect(editor[.size].value == 5.0)
        #expect(editError { try editor.update(.size) { _ in .nan } }?.code == .notANumber)
        #expect(editor[.size].value == 5.0)
    }

    @Test("a Double range without an increment steps by 0.1")
    func defaultIncrement() throws {
        var editor = try TestEditor.test(#"{"gutter":0.5}"#)
        try editor.increment(.gutter)
        #expect(editor.preferences.number("gutter")?.text == "0.6")
    }

    @Test("rounding keeps at most 10 fraction digits")
    func roundingCap() throws {
        var editor = try TestEditor.test(#"{"opacity":1e-12}"#)
        try editor.adjust(.opacity, by: 0.1)
        #expect(editor.preferences.number("opacity")?.text == "0.1")
    }
}
