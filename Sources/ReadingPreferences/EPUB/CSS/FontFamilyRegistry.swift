/// The font families an app offers, with their alternates and optional `@font-face` rules,
/// used to build `--USER__fontFamily` stacks (Specs/CSS.md §1.5).
///
/// ```swift
/// var fonts = FontFamilyRegistry()
/// fonts.register(.init(name: "Literata", alternates: ["Georgia"]))
/// fonts.register(.init(name: "Georgia", alternates: ["serif"]))
/// fonts.stack(for: "Literata")   // ["Literata", "Georgia", "serif"]
/// ```
///
/// No family is registered by default: with an empty registry the stack is the chosen name alone.
public struct FontFamilyRegistry: Sendable, Hashable, Codable {
    /// A registered family.
    public struct Entry: Sendable, Hashable, Codable {
        /// The family name.
        public var name: String
        /// Families to fall back to, in order; each may have its own alternates.
        public var alternates: [String]
        /// An optional `@font-face` rule that provides the family.
        public var fontFace: String?

        /// Creates an entry.
        public init(name: String, alternates: [String] = [], fontFace: String? = nil) {
            self.name = name
            self.alternates = alternates
            self.fontFace = fontFace
        }
    }

    /// The entries, in registration order.
    public private(set) var entries: [Entry]
    /// The position of each name in ``entries``, so lookups stay constant-time for large
    /// registries (issue 11: no quadratic input).
    private var positions: [JSONScalarKey: Int]

    /// Creates a registry.
    ///
    /// - Parameter entries: The families; a later entry replaces an earlier one of the same name.
    public init(_ entries: [Entry] = []) {
        self.entries = []
        positions = [:]
        for entry in entries { register(entry) }
    }

    /// Registers a family, replacing an earlier entry of the same name.
    ///
    /// - Parameter entry: The family.
    public mutating func register(_ entry: Entry) {
        if let index = positions[JSONScalarKey(entry.name)] {
            entries[index] = entry
        } else {
            positions[JSONScalarKey(entry.name)] = entries.count
            entries.append(entry)
        }
    }

    /// The entry of a family.
    ///
    /// - Parameter name: The family name.
    /// - Returns: The entry, or `nil` when the family is not registered.
    public func entry(named name: String) -> Entry? {
        positions[JSONScalarKey(name)].map { entries[$0] }
    }

    /// The family followed by its alternates, resolved recursively depth-first; each name appears
    /// once, so a cycle cannot loop.
    public func stack(for family: String) -> [String] {
        var result: [String] = []
        var seen: Set<JSONScalarKey> = []
        var pending = [family]
        // An explicit stack (last in, first out) keeps the depth-first order without recursion.
        while let name = pending.popLast() {
            guard seen.insert(JSONScalarKey(name)).inserted else { continue }
            result.append(name)
            if let alternates = entry(named: name)?.alternates {
                pending.append(contentsOf: alternates.reversed())
            }
        }
        return result
    }

    /// The `--USER__fontFamily` value for a family: its stack, quoted where needed, joined by `", "`.
    public func cssValue(for family: String) -> String {
        // With no alternates registered for it, the stack is the name alone.
        guard !entries.isEmpty, let entry = entry(named: family), !entry.alternates.isEmpty else {
            return Self.cssName(family)
        }
        return stack(for: family).map(Self.cssName).joined(separator: ", ")
    }

    /// Registries are equal when their entries are.
    public static func == (lhs: FontFamilyRegistry, rhs: FontFamilyRegistry) -> Bool {
        lhs.entries == rhs.entries
    }

    /// Hashes the entries.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
    }

    private enum CodingKeys: String, CodingKey {
        case entries
    }

    /// Decodes a registry from its entries.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the entries are malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode([Entry].self, forKey: .entries))
    }

    /// Encodes the entries.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
    }

    /// The `@font-face` rules of the registered families, joined by newlines.
    public var fontFaceCSS: String {
        entries.compactMap(\.fontFace).joined(separator: "\n")
    }

    static let genericFamilies: Set<String> = [
        "serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui",
    ]

    /// A family name as CSS (Specs/CSS.md §1.5): bare when generic or an identifier
    /// (`-?[A-Za-z_][A-Za-z0-9_-]*`), otherwise a CSS string in double quotes in which `\\` and `"`
    /// are escaped by `\\`, every other control character (U+0001 to U+001F, U+007F) is a hex
    /// escape followed by a space (`\\a ` for a newline), and NUL becomes U+FFFD. So a stored
    /// name can never end the string or the declaration.
    static func cssName(_ name: String) -> String {
        if isIdentifier(name) || genericFamilies.contains(name) { return name }
        var quoted = "\""
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0:
                quoted.unicodeScalars.append("\u{FFFD}")
            case 0x01...0x1F, 0x7F:
                quoted += "\\" + String(scalar.value, radix: 16) + " "
            case 0x22, 0x5C:
                quoted.unicodeScalars.append("\\")
                quoted.unicodeScalars.append(scalar)
            default:
                quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    private static func isIdentifier(_ name: String) -> Bool {
        var bytes = name.utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return bytes.dropFirst().allSatisfy {
            isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
