import Foundation
import Testing

@testable import ReadingPreferences

@Suite(
    "Preferences filter, merging and merge patch (Specs/Preferences.md §2, Specs/Settings.md §5, Specs/Resolution.md §6)"
)
struct PreferencesCombiningTests {
    static let sample =
        #"{"theme":"dark","x-unknown":1,"fontSize":1.2,"$version":3,"language":"fr","spread":"auto"}"#

    // MARK: Filter

    @Test("filter(keys:) keeps only those keys, unknown ones included, in stored order")
    func filterKeys() throws {
        let preferences = try Preferences(json: Self.sample)
        let kept = preferences.filter(keys: ["fontSize", "x-unknown", "missing"])
        #expect(kept.jsonString() == #"{"x-unknown":1,"fontSize":1.2}"#)
    }

    @Test("filterNot(keys:) drops those keys, unknown ones included")
    func filterNotKeys() throws {
        let preferences = try Preferences(json: Self.sample)
        let dropped = preferences.filterNot(keys: ["fontSize", "x-unknown", "$version"])
        #expect(dropped.jsonString() == #"{"theme":"dark","language":"fr","spread":"auto"}"#)
    }

    @Test("filter and filterNot by descriptors use the descriptors' keys")
    func filterDescriptors() throws {
        let preferences = try Preferences(json: Self.sample)
        let settings = [EPUB.theme.descriptor, EPUB.language.descriptor, EPUB.scroll.descriptor]
        #expect(preferences.filter(settings).jsonString() == #"{"theme":"dark","language":"fr"}"#)
        #expect(
            preferences.filterNot(settings).jsonString()
                == #"{"x-unknown":1,"fontSize":1.2,"$version":3,"spread":"auto"}"#)
    }

    @Test("filter and filterNot split preferences into two disjoint parts")
    func filterPartitions() throws {
        let preferences = try Preferences(json: Self.sample)
        let keys = ["theme", "x-unknown", "$version"]
        let kept = preferences.filter(keys: keys)
        let dropped = preferences.filterNot(keys: keys)
        #expect(kept.count + dropped.count == preferences.count)
        #expect(kept.merging(dropped) == preferences)
    }

    // MARK: Merging

    @Test("merging is right-biased and keeps self's order, then the new keys of other")
    func merging() throws {
        let base = try Preferences(json: #"{"a":1,"b":2,"c":3}"#)
        let other = try Preferences(json: #"{"d":4,"b":20,"e":5}"#)
        let merged = base.merging(other)
        #expect(merged.jsonString() == #"{"a":1,"b":20,"c":3,"d":4,"e":5}"#)
        #expect(base.jsonString() == #"{"a":1,"b":2,"c":3}"#)

        var mutated = base
        mutated.merge(other)
        #expect(mutated.jsonString() == merged.jsonString())
    }

    @Test("merging empty preferences changes nothing, either way")
    func mergingEmpty() throws {
        let base = try Preferences(json: #"{"b":1,"a":2}"#)
        #expect(base.merging(Preferences()).jsonString() == #"{"b":1,"a":2}"#)
        #expect(Preferences().merging(base).jsonString() == #"{"b":1,"a":2}"#)
    }

    // MARK: Merge patch

    @Test("a merge patch removes null members, merges nested objects and keeps order")
    func mergePatch() throws {
        let base = try Preferences(json: #"{"theme":"dark","nested":{"x":1,"y":2},"k":1,"arr":[1,2]}"#)
        let patch = try #require(
            try JSONValue(json: #"{"theme":null,"nested":{"y":null,"z":3},"arr":[3],"new":true,"gone":null}"#)
                .objectValue)
        let patched = base.applying(mergePatch: patch)
        #expect(patched.jsonString() == #"{"nested":{"x":1,"z":3},"k":1,"arr":[3],"new":true}"#)
    }

    @Test("a merge patch object replaces a non-object value, without its null members")
    func mergePatchReplacesScalar() throws {
        let base = try Preferences(json: #"{"a":1}"#)
        let patch: JSONObject = ["a": ["b": 1, "c": nil]]
        #expect(base.applying(mergePatch: patch).jsonString() == #"{"a":{"b":1}}"#)
    }

    @Test("an empty merge patch changes nothing")
    func emptyPatch() throws {
        let base = try Preferences(json: Self.sample)
        #expect(base.applying(mergePatch: JSONObject()).jsonString() == Self.sample)
    }

    // MARK: Shared and publication scopes

    static let scopeSamples = [
        Self.sample,
        #"{}"#,
        #"{"verticalText":true,"offsetFirstPage":false,"readingProgression":"rtl"}"#,
        #"{"x":1,"spread":"never","$v":1,"fontSize":2,"language":"ja","y":[null]}"#,
    ]

    @Test("publication preferences merged with shared ones have the same entries", arguments: scopeSamples)
    func scopesPartition(json: String) throws {
        let preferences = try Preferences(json: json)
        let publication = preferences.filterPublicationPreferences(of: EPUB.self)
        let shared = preferences.filterSharedPreferences(of: EPUB.self)
        #expect(publication.merging(shared) == preferences)
        #expect(publication.count + shared.count == preferences.count)
    }

    @Test("publication preferences hold only EPUB's publication keys; unknown keys stay with shared")
    func scopeContents() throws {
        let preferences = try Preferences(json: Self.sample)
        #expect(
            preferences.filterPublicationPreferences(of: EPUB.self).jsonString()
                == #"{"language":"fr","spread":"auto"}"#)
        #expect(
            preferences.filterSharedPreferences(of: EPUB.self).jsonString()
                == #"{"theme":"dark","x-unknown":1,"fontSize":1.2,"$version":3}"#)
        #expect(
            Set(EPUB.publicationKeys) == [
                "language", "offsetFirstPage", "readingProgression", "spread", "verticalText",
            ])
    }
}
