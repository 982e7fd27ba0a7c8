extension JSONValue: Codable {
    /// Decodes any JSON value from a decoder. Object member order is whatever the decoder
    /// provides; `JSONDecoder` does not keep it, ``init(json:options:)-(Data,_)`` does.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var result = JSONObject()
            for key in object.allKeys {
                result[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(result)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? single.decode(Double.self) {
            self = .number(JSONNumber(value))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes the value, keeping object member order where the encoder does.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let number):
            var single = encoder.singleValueContainer()
            if let integer = number.integerValue,
                !number.text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            {
                try single.encode(integer)
            } else if number.isFinite {
                try single.encode(number.doubleValue)
            } else {
                try single.encodeNil()
            }
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for member in object.members {
                try container.encode(member.value, forKey: AnyCodingKey(member.key))
            }
        }
    }
}

/// A coding key for arbitrary strings.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
