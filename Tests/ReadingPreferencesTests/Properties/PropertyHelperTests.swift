import TestSupport
import Testing

@testable import ReadingPreferences

@Suite("The property-testing helper")
struct PropertyHelperTests {
    @Test("a seed always generates the same input")
    func deterministic() {
        for seed: UInt64 in [0, 1, 0xDEAD_BEEF, .max] {
            var first = PropertyRandom(seed: seed)
            var second = PropertyRandom(seed: seed)
            let a = LawInput.generate(for: EPUB.catalogue, &first)
            let b = LawInput.generate(for: EPUB.catalogue, &second)
            #expect(a.description == b.description)
        }
    }

    @Test("each law draws its own seeds, at least 1,000 of them by default")
    func seeds() {
        guard PropertyConfiguration.seedSetting == nil, PropertyConfiguration.cases >= 1_000 else { return }
        let a = propertySeeds("law a")
        let b = propertySeeds("law b")
        #expect(a.count >= 1_000)
        #expect(Set(a).count == a.count)
        #expect(a != b)
        #expect(a == propertySeeds("law a"))
    }

    @Test("a broken law reports its seed and shrinks to the smallest failing document")
    func shrinksDocuments() throws {
        // Broken on purpose: no document may store fontSize.
        let found = findCounterexample(
            "broken on purpose", generate: { LawInput.generate(for: EPUB.catalogue, &$0) }, shrink: \.shrunk
        ) { input in
            try ensure(try input.document.preferences["fontSize"] == nil, "fontSize is stored")
        }
        let counterexample = try #require(found)
        #expect(counterexample.input.document.members.count == 1)
        #expect(counterexample.input.document.members.first?.key == "fontSize")
        #expect(counterexample.input.edits.isEmpty)
        #expect(counterexample.input.other.members.isEmpty)
        #expect(counterexample.input.keys.isEmpty)
        // The failing case replays from its seed.
        var random = PropertyRandom(seed: counterexample.seed)
        #expect(try LawInput.generate(for: EPUB.catalogue, &random).document.preferences["fontSize"] != nil)
    }

    @Test("numbers shrink toward 0 and strings toward empty")
    func shrinksValues() throws {
        let found = findCounterexample(
            "numbers above 1 are rare", generate: { random in Gen.value(&random) },
            shrink: Shrink.value
        ) { value in
            if case .number(let number) = value { try ensure(number.doubleValue <= 1, "too big") }
            if case .string(let text) = value { try ensure(text.unicodeScalars.count < 3, "too long") }
        }
        let counterexample = try #require(found)
        switch counterexample.input {
        case .number(let number): #expect(number.doubleValue < 4 || !number.isFinite)
        case .string(let text): #expect(text.unicodeScalars.count == 3)
        default: Issue.record("shrunk to \(counterexample.input)")
        }
    }
}
