import Foundation
import Testing

@testable import ReadingPreferences

@Suite("JSON values")
struct JSONValueTests {
    @Test("Literals build the matching cases")
    func literals() {
        let value: JSONValue = [
            "n": nil, "b": true, "i": 2, "d": 1.5, "s": "x", "a": [1, "y"], "o": ["k": false],
        ]
        #expect(
            value
                == .object(
                    JSONObject(members: [
                        .init(key: "n", value: .null), .init(key: "b", value: .bool(true)),
                        .init(key: "i", value: .number(JSONNumber(2))),
                        .init(key: "d", value: .number(JSONNumber(1.5))),
                        .init(key: "s", value: .string("x")),
                        .init(key: "a", value: .array([.number(JSONNumber(1)), .string("y")])),
                        .init(
                            key: "o",
                            value: .object(JSONObject(members: [.init(key: "k", value: .bool(false))]))),
                    ])))
        #expect(
            value.jsonString() == #"{"n":null,"b":true,"i":2,"d":1.5,"s":"x","a":[1,"y"],"o":{"k":false}}"#)
    }

    @Test("typeName names the JSON type")
    func typeNames() {
        let values: [JSONValue] = [nil, true, 1, "s", [], [:]]
        #expect(values.map(\.typeName) == ["null", "boolean", "number", "string", "array", "object"])
    }

    @Test("Accessors return the payload of the matching case only")
    func accessors() {
        let string: JSONValue = "x"
        #expect(string.stringValue == "x")
        #expect(string.boolValue == nil)
        #expect(string.numberValue == nil)
        #expect(string.arrayValue == nil)
        #expect(string.objectValue == nil)
        #expect(!string.isNull)
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.bool(false).boolValue == false)
        #expect(JSONValue(integerLiteral: 3).numberValue?.integerValue == 3)
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.object(["a": 1]).objectValue?["a"] == 1)
    }

    @Test("Strings compare by Unicode scalars, not canonical equivalence")
    func scalarStringEquality() {
        let composed: JSONValue = .string("caf\u{E9}")
        let decomposed: JSONValue = .string("cafe\u{301}")
        #expect("caf\u{E9}" == "cafe\u{301}")  // Swift's own ==
        #expect(composed != decomposed)
        #expect(composed == .string("caf\u{E9}"))
        #expect(Set([composed, decomposed]).count == 2)
        #expect("caf\u{E9}".isScalarEqual(to: "cafe\u{301}") == false)
        #expect("".isScalarEqual(to: ""))
        #expect("abc".isScalarEqual(to: "abd") == false)
    }

    @Test("Numbers inside values compare by value: 1 == 1.0")
    func numberEquality() throws {
        #expect(try JSONValue(json: "[1, -0]") == JSONValue(json: "[1.0, 0]"))
        #expect(try JSONValue(json: "1").hashValue == JSONValue(json: "1.00").hashValue)
        #expect(JSONValue(integerLiteral: 1) == JSONValue(floatLiteral: 1.0))
        #expect(JSONValue(integerLiteral: 1) != "1")
    }

    @Test("Objects compare and hash regardless of member order, at every level")
    func orderInsensitiveEquality() throws {
        let first = try JSONValue(json: #"{"a":1,"b":{"x":[1,{"p":1,"q":2}],"y":null}}"#)
        let second = try JSONValue(json: #"{"b":{"y":null,"x":[1,{"q":2,"p":1}]},"a":1}"#)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        let different = try JSONValue(json: #"{"b":{"y":null,"x":[{"q":2,"p":1},1]},"a":1}"#)
        #expect(first != different)
        #expect(try JSONValue(json: #"{"a":1}"#) != JSONValue(json: #"{"a":1,"b":2}"#))
        #expect(try JSONValue(json: #"{"a":1}"#) != JSONValue(json: #"{"b":1}"#))
        #expect(try JSONValue(json: #"{"a":[1]}"#) != JSONValue(json: #"{"a":[1,2]}"#))
    }

    @Test("Different types are never equal")
    func crossTypeInequality() {
        let values: [JSONValue] = [nil, false, 0, "", [], [:]]
        for (i, a) in values.enumerated() {
            for (j, b) in values.enumerated() {
                #expect((a == b) == (i == j))
            }
        }
    }

    @Test("description is the compact JSON text")
    func valueDescription() {
        let value: JSONValue = ["a": [1, nil]]
        #expect(value.description == #"{"a":[1,null]}"#)
    }

    @Test("Values 1,000 levels deep compare, hash and write")
    func deepValueOperations() {
        var first: JSONValue = 1
        var second: JSONValue = 1
        for _ in 0..<500 {
            first = ["k": [first]]
            second = ["k": [second]]
        }
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first.jsonString().count == 500 * 8 + 1)
    }
}
