import Testing

@testable import ReadingPreferences

@Suite("JSON objects")
struct JSONObjectTests {
    @Test("Setting an existing key keeps its position; a new key is appended; nil removes")
    func subscriptSemantics() {
        var object: JSONObject = ["theme": "dark", "fontSize": 1.2, "scroll": false]
        object["fontSize"] = 1.5
        #expect(object.keys == ["theme", "fontSize", "scroll"])
        #expect(object["fontSize"] == 1.5)
        object["columnCount"] = "2"
        #expect(object.keys == ["theme", "fontSize", "scroll", "columnCount"])
        object["theme"] = nil
        #expect(object.keys == ["fontSize", "scroll", "columnCount"])
        #expect(object["theme"] == nil)
        #expect(object.count == 3)
        #expect(!object.isEmpty)
    }

    @Test("A stored null is a value, distinct from an absent key")
    func storedNull() {
        var object = JSONObject()
        object["a"] = .null
        #expect(object["a"] == .null)
        #expect(object.count == 1)
    }

    @Test("index(forKey:) and removeValue(forKey:) find keys by scalars")
    func indexAndRemove() {
        var object: JSONObject = ["caf\u{E9}": 1, "b": 2]
        #expect(object.index(forKey: "b") == 1)
        #expect(object.index(forKey: "cafe\u{301}") == nil)
        #expect(object.removeValue(forKey: "cafe\u{301}") == nil)
        #expect(object.removeValue(forKey: "caf\u{E9}") == 1)
        #expect(object.keys == ["b"])
        #expect(object.removeValue(forKey: "b") == 2)
        #expect(object.isEmpty)
    }

    @Test("init(members:) applies the duplicate rule: last value, first position")
    func membersInit() {
        let object = JSONObject(members: [
            .init(key: "a", value: 1), .init(key: "b", value: 2), .init(key: "a", value: 3),
        ])
        #expect(object.members == [.init(key: "a", value: 3), .init(key: "b", value: 2)])
        let literal: JSONObject = ["x": 1, "y": 2, "x": 3]
        #expect(literal.keys == ["x", "y"])
        #expect(literal["x"] == 3)
    }

    @Test("Precomposed and decomposed keys are two members")
    func scalarKeys() {
        var object = JSONObject()
        object["caf\u{E9}"] = 1
        object["cafe\u{301}"] = 2
        #expect(object.count == 2)
        #expect(object["caf\u{E9}"] == 1)
        #expect(object["cafe\u{301}"] == 2)
        let swapped: JSONObject = ["caf\u{E9}": 2, "cafe\u{301}": 1]
        #expect(object != swapped)
    }

    @Test("== ignores order and hashing agrees")
    func orderInsensitive() {
        let first: JSONObject = ["a": 1, "b": [true], "c": ["d": nil]]
        let second: JSONObject = ["c": ["d": nil], "a": 1.0, "b": [true]]
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != ["a": 1, "b": [false], "c": ["d": nil]])
        #expect(Set([first, second]).count == 1)
    }

    @Test("Large objects compare by key lookup, in any order")
    func largeObjects() {
        let members = (0..<100).map { JSONObject.Member(key: "k\($0)", value: .number(JSONNumber($0))) }
        let first = JSONObject(members: members)
        let second = JSONObject(members: members.reversed())
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        var changed = second
        changed["k50"] = "x"
        #expect(first != changed)
        var renamed = second
        renamed["k50"] = nil
        renamed["k500"] = 50
        #expect(first != renamed)
    }

    @Test("Members compare keys by scalars")
    func memberEquality() {
        #expect(
            JSONObject.Member(key: "caf\u{E9}", value: 1) != JSONObject.Member(key: "cafe\u{301}", value: 1))
        #expect(JSONObject.Member(key: "a", value: 1) == JSONObject.Member(key: "a", value: 1.0))
    }
}
