import Foundation

/// Writes a JSON document piece by piece, for formats whose structure is known (the store's sync
/// files): a large document is written straight from its own types, never built as a
/// `JSONValue` tree first. Strings are escaped and values written exactly as
/// ``JSONValue/jsonString(options:)`` writes them; the caller places the punctuation.
///
/// ```swift
/// var stream = JSONTextStream(capacity: 1024)
/// stream.append("{")
/// stream.appendString("fontSize")
/// stream.append(":")
/// stream.appendValue(1.4)
/// stream.append("}")
/// let data = stream.data()    // {"fontSize":1.4}
/// ```
package struct JSONTextStream: ~Copyable {
    private var output: TextOutput

    /// An empty stream with room for `capacity` bytes before it grows.
    package init(capacity: Int) {
        output = TextOutput(capacity: capacity)
    }

    /// Appends ASCII punctuation or a literal as is.
    package mutating func append(_ text: StaticString) {
        output.append(text)
    }

    /// Appends a string literal, quoted and escaped.
    package mutating func appendString(_ string: String) {
        JSONWriter.writeString(string, into: &output)
    }

    /// Appends a value's compact JSON text (members in their order, or sorted by key bytes).
    package mutating func appendValue(_ value: JSONValue, sortedKeys: Bool = false) {
        JSONWriter.appendValue(value, options: JSONEncodingOptions(sortedKeys: sortedKeys), into: &output)
    }

    /// Appends a non-negative integer in decimal.
    package mutating func appendInteger(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var remaining = value
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            output.append(UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[index...]))
        }
    }

    /// The text as `Data`.
    package consuming func data() -> Data {
        output.data()
    }
}
