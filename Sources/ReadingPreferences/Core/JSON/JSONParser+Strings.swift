// String parsing: an ASCII fast path that slices the input, and a slower path for escapes.

extension JSONParserState {
    /// Parses the string whose opening quote is at the cursor.
    ///
    /// The fast path scans for the closing quote; when it finds neither a backslash nor a
    /// non-ASCII byte, the bytes are already the string's UTF-8, so the `String` is made directly
    /// from the slice (`String(decoding:)` on up to 15 bytes builds a small string in place).
    /// Non-ASCII bytes are validated here because `String(decoding:)` would silently replace
    /// invalid sequences with U+FFFD, and the document must be rejected instead.
    @inline(__always)
    mutating func parseString() throws(JSONDecodingError) -> String {
        try parseString(fingerprinted: false).string
    }

    /// Parses the string at the cursor and, when `fingerprinted`, the fingerprint of its UTF-8
    /// bytes that object builders use to find duplicate keys quickly (else the fingerprint is 0).
    @inline(__always)
    mutating func parseString(
        fingerprinted: Bool
    ) throws(JSONDecodingError) -> (string: String, fingerprint: UInt64) {
        position += 1
        let start = position
        while true {
            position = JSONByteScan.firstStop(in: bytes, from: position, nonASCII: true)
            guard position < end else { break }
            let byte = bytes[position]
            if byte == JSONByte.quote {
                let content = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if let strings {
                    let words = JSONKeyWords(content)
                    let string =
                        strings.string(for: content, words: words) ?? String(decoding: content, as: UTF8.self)
                    return (string, words.fingerprint)
                }
                let string = String(decoding: content, as: UTF8.self)
                return (string, fingerprinted ? JSONObjectBuilder.fingerprint(of: content) : 0)
            }
            if byte == JSONByte.backslash { return try parseEscapedString(from: start) }
            if byte < 0x20 {
                throw JSONDecodingError(code: .controlCharacterInString, offset: position)
            }
            position = try endOfUTF8Sequence(at: position)
        }
        throw JSONDecodingError(code: .unexpectedEndOfInput, offset: end)
    }

    /// Finishes a string that contains escapes, unescaping into `scratch`.
    ///
    /// `start` is the first byte of the string's content; the cursor is at the first backslash
    /// and everything before it has been validated.
    mutating func parseEscapedString(
        from start: Int
    ) throws(JSONDecodingError) -> (string: String, fingerprint: UInt64) {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < end {
            let byte = bytes[position]
            if byte == JSONByte.quote {
                position += 1
                return scratch.withUnsafeBufferPointer { content in
                    (String(decoding: content, as: UTF8.self), JSONObjectBuilder.fingerprint(of: content))
                }
            }
            if byte == JSONByte.backslash {
                try parseEscape()
            } else if byte < 0x20 {
                throw JSONDecodingError(code: .controlCharacterInString, offset: position)
            } else if byte < 0x80 {
                scratch.append(byte)
                position += 1
            } else {
                let next = try endOfUTF8Sequence(at: position)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<next]))
                position = next
            }
        }
        throw JSONDecodingError(code: .unexpectedEndOfInput, offset: end)
    }

    /// Decodes the escape at the cursor (a backslash) into `scratch`.
    mutating func parseEscape() throws(JSONDecodingError) {
        let escapeStart = position
        position += 1
        guard position < end else { throw JSONDecodingError(code: .unexpectedEndOfInput, offset: end) }
        let kind = bytes[position]
        position += 1
        switch kind {
        case JSONByte.quote, JSONByte.backslash, UInt8(ascii: "/"): scratch.append(kind)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4(escapeStart: escapeStart)
            var scalarValue = UInt32(unit)
            if unit >= 0xD800, unit <= 0xDBFF {
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard position + 1 < end, bytes[position] == JSONByte.backslash,
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw JSONDecodingError(code: .loneSurrogate, offset: escapeStart) }
                let lowStart = position
                position += 2
                let low = try readHex4(escapeStart: lowStart)
                guard low >= 0xDC00, low <= 0xDFFF else {
                    throw JSONDecodingError(code: .loneSurrogate, offset: escapeStart)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if unit >= 0xDC00, unit <= 0xDFFF {
                throw JSONDecodingError(code: .loneSurrogate, offset: escapeStart)
            }
            appendUTF8(scalarValue)
        default:
            throw JSONDecodingError(code: .invalidEscape, offset: escapeStart)
        }
    }

    /// Reads the four hex digits of a `\u` escape at the cursor.
    mutating func readHex4(escapeStart: Int) throws(JSONDecodingError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard position < end else { throw JSONDecodingError(code: .unexpectedEndOfInput, offset: end) }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw JSONDecodingError(code: .invalidEscape, offset: escapeStart)
            }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }

    /// Appends the UTF-8 encoding of a scalar value (never a surrogate) to `scratch`.
    mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case 0..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: value))
        case 0x80..<0x800:
            scratch.append(UInt8(truncatingIfNeeded: 0xC0 | value >> 6))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(truncatingIfNeeded: 0xE0 | value >> 12))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        default:
            scratch.append(UInt8(truncatingIfNeeded: 0xF0 | value >> 18))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value >> 12 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        }
    }

    /// The offset after the well-formed UTF-8 sequence that starts at `offset` with a byte
    /// >= 0x80, or `invalidUTF8` at `offset`.
    ///
    /// Follows the Unicode table of well-formed sequences, so overlong forms, encoded surrogates
    /// and values above U+10FFFF are all rejected.
    @inline(__always)
    func endOfUTF8Sequence(at offset: Int) throws(JSONDecodingError) -> Int {
        guard let length = utf8SequenceLength(at: offset) else {
            throw JSONDecodingError(code: .invalidUTF8, offset: offset)
        }
        return offset + length
    }

    /// The length of the well-formed UTF-8 sequence at `offset`, or nil.
    func utf8SequenceLength(at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var secondLow: UInt8 = 0x80
        var secondHigh: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondLow = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondHigh = 0x9F
        case 0xF0:
            length = 4
            secondLow = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondHigh = 0x8F
        default: return nil
        }
        guard end - offset >= length else { return nil }
        let second = bytes[offset + 1]
        guard second >= secondLow, second <= secondHigh else { return nil }
        for index in 2..<length where bytes[offset + index] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }

    /// The scalar encoded at `offset` when it is well-formed UTF-8 (for error descriptions).
    func decodeScalar(at offset: Int) -> Unicode.Scalar? {
        guard let length = utf8SequenceLength(at: offset) else { return nil }
        var value = UInt32(bytes[offset]) & (0xFF >> (length + 1))
        for index in 1..<length {
            value = value << 6 | UInt32(bytes[offset + index] & 0x3F)
        }
        return Unicode.Scalar(value)
    }
}
