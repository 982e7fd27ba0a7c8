import Foundation

/// Readium CSS properties: an ordered map, sorted by name, with an inline `style` form (Specs/CSS.md §1.1).
///
/// ```swift
/// let css = settings.readiumCSS()
/// css["--USER__fontSize"]   // "150%"
/// css.inlineStyle           // "--USER__appearance: readium-night-on !important; ..."
/// ```
///
/// The properties are kept as their inline style, with where each name and value sit in it: a
/// served page asks for ``inlineStyle`` on every request, so it is written once, when the
/// properties are made, and reading it costs nothing. A property's name and value are made into
/// strings only when asked for (``properties``, the subscripts, iteration).
public struct ReadiumCSSProperties: Sendable, Hashable, RandomAccessCollection {
    /// The inline `style` attribute: `name: value !important;` per property, joined by a space.
    public let inlineStyle: String

    /// Where each property's name and value are in ``inlineStyle``: the name runs from
    /// `nameStart` to two bytes (`": "`) before `valueStart`, the value to `valueEnd`.
    struct Span: Sendable, Hashable {
        let nameStart: Int
        let valueStart: Int
        let valueEnd: Int
    }

    private let spans: [Span]

    init(inlineStyle: String, spans: [Span]) {
        self.inlineStyle = inlineStyle
        self.spans = spans
    }

    /// Creates a map from properties; they are sorted by name and a repeated name keeps its last value.
    ///
    /// - Parameter properties: The properties, in any order.
    public init(_ properties: [CSSProperty] = []) {
        var positions: [String: Int] = [:]
        var unique: [CSSProperty] = []
        unique.reserveCapacity(properties.count)
        for property in properties {
            if let index = positions[property.name] {
                unique[index].value = property.value
            } else {
                positions[property.name] = unique.count
                unique.append(property)
            }
        }
        unique.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        self.init(sortedUnique: unique)
    }

    /// Writes properties already sorted by name and unique.
    init(sortedUnique properties: [CSSProperty]) {
        var capacity = 0
        for property in properties { capacity += property.name.utf8.count + property.value.utf8.count + 15 }
        var writer = ReadiumCSSStyleWriter(capacity: capacity, properties: properties.count)
        for property in properties {
            writer.beginProperty()
            writer.output.append(contentsOf: property.name)
            writer.beginValue()
            writer.output.append(contentsOf: property.value)
            writer.endProperty()
        }
        self = writer.finish()
    }

    /// The properties, in name order.
    public var properties: [CSSProperty] { Array(self) }

    /// The names, in order.
    public var names: [String] { indices.map(name(at:)) }

    /// The position of the first property.
    public var startIndex: Int { 0 }
    /// The position after the last property.
    public var endIndex: Int { spans.count }

    /// The property at a position.
    ///
    /// - Parameter position: A position in ``startIndex`` ..< ``endIndex``.
    public subscript(position: Int) -> CSSProperty {
        CSSProperty(name: name(at: position), value: value(at: position))
    }

    /// The value of a property, or `nil` when absent.
    ///
    /// - Parameter name: The property name.
    public subscript(name: String) -> String? {
        var key = name
        return key.withUTF8 { key in
            withStyleBytes { style in
                // The names are sorted by their bytes: a binary search.
                var low = 0
                var high = spans.count
                while low < high {
                    let middle = (low + high) / 2
                    if nameBytes(middle, in: style).lexicographicallyPrecedes(key) {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
                guard low < spans.count, JSONByteScan.equal(nameBytes(low, in: style), key) else {
                    return nil
                }
                return String(decoding: valueBytes(low, in: style), as: UTF8.self)
            }
        }
    }

    /// A fingerprint of the properties, stable across processes, machines and runs: 32 lower-case
    /// hex digits of the SHA-256 of ``inlineStyle``. Equal CSS has an equal fingerprint, for an
    /// HTTP ETag of a served stylesheet.
    public var fingerprint: String {
        SHA256.hash(inlineStyle.utf8).hexString(digits: 32)
    }

    // MARK: - Reading the style

    private func withStyleBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        // The style is a native string made here, so its UTF-8 is contiguous.
        if let result = inlineStyle.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(inlineStyle.utf8).withUnsafeBufferPointer(body)
    }

    private func nameBytes(_ position: Int, in style: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<
        UInt8
    > {
        let span = spans[position]
        return UnsafeBufferPointer(rebasing: style[span.nameStart..<span.valueStart - 2])
    }

    private func valueBytes(_ position: Int, in style: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<
        UInt8
    > {
        let span = spans[position]
        return UnsafeBufferPointer(rebasing: style[span.valueStart..<span.valueEnd])
    }

    private func name(at position: Int) -> String {
        withStyleBytes { String(decoding: nameBytes(position, in: $0), as: UTF8.self) }
    }

    private func value(at position: Int) -> String {
        withStyleBytes { String(decoding: valueBytes(position, in: $0), as: UTF8.self) }
    }
}

/// Writes an inline style and the spans of its properties: `name: value !important;`, joined by
/// a space. The one place the format is written.
struct ReadiumCSSStyleWriter: ~Copyable {
    /// The style being written.
    var output: TextOutput
    private var spans: [ReadiumCSSProperties.Span] = []
    private var nameStart = 0
    private var valueStart = 0

    /// A writer for about `capacity` bytes of style and at most `properties` properties.
    init(capacity: Int, properties: Int) {
        output = TextOutput(capacity: capacity)
        spans.reserveCapacity(properties)
    }

    /// A writer that starts in `storage` (which must outlive it), for at most `properties`
    /// properties.
    init(startingIn storage: UnsafeMutableBufferPointer<UInt8>, properties: Int) {
        output = TextOutput(startingIn: storage)
        spans.reserveCapacity(properties)
    }

    /// Where the property being written starts, separator included.
    private var propertyStart = 0

    /// Starts a property: its name follows.
    @inline(__always)
    mutating func beginProperty() {
        propertyStart = output.count
        if !spans.isEmpty { output.append(0x20) }
        nameStart = output.count
    }

    /// Forgets the property being written (it has no value after all).
    mutating func cancelProperty() {
        output.removeLast(output.count - propertyStart)
    }

    /// Ends the name: the value follows.
    @inline(__always)
    mutating func beginValue() {
        output.append(": ")
        valueStart = output.count
    }

    /// Ends the property.
    @inline(__always)
    mutating func endProperty() {
        spans.append(.init(nameStart: nameStart, valueStart: valueStart, valueEnd: output.count))
        output.append(" !important;")
    }

    /// The properties written.
    consuming func finish() -> ReadiumCSSProperties {
        ReadiumCSSProperties(inlineStyle: spans.isEmpty ? "" : output.string(), spans: spans)
    }
}
