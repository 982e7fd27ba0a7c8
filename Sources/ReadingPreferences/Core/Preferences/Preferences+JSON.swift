import Foundation

extension Preferences {
    /// Decodes a JSON document losslessly, keeping key order (Specs/Preferences.md §2).
    ///
    /// Throws a ``JSONDecodingError`` naming the problem and its byte offset when the input is
    /// empty, is not valid JSON, or its top level is not an object.
    ///
    /// ```swift
    /// let preferences = try Preferences(json: Data(#"{"theme":"dark"}"#.utf8))
    /// ```
    public init(json data: Data, options: JSONParsingOptions = .init()) throws(JSONDecodingError) {
        self = try Self.parse(data, options: options).preferences
    }

    /// Decodes a JSON document given as text.
    public init(json string: String, options: JSONParsingOptions = .init()) throws(JSONDecodingError) {
        self = try Self.parse(Array(string.utf8), options: options).preferences
    }

    /// Decodes a JSON document given as UTF-8 bytes.
    public init(json bytes: [UInt8], options: JSONParsingOptions = .init()) throws(JSONDecodingError) {
        self = try Self.parse(bytes, options: options).preferences
    }

    /// Parses bytes into preferences and the duplicated top-level keys.
    static func parse(
        _ bytes: some ContiguousBytes, options: JSONParsingOptions
    ) throws(JSONDecodingError) -> (preferences: Preferences, duplicateKeys: [String]) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONDecodingError) in
                try JSONParser.parseObjectDocument(
                    raw.bindMemory(to: UInt8.self), options: options, strings: JSONStringTable.vocabulary)
            }
        }
        let parsed = try result.get()
        var preferences = Preferences()
        preferences.members = parsed.members
        // Specs/Preferences.md §2: a JSON null means unset.
        if preferences.members.contains(where: \.value.isNull) {
            preferences.members.removeAll(where: \.value.isNull)
        }
        return (preferences, parsed.duplicateKeys)
    }

    /// Encodes the preferences as UTF-8 JSON, in stored order unless `options.sortedKeys`.
    public func jsonData(options: JSONEncodingOptions = .init()) -> Data {
        JSONWriter.writeObject(members, options: options) { $0.data() }
    }

    /// Encodes the preferences as JSON text.
    public func jsonString(options: JSONEncodingOptions = .init()) -> String {
        JSONWriter.writeObject(members, options: options) { $0.string() }
    }

    /// Encodes the preferences as UTF-8 bytes.
    public func jsonBytes(options: JSONEncodingOptions = .init()) -> [UInt8] {
        JSONWriter.writeObject(members, options: options) { $0.bytes() }
    }
}

extension Preferences: Codable {
    /// Decodes preferences from any decoder, as a JSON object.
    ///
    /// `JSONDecoder` cannot keep key order; ``init(json:options:)-(Data,_)`` is the lossless path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(JSONValue.self)
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch(
                JSONObject.self,
                .init(codingPath: decoder.codingPath, debugDescription: "Preferences must be a JSON object"))
        }
        self.init(object)
    }

    /// Encodes the preferences as a JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue.object(jsonObject))
    }
}
