/// Writes `JSONValue`s as UTF-8 JSON text.
///
/// Output is always valid JSON: strings escape only what JSON requires (`"`, `\`, and control
/// characters) and keep every other character as raw UTF-8, numbers are written as their
/// source text, and a synthesized non-finite number (which JSON cannot represent) becomes `null`.
///
/// A stored preferences object is flat, so the members of the top-level object are written in
/// one loop; nested arrays and objects go through an explicit stack, never recursion, so a
/// deeply nested value cannot overflow the thread's stack.
enum JSONWriter {
    /// The JSON text of `value`, handed to `finish` (which makes the `Data`, `String` or bytes).
    static func write<Result>(
        _ value: JSONValue, options: JSONEncodingOptions, finish: (consuming TextOutput) -> Result
    ) -> Result {
        if case .object(let object) = value {
            return writeObject(object.members, options: options, finish: finish)
        }
        return withOutput(estimatedSize: 64) { (output: consuming TextOutput) in
            writeNested(value, depth: 0, options: options, into: &output)
            return finish(output)
        }
    }

    /// The JSON text of an object with these members (in order unless sorting is asked), handed
    /// to `finish`.
    static func writeObject<Result>(
        _ members: [JSONObject.Member], options: JSONEncodingOptions, finish: (consuming TextOutput) -> Result
    ) -> Result {
        withOutput(estimatedSize: estimatedSize(of: members)) { (output: consuming TextOutput) in
            if options.sortedKeys {
                writeMembers(
                    members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }, depth: 0,
                    options: options, into: &output)
            } else {
                writeMembers(members, depth: 0, options: options, into: &output)
            }
            return finish(output)
        }
    }

    /// The most a document is written on the stack: a typical stored document fits, and its
    /// `Data`, `String` or bytes are then one copy with no buffer of ours to allocate or free
    /// (for `Data`, cheaper than handing it a heap buffer with a deallocator).
    private static var stackLimit: Int { 512 }

    /// Runs `body` with an empty output: on the stack when `estimatedSize` is small (growing
    /// onto the heap if the text outgrows it), else on the heap.
    @inline(__always)
    private static func withOutput<Result>(
        estimatedSize: Int, _ body: (consuming TextOutput) -> Result
    ) -> Result {
        guard estimatedSize <= stackLimit else { return body(TextOutput(capacity: estimatedSize)) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stackLimit) { storage in
            body(TextOutput(startingIn: storage))
        }
    }

    /// About the size of the compact text of these members: a typical member (a key of a dozen
    /// bytes and a number or a short string) fits, so a stored document rarely grows the output.
    private static func estimatedSize(of members: [JSONObject.Member]) -> Int {
        32 + 32 * members.count
    }

    /// Writes `{...}` with these members at `depth` (0 for the top level).
    private static func writeMembers(
        _ members: [JSONObject.Member], depth: Int, options: JSONEncodingOptions,
        into output: inout TextOutput
    ) {
        output.append(JSONByte.openBrace)
        if members.isEmpty {
            output.append(JSONByte.closeBrace)
            return
        }
        let pretty = options.prettyPrinted
        for index in members.indices {
            if index > 0 { output.append(JSONByte.comma) }
            if pretty { newline(indent: depth + 1, into: &output) }
            writeString(members[index].key, into: &output)
            output.append(JSONByte.colon)
            if pretty { output.append(0x20) }
            writeNested(members[index].value, depth: depth + 1, options: options, into: &output)
        }
        if pretty { newline(indent: depth, into: &output) }
        output.append(JSONByte.closeBrace)
    }

    /// Appends a JSON string literal (with quotes) for `string`.
    static func writeString(_ string: String, into output: inout TextOutput) {
        output.append(JSONByte.quote)
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, into: &output) }) == nil {
            writeEscaped(Array(string.utf8), into: &output)
        }
        output.append(JSONByte.quote)
    }

    private static func writeEscaped(_ bytes: [UInt8], into output: inout TextOutput) {
        bytes.withUnsafeBufferPointer { writeEscaped($0, into: &output) }
    }

    /// Appends the bytes of a string's content, escaping what JSON requires; runs that need no
    /// escape (most strings, whole) are copied in one piece.
    @inline(__always)
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout TextOutput) {
        var runStart = 0
        while true {
            let stop = JSONByteScan.firstStop(in: bytes, from: runStart, nonASCII: false)
            if runStart == 0 && stop == bytes.count { return output.append(bytes) }
            if runStart < stop { output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<stop])) }
            guard stop < bytes.count else { return }
            writeEscape(bytes[stop], into: &output)
            runStart = stop + 1
        }
    }

    private static func writeEscape(_ byte: UInt8, into output: inout TextOutput) {
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
            output.append("u00")
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
    }

    private static func newline(indent: Int, into output: inout TextOutput) {
        output.append(0x0A)
        output.append(0x20, count: indent * 2)
    }

    /// A container being written: its elements (or members) and the next one to write.
    private struct Frame {
        var elements: [JSONValue] = []
        var members: [JSONObject.Member] = []
        var isObject: Bool
        var next = 0
        var count: Int { isObject ? members.count : elements.count }
    }

    /// Appends a value's JSON text at the top level, for ``JSONTextStream``.
    static func appendValue(_ value: JSONValue, options: JSONEncodingOptions, into output: inout TextOutput) {
        writeNested(value, depth: 0, options: options, into: &output)
    }

    /// Writes a value whose containers are `depth` levels deep already, with an explicit stack
    /// of open containers instead of recursion.
    private static func writeNested(
        _ root: JSONValue, depth: Int, options: JSONEncodingOptions, into output: inout TextOutput
    ) {
        // Scalars, the common case, need no stack.
        switch root {
        case .null: return output.append("null")
        case .bool(let flag): return output.append(flag ? "true" : "false")
        case .number(let number): return number.appendJSON(to: &output)
        case .string(let string): return writeString(string, into: &output)
        case .array, .object: break
        }
        let pretty = options.prettyPrinted
        var stack: [Frame] = []
        var current = root
        while true {
            switch current {
            case .null: output.append("null")
            case .bool(let flag): output.append(flag ? "true" : "false")
            case .number(let number): number.appendJSON(to: &output)
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
                    if pretty { newline(indent: depth + stack.count, into: &output) }
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
                if pretty { newline(indent: depth + stack.count, into: &output) }
                output.append(top.isObject ? JSONByte.closeBrace : JSONByte.closeBracket)
            }
            if !found { return }
        }
    }
}
