/// Writes `JSONValue`s as UTF-8 JSON text.
///
/// Output is always valid JSON: strings escape only what JSON requires (`"`, `\`, and control
/// characters) and keep every other character as raw UTF-8, numbers are written as their
/// source text, and a synthesized non-finite number (which JSON cannot represent) becomes `null`.
enum JSONWriter {
    /// Appends the JSON text of `value` to `output`.
    static func write(_ value: JSONValue, options: JSONEncodingOptions, into output: inout [UInt8]) {
        writeValue(value, options: options, indent: 0, into: &output)
    }

    /// Appends the JSON text of an object with these members (in order unless sorting is asked).
    static func writeObject(
        _ members: [JSONObject.Member], options: JSONEncodingOptions, into output: inout [UInt8]
    ) {
        writeMembers(members, options: options, indent: 0, into: &output)
    }

    /// Appends a JSON string literal (with quotes) for `string`.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(JSONByte.quote)
        var copy = string
        copy.withUTF8 { bytes in
            // Copy runs of bytes that need no escape in one go.
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == JSONByte.quote || byte == JSONByte.backslash else { continue }
                if runStart < index {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                }
                runStart = index + 1
                output.append(JSONByte.backslash)
                switch byte {
                case JSONByte.quote, JSONByte.backslash: output.append(byte)
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    let hexDigits: StaticString = "0123456789abcdef"
                    let digits = hexDigits.utf8Start
                    output.append(UInt8(ascii: "u"))
                    output.append(JSONByte.zero)
                    output.append(JSONByte.zero)
                    output.append(digits[Int(byte >> 4)])
                    output.append(digits[Int(byte & 0x0F)])
                }
            }
            if runStart < bytes.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
            }
        }
        output.append(JSONByte.quote)
    }

    /// Appends a number's text, or `null` when the text is not JSON (a synthesized non-finite
    /// `Double` such as `inf`).
    static func writeNumber(_ number: JSONNumber, into output: inout [UInt8]) {
        // Every JSON number ends with a digit; "inf", "-inf" and "nan" do not. A parsed 1e400 is
        // not finite either, but its text is JSON and is kept as written.
        if number.isFinite || number.text.utf8.last.map({ $0 &- 0x30 < 10 }) == true {
            output.append(contentsOf: number.text.utf8)
        } else {
            appendASCII("null", to: &output)
        }
    }

    // MARK: - Private

    private static func appendASCII(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func newline(indent: Int, into output: inout [UInt8]) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: indent * 2))
    }

    /// Recursion is bounded by the value's nesting, which parsing limits to
    /// `JSONParsingOptions.depthCeiling` levels.
    private static func writeValue(
        _ value: JSONValue, options: JSONEncodingOptions, indent: Int, into output: inout [UInt8]
    ) {
        switch value {
        case .null: appendASCII("null", to: &output)
        case .bool(let flag): appendASCII(flag ? "true" : "false", to: &output)
        case .number(let number): writeNumber(number, into: &output)
        case .string(let string): writeString(string, into: &output)
        case .array(let elements):
            output.append(JSONByte.openBracket)
            guard !elements.isEmpty else {
                output.append(JSONByte.closeBracket)
                return
            }
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(JSONByte.comma) }
                if options.prettyPrinted { newline(indent: indent + 1, into: &output) }
                writeValue(element, options: options, indent: indent + 1, into: &output)
            }
            if options.prettyPrinted { newline(indent: indent, into: &output) }
            output.append(JSONByte.closeBracket)
        case .object(let object):
            writeMembers(object.members, options: options, indent: indent, into: &output)
        }
    }

    private static func writeMembers(
        _ members: [JSONObject.Member], options: JSONEncodingOptions, indent: Int,
        into output: inout [UInt8]
    ) {
        output.append(JSONByte.openBrace)
        guard !members.isEmpty else {
            output.append(JSONByte.closeBrace)
            return
        }
        let ordered =
            options.sortedKeys
            ? members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : members
        for (position, member) in ordered.enumerated() {
            if position > 0 { output.append(JSONByte.comma) }
            if options.prettyPrinted { newline(indent: indent + 1, into: &output) }
            writeString(member.key, into: &output)
            output.append(JSONByte.colon)
            if options.prettyPrinted { output.append(0x20) }
            writeValue(member.value, options: options, indent: indent + 1, into: &output)
        }
        if options.prettyPrinted { newline(indent: indent, into: &output) }
        output.append(JSONByte.closeBrace)
    }
}
