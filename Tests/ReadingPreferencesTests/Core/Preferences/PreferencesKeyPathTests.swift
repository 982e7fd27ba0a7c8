import Foundation
import Testing

@testable import ReadingPreferences

@Suite("Nested configuration as dotted keys, losslessly (Specs/Resolution.md §9.5)")
struct PreferencesKeyPathTests {
    @Test("nested objects flatten into dotted keys, in order")
    func flattens() throws {
        let nested = try Preferences(
            json: #"{"reader": {"sidebar": {"width": 300, "edge": "left"}}, "theme": "dark"}"#)
        let flat = nested.flattened()
        #expect(flat.keys == ["reader.sidebar.width", "reader.sidebar.edge", "theme"])
        #expect(flat["reader.sidebar.width"] == 300)
    }

    @Test("array elements flatten as .0, .1, and nest back into arrays")
    func arrays() throws {
        let nested = try Preferences(
            json: #"{"fonts": ["Literata", {"name": "Amiri", "scripts": ["arab"]}]}"#)
        let flat = nested.flattened()
        #expect(flat.keys == ["fonts.0", "fonts.1.name", "fonts.1.scripts.0"])
        #expect(flat.nested() == nested)
    }

    @Test("a key containing a dot or a backslash is escaped and comes back whole")
    func escapedKeys() throws {
        let nested = try Preferences(json: #"{"a.b": {"c\\d": 1, "e.f.g": [true]}, "h": {"": 2}}"#)
        let flat = nested.flattened()
        #expect(flat.keys == [#"a\.b.c\\d"#, #"a\.b.e\.f\.g.0"#, "h."])
        #expect(flat.nested() == nested)
        #expect(flat.nested().keys == ["a.b", "h"])
    }

    @Test("an object whose keys look like indices stays an object")
    func indexLikeObjectKeys() throws {
        #expect(try Preferences(json: #"{"0": 1}"#).flattened().keys == ["0"])
        let nested = try Preferences(
            json: #"{"pages": {"0": "cover", "1": "title"}, "list": ["x", "y"], "01": {"1": 1}}"#)
        let flat = nested.flattened()
        #expect(flat.keys == [#"pages.\0"#, #"pages.\1"#, "list.0", "list.1", #"01.\1"#])
        let back = flat.nested()
        #expect(back == nested)
        #expect(back["pages"]?.objectValue != nil)
        #expect(back["list"] == ["x", "y"])
    }

    @Test(
        "empty objects and arrays, nulls and scalars survive the round trip",
        arguments: [
            #"{"a": {}, "b": [], "c": null, "d": [[], {}], "e": 1.50, "f": "x"}"#,
            #"{"deep": {"er": {"est": [0, [1, [2, {"k": "v"}]]]}}}"#,
            #"{"0": "a top-level key needs no marker", "x": {"y": {"0": [], "1": {}}}}"#,
        ])
    func roundTrips(json: String) throws {
        let nested = try Preferences(json: json)
        #expect(nested.flattened().nested() == nested)
        #expect(nested.flattened().nested().jsonString() == nested.jsonString())
    }

    @Test("dotted keys written by hand nest into objects and arrays")
    func handWrittenKeys() throws {
        let flat: Preferences = [
            "reader.sidebar.width": 300, "reader.sidebar.pins.0": "a", "reader.sidebar.pins.1": "b",
        ]
        #expect(flat.nested().jsonString() == #"{"reader":{"sidebar":{"width":300,"pins":["a","b"]}}}"#)
        let data = flat.nestedJSONData()
        #expect(try Preferences(flatteningJSON: data) == flat)
    }

    @Test("indices out of order, or with leading zeros, nest into an object")
    func notAnArray() {
        let outOfOrder: Preferences = ["a.1": "b", "a.0": "a"]
        #expect(outOfOrder.nested().jsonString() == #"{"a":{"1":"b","0":"a"}}"#)
        let padded: Preferences = ["a.00": "x"]
        #expect(padded.nested().jsonString() == #"{"a":{"00":"x"}}"#)
    }
}
