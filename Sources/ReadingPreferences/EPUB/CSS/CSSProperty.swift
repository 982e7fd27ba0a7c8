/// One CSS custom property or declaration, such as `--USER__fontSize: 150%`.
public struct CSSProperty: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The property name, such as `--USER__fontSize`.
    public var name: String
    /// The property value, such as `150%`.
    public var value: String

    /// Creates a property.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `name: value !important;`, as written in an inline style.
    public var declaration: String { name + ": " + value + " !important;" }

    /// `name: value`.
    public var description: String { name + ": " + value }
}

/// Readium CSS properties: an ordered map, sorted by name, with an inline `style` form (SPEC 8).
///
/// ```swift
/// let css = settings.readiumCSS()
/// css["--USER__fontSize"]   // "150%"
/// css.inlineStyle           // "--USER__appearance: readium-night-on !important; ..."
/// ```
public struct ReadiumCSSProperties: Sendable, Hashable, RandomAccessCollection {
    /// The properties, sorted by name.
    public private(set) var properties: [CSSProperty]

    /// Creates a map from properties; they are sorted by name and a repeated name keeps its last value.
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
        self.properties = unique.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The value of a property, or `nil` when absent.
    public subscript(name: String) -> String? {
        // The properties are sorted by the bytes of their names: a binary search.
        var low = 0
        var high = properties.count
        while low < high {
            let middle = (low + high) / 2
            let candidate = properties[middle].name
            if candidate.utf8.lexicographicallyPrecedes(name.utf8) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low < properties.count, properties[low].name.utf8.elementsEqual(name.utf8) else { return nil }
        return properties[low].value
    }

    /// Wraps properties already sorted by name and unique (the user properties as emitted).
    init(sortedUnique properties: [CSSProperty]) {
        self.properties = properties
    }

    /// The position of the first property.
    public var startIndex: Int { properties.startIndex }
    /// The position after the last property.
    public var endIndex: Int { properties.endIndex }
    /// The property at a position.
    public subscript(position: Int) -> CSSProperty { properties[position] }

    /// A fingerprint of the properties, stable across processes, machines and runs: 32 lower-case
    /// hex digits of the SHA-256 of ``inlineStyle``. Equal CSS has an equal fingerprint, for an
    /// HTTP ETag of a served stylesheet.
    public var fingerprint: String {
        String(SHA256.hash(Array(inlineStyle.utf8)).hexString.prefix(32))
    }

    /// The names, in order.
    public var names: [String] { properties.map(\.name) }

    /// The inline `style` attribute: `name: value !important;` per property, joined by a space.
    public var inlineStyle: String {
        // One allocation, bytes copied once: a served page asks for this on every request, and
        // `String.append` goes through its slow general path for each piece.
        var capacity = 0
        for property in properties { capacity += property.name.utf8.count + property.value.utf8.count + 15 }
        guard capacity > 0 else { return "" }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var position = 0
            for index in properties.indices {
                if index > 0 { Self.copy(" ", into: buffer, at: &position) }
                Self.copy(properties[index].name, into: buffer, at: &position)
                Self.copy(": ", into: buffer, at: &position)
                Self.copy(properties[index].value, into: buffer, at: &position)
                Self.copy(" !important;", into: buffer, at: &position)
            }
            return position
        }
    }

    /// Copies a literal's bytes into the buffer; the caller reserved enough room.
    @inline(__always)
    private static func copy(
        _ text: StaticString, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: inout Int
    ) {
        copy(
            UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), into: buffer,
            at: &position)
    }

    /// Copies a string's UTF-8 bytes into the buffer; the caller reserved enough room.
    @inline(__always)
    private static func copy(
        _ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: inout Int
    ) {
        // Large strings are contiguous already; small ones (15 bytes or fewer) are copied byte
        // by byte from their inline storage.
        if text.utf8.withContiguousStorageIfAvailable({ copy($0, into: buffer, at: &position) }) == nil {
            for byte in text.utf8 where position < buffer.count {
                buffer[position] = byte
                position += 1
            }
        }
    }

    @inline(__always)
    private static func copy(
        _ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>,
        at position: inout Int
    ) {
        let count = Swift.min(bytes.count, buffer.count - position)
        guard count > 0, let source = bytes.baseAddress, let target = buffer.baseAddress else { return }
        (target + position).update(from: source, count: count)
        position += count
    }
}
