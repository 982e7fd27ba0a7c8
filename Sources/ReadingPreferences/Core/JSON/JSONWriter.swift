/// Writes `JSONValue`s as UTF-8 JSON text.
///
/// Output is always valid JSON: strings escape only what JSON requires (`"`, `\`, and control
/// characters) and keep every other character as raw UTF-8, numbers are written as their
/// source text, and a synthesized non-finite number (which JSON cannot represent) becomes `null`.
enum JSONWriter {
    /// Appends the JSON text of `value` to `output`.
    static func write(_ value: JSONValue, options: JSONEncodingOptions, into output: inout [UInt8]) {
        writeValue(value, options: options, into: &output)
    }

    /// Appends the JSON text of an object with these members (in order unless sorting is asked).
    static func writeObject(
        _ members: [JSONObject.Member], options: JSONEncodingOptions, into output: inout [UInt8]
    ) {
        writeValue(.object(JSONObject(uniqueMembers: members)), options: options, into: &output)
    }

    /// Appends a JSON string literal (with quotes) for `string`.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        // Fast path: most keys and values need no escape and are copied whole.
        let plain: Bool? = string.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte == JSONByte.quote || byte == JSONByte.backslash {
                return false
            }
            output.append(JSONByte.quote)
            output.append(contentsOf: bytes)
            output.append(JSONByte.quote)
            return true
        }
        if plain == true { return }
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

    /// A container being written: its elements (or members) and the next one to write.
    private struct Frame {
        var elements: [JSONValue] = []
        var members: [JSONObject.Member] = []
        var isObject: Bool
        var next = 0
        var count: Int { isObject ? members.count : elements.count }
    }

    /// Writes a value with an explicit stack of open containers instead of recursion, so
    /// writing deeply nested values cannot overflow the thread's stack.
    private static func writeValue(
        _ root: JSONValue, options: JSONEncodingOptions, into output: inout [UInt8]
    ) {
        let pretty = options.prettyPrinted
        var stack: [Frame] = []
        var current = root
        while true {
            switch current {
            case .null: appendASCII("null", to: &output)
            case .bool(let flag): appendASCII(flag ? "true" : "false", to: &output)
            case .number(let number): writeNumber(number, into: &output)
            case .string(let string): writeString(string, into: &output)
            case .array(let elements):
                output.append(JSONByte.openBracket)
                if elements.isEmpty {
                    output.append(JSONByte.closeBracket)
                } else {
                    stack.append(Frame(elements: elements, isObject: false))
                }
            case .object(let object):
                output.append(JSONByte.openBrace)
                if object.isEmpty {
                    output.append(JSONByte.closeBrace)
                } else {
                    let members =
                        options.sortedKeys
                        ? object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                        : object.members
                    stack.append(Frame(members: members, isObject: true))
                }
            }
            // Move to the next value to write, closing the containers that are complete.
            var found = false
            while let top = stack.last {
                let position = top.next
                if position < top.count {
                    if position > 0 { output.append(JSONByte.comma) }
                    if pretty { newline(indent: stack.count, into: &output) }
                    if top.isObject {
                        let member = top.members[position]
                        writeString(member.key, into: &output)
                        output.append(JSONByte.colon)
                        if pretty { output.append(0x20) }
                        current = member.value
                    } else {
                        current = top.elements[position]
                    }
                    stack[stack.count - 1].next = position + 1
                    found = true
                    break
                }
                stack.removeLast()
                if pretty { newline(indent: stack.count, into: &output) }
                output.append(top.isObject ? JSONByte.closeBrace : JSONByte.closeBracket)
            }
            if !found { return }
        }
    }
}
